/**
 * Reports at scale (issue 23): a month's VAT report and a year's sales by month for a company
 * with BENCH_REPORTS_ROWS invoices (default 1 000 000, two lines each) among 100 companies,
 * against the same reports for a company with 1 000 invoices, in the same run, on both
 * databases; with the query plans (EXPLAIN) of the two reports' SQL for the big company.
 *
 *   node bench/reports.bench.ts                        # SQLite and PostgreSQL
 *   node bench/reports.bench.ts --engine sqlite        # or --engine postgres
 *   BENCH_REPORTS_ROWS=200000 node bench/reports.bench.ts   # a smaller big company
 *
 * The big company's invoices are spread evenly over 2022-01-01 … 2026-12-31 (5 years), so a
 * month holds 1/60 of them; the small company's 1 000 invoices all fall in the measured month
 * (November 2026), so its month report aggregates 1 000 invoices. Each of the 98 other companies
 * gets 1 000 invoices over the 5 years. Rows go straight into the tables by INSERT … SELECT over
 * a number series, as the lists bench does, and the running totals the reports read are then
 * summed from them by migration 0020's backfill (timed as its own step); the reports are called
 * through the service, in process (the HTTP layer adds the same constant to both sides). p50 of
 * 51 calls each after a warm-up, big and small alternating (the reports answer in a millisecond
 * or two, where a shared machine's bursts of load swing a p50 of fewer calls).
 */
import { performance } from 'node:perf_hooks';
import { sql, type Kysely } from 'kysely';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { createDemoCompany, type DemoCompany } from '../src/modules/demo/demo-company.ts';
import { buildApp } from '../src/http/build-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../test/support/sales-helpers.ts';
import { backfillSaleTotals } from '../src/db/migrations/0020-sale-totals.ts';
import { readFileSync } from 'node:fs';
import {
  enginesFromArgs,
  freePort,
  freshStorage,
  startPortico,
  stop,
  waitForHttp,
  type Child,
  type EngineName,
} from './support/harness.ts';

const ROWS = Number(process.env.BENCH_REPORTS_ROWS ?? 1_000_000);
const SMALL = 1_000;
const OTHERS = 98;
const START = Date.parse('2022-01-01T00:00:00.000Z') / 1000;
const SPAN = Date.parse('2027-01-01T00:00:00.000Z') / 1000 - START;
const MONTH_START = Date.parse('2026-11-01T00:00:00.000Z') / 1000;
const MONTH_SPAN = 29 * 86_400;

type Db = Kysely<any>;

function series(engine: EngineName, n: number): string {
  return engine === 'postgres'
    ? `(select g as n from generate_series(0, ${n - 1}) g) s`
    : `(with recursive r(n) as (select 0 union all select n + 1 from r where n < ${n - 1}) select n from r) s`;
}

function instant(engine: EngineName, seconds: string): string {
  return engine === 'postgres' ? `to_timestamp(${seconds})` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`;
}

/** `count` invoices of one company at one location, issued from `start` over `span` seconds, with two lines each. */
async function invoices(
  db: Db,
  engine: EngineName,
  company: { id: string; location: string; customer: string },
  prefix: string,
  count: number,
  start: number,
  span: number,
): Promise<void> {
  // 64-bit arithmetic: n × span passes 2^31 (PostgreSQL's integer) long before a million rows.
  const at = instant(engine, `${start} + (s.n * ${engine === 'postgres' ? `${span}::bigint` : span}) / ${count}`);
  // Line A: 25 % on 1 000 … 5 990 cents; line B: 13 % on 500 cents (tax 65).
  const netA = `(1000 + (s.n % 500) * 10)`;
  const taxA = `((${netA} * 25 + 50) / 100)`;
  await sql
    .raw(
      `insert into sales (id, company_id, location_id, number, status, source_type, source_id, source_number, customer_id, customer_kind, customer_name, currency, prices_include_tax, repriced, net_minor, tax_minor, total_minor, paid_minor, created_at, kind, issued_at, credited_minor, created_by, operator_name)
       select '${prefix}' || s.n, '${company.id}', '${company.location}', '${prefix}' || s.n, 'unpaid', 'quotation', '${prefix}q' || s.n, 'Q' || s.n, '${company.customer}', 'business', 'Kovač obrt', 'EUR', ${engine === 'postgres' ? 'false' : '0'}, ${engine === 'postgres' ? 'false' : '0'},
              ${netA} + 500, ${taxA} + 65, ${netA} + ${taxA} + 565, 0, ${at}, 'invoice', ${at}, 0, null, 'Ana Kovač'
       from ${series(engine, count)}`,
    )
    .execute(db);
  for (const [k, rate, net, tax] of [
    [1, 2500, netA, taxA],
    [2, 1300, '500', '65'],
  ] as const)
    await sql
      .raw(
        `insert into sale_lines (id, company_id, document_id, position, product_id, unit_id, product_name, product_code, unit_name, quantity_milli, unit_price_minor, tax_rate_bp, net_minor, tax_minor, total_minor, note)
         select '${prefix}l${k}_' || s.n, '${company.id}', '${prefix}' || s.n, ${k}, 'prd_x', 'unt_x', 'Boja', null, 'kom', 1000, ${net}, ${rate}, ${net}, ${tax}, ${net} + ${tax}, null
         from ${series(engine, count)}`,
      )
      .execute(db);
}

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function plan(db: Db, engine: EngineName, text: string, parameters: readonly unknown[]): Promise<string> {
  if (engine === 'postgres') {
    const rows = await sql.raw(`explain (analyze, buffers) ${inline(text, parameters, engine)}`).execute(db);
    return (rows.rows as Array<Record<string, string>>).map((r) => r['QUERY PLAN']).join('\n');
  }
  const rows = await sql.raw(`explain query plan ${inline(text, parameters, engine)}`).execute(db);
  return (rows.rows as Array<{ detail: string }>).map((r) => r.detail).join('\n');
}

/** The statement with its parameters written in (EXPLAIN takes no bound parameters here). */
function inline(text: string, parameters: readonly unknown[], engine: EngineName): string {
  const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
  return engine === 'postgres'
    ? text.replace(/\$(\d+)/g, (_, i) => literal(parameters[Number(i) - 1]))
    : text.replace(
        /\?/g,
        (() => {
          let i = 0;
          return () => literal(parameters[i++]);
        })(),
      );
}

async function runEngine(engine: EngineName) {
  const storage = freshStorage(engine, 'reports');
  const c = await createContainer(
    loadConfig({ DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir, LOG_LEVEL: 'silent', WORKER: 'off' }),
  );
  const db = c.database.db as Db;
  const steps: string[] = [];
  const step = async (name: string, work: () => Promise<void>) => {
    const t0 = performance.now();
    await work();
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    steps.push(`${name}: ${s} s`);
    process.stderr.write(`reports (${engine}): ${name} ${s} s\n`);
  };
  try {
    const big = await createDemoCompany(c);
    const small = await createDemoCompany(c);
    const customerOf = async (companyId: string) => `cus_${companyId}`;
    await step(`${OTHERS} other companies × ${SMALL} invoices`, async () => {
      const template = await db
        .selectFrom('companies')
        .selectAll()
        .where('id', '=', big.companyId)
        .executeTakeFirstOrThrow();
      for (let i = 0; i < OTHERS; i++) {
        const id = `cmp_benchrep${String(i).padStart(3, '0')}`;
        await db
          .insertInto('companies')
          .values({ ...template, id, name: `Trgovina ${i}` })
          .execute();
        await db
          .insertInto('locations')
          .values({
            id: `loc_${id}`,
            company_id: id,
            name: 'Zagreb',
            code: 'ZG1',
            address: null,
            created_at: template.created_at,
          })
          .execute();
        await invoices(
          db,
          engine,
          { id, location: `loc_${id}`, customer: await customerOf(id) },
          `o${i}_`,
          SMALL,
          START,
          SPAN,
        );
      }
    });
    await step(`small company: ${SMALL} invoices in November 2026`, async () => {
      await invoices(
        db,
        engine,
        { id: small.companyId, location: small.locations[0]!.id, customer: await customerOf(small.companyId) },
        's_',
        SMALL,
        MONTH_START,
        MONTH_SPAN,
      );
    });
    await step(`big company: ${ROWS} invoices over 2022–2026`, async () => {
      await invoices(
        db,
        engine,
        { id: big.companyId, location: big.locations[0]!.id, customer: await customerOf(big.companyId) },
        'b_',
        ROWS,
        START,
        SPAN,
      );
    });
    await step('running totals summed from the documents (migration 0020 backfill)', async () => {
      await backfillSaleTotals(db, engine);
    });
    await sql.raw('analyze').execute(db);
    const totalsRows = await db
      .selectFrom('sale_totals')
      .select(sql<number>`count(*)`.as('n'))
      .where('company_id', '=', big.companyId)
      .executeTakeFirstOrThrow();
    steps.push(`running totals rows of the big company: ${Number(totalsRows.n)}`);

    const month = { from: '2026-11-01', to: '2026-11-30', groupBy: 'month' as const };
    const year = { from: '2026-01-01', to: '2026-12-31', groupBy: 'month' as const };
    // The big company's span per day ≈ ROWS / 1826: this many days hold about 1 000 of its invoices.
    const days = Math.max(1, Math.round((SMALL * 1826) / ROWS));
    const sameFrom = new Date(Date.parse('2026-11-30T00:00:00.000Z') - (days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const sameSize = { from: sameFrom, to: '2026-11-30', groupBy: 'month' as const };
    const cases = [
      { name: 'VAT, one month', run: (id: string) => c.reports.vat(id, month) },
      { name: 'sales by month, one year', run: (id: string) => c.reports.sales(id, year) },
      // Grouped by day, the month is read from its 30 day rows a combination, not its month row.
      { name: 'sales by day, one month', run: (id: string) => c.reports.sales(id, { ...month, groupBy: 'day' }) },
      // The same number of invoices on both sides: the big company's last days against the small one's month.
      {
        name: `VAT over ≈1 000 invoices (big: ${days} day(s), small: the month)`,
        run: (id: string) => c.reports.vat(id, id === big.companyId ? sameSize : month),
      },
    ];
    const results = [];
    for (const k of cases) {
      const b: number[] = [];
      const s: number[] = [];
      for (let i = 0; i < 52; i++) {
        let t0 = performance.now();
        await k.run(big.companyId);
        if (i > 0) b.push(performance.now() - t0);
        t0 = performance.now();
        await k.run(small.companyId);
        if (i > 0) s.push(performance.now() - t0);
      }
      results.push({ name: k.name, big: p50(b), small: p50(s) });
    }
    const bigMonth = await c.reports.vat(big.companyId, month);
    const smallMonth = await c.reports.vat(small.companyId, month);
    const counts = {
      bigMonth: (await c.reports.sales(big.companyId, month)).total.count,
      smallMonth: (await c.reports.sales(small.companyId, month)).total.count,
    };

    // The plans of the statements the repository sends (compiled by Kysely, as reports.repository.ts builds them).
    const bucket = (days: readonly string[]) =>
      sql<number>`case ${sql.join(
        days.slice(1).map((d, i) => sql`when ${sql.ref('day')} < ${d} then ${sql.lit(i)} `),
        sql``,
      )}else ${sql.lit(days.length - 2)} end`;
    const monthDays = ['2026-11-01', '2026-12-01'];
    const vatSql = db
      .selectFrom('sale_totals')
      .select([
        bucket(monthDays).as('bucket'),
        'kind',
        'tax_rate_bp',
        sql<number>`sum(net_minor)`.as('base'),
        sql<number>`sum(tax_minor)`.as('tax'),
        sql<number>`sum(total_minor)`.as('gross'),
      ])
      .where('company_id', '=', big.companyId)
      .where('mode', '=', 'live')
      .where((eb) =>
        eb.or([eb.and([eb('grain', '=', 'month'), eb('day', '>=', monthDays[0]!), eb('day', '<', monthDays[1]!)])]),
      )
      .groupBy([sql.ref('bucket'), 'kind', 'tax_rate_bp'])
      .compile();
    const yearDays = [
      ...Array.from({ length: 12 }, (_, m) => `2026-${String(m + 1).padStart(2, '0')}-01`),
      '2027-01-01',
    ];
    const salesSql = db
      .selectFrom('sale_totals')
      .select([
        bucket(yearDays).as('bucket'),
        'location_id',
        'operator_id',
        sql<string | null>`max(operator_name)`.as('operator_name'),
        'kind',
        sql<number>`sum(documents)`.as('count'),
        sql<number>`sum(net_minor)`.as('net'),
        sql<number>`sum(tax_minor)`.as('tax'),
        sql<number>`sum(total_minor)`.as('total'),
      ])
      .where('company_id', '=', big.companyId)
      .where('mode', '=', 'live')
      .where((eb) =>
        eb.or([eb.and([eb('grain', '=', 'month'), eb('day', '>=', yearDays[0]!), eb('day', '<', yearDays.at(-1)!)])]),
      )
      .groupBy([sql.ref('bucket'), 'location_id', 'operator_id', 'kind'])
      .compile();
    const plans = {
      vat: await plan(db, engine, vatSql.sql, vatSql.parameters),
      sales: await plan(db, engine, salesSql.sql, salesSql.parameters),
    };
    return { engine, steps, results, counts, plans, bigTax: bigMonth.total.tax, smallTax: smallMonth.total.tax };
  } finally {
    await c.close();
    storage.cleanup();
  }
}

/**
 * `count` invoices that are valid Croatian e-invoices: one issued through the admin API (a
 * quotation to a business customer, converted), then copied row for row with numbers of their own
 * (the copies skip the legal sequence: a bench, not a ledger). Returns the first one's id.
 */
async function einvoices(
  c: Awaited<ReturnType<typeof createContainer>>,
  co: DemoCompany,
  count: number,
): Promise<string> {
  const app = await buildApp(c);
  const q = await newQuotation(app, co);
  await assignCustomer(app, co, 'quotations', q.id);
  const res = await adminCall(app, co.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
  if (res.statusCode !== 201) throw new Error(res.body);
  await app.close();
  const id = res.json().data.id as string;
  const db = c.database.db as Db;
  const sale = await db.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const lines = await db.selectFrom('sale_lines').selectAll().where('document_id', '=', id).execute();
  for (let from = 1; from < count; from += 500) {
    const n = Math.min(500, count - from);
    const at = (i: number) => new Date((MONTH_START + ((from + i) * MONTH_SPAN) / count) * 1000).toISOString();
    await db
      .insertInto('sales')
      .values(
        Array.from({ length: n }, (_, i) => ({
          ...sale,
          id: `a_${from + i}`,
          number: `${sale.number}-${from + i}`,
          invoice_number: `${from + i + 1}/B/1`,
          source_id: `${sale.source_id}-${from + i}`,
          created_at: at(i),
          issued_at: at(i),
        })),
      )
      .execute();
    await db
      .insertInto('sale_lines')
      .values(
        Array.from({ length: n }, (_, i) =>
          lines.map((l) => ({ ...l, id: `a_${from + i}_${l.id}`, document_id: `a_${from + i}` })),
        ).flat(),
      )
      .execute();
  }
  return id;
}

/**
 * `--archive`: the month archive of BENCH_ARCHIVE_DOCS documents (default 10 000) of one company
 * on SQLite: its time and the process's peak RSS (print threads included), sampled every 100 ms,
 * against the RSS before it started.
 */
async function runArchive(): Promise<void> {
  const docs = Number(process.env.BENCH_ARCHIVE_DOCS ?? 10_000);
  // With e-invoices (the default): each document also gets its UBL XML in the zip, as a month of
  // invoices to businesses does; BENCH_ARCHIVE_EINVOICES=0 for PDFs alone (the bench before issue 37).
  const withXml = process.env.BENCH_ARCHIVE_EINVOICES !== '0';
  const storage = freshStorage('sqlite', 'archive');
  const c = await createContainer(
    loadConfig({ DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir, LOG_LEVEL: 'silent', WORKER: 'off' }),
    { clock: { now: () => new Date('2026-11-03T09:00:00.000Z') } },
  );
  try {
    const co = await createDemoCompany(c);
    let first = 'a_0';
    if (withXml) first = await einvoices(c, co, docs);
    else
      await invoices(
        c.database.db as Db,
        'sqlite',
        { id: co.companyId, location: co.locations[0]!.id, customer: `cus_${co.companyId}` },
        'a_',
        docs,
        MONTH_START,
        MONTH_SPAN,
      );
    if (withXml && !(await c.invoicing.file(co.companyId, first, 'ubl')).bytes.length) throw new Error('no e-invoice');
    // Warm the print threads (fonts parsed) so the baseline includes them.
    await c.sales.renderPdf(co.companyId, first, c.reservePrint());
    const before = process.memoryUsage().rss;
    let peak = before;
    // The main thread's buffers (where a retained PDF would sit) apart from the whole process's RSS.
    let buffers = 0;
    const timer = setInterval(() => {
      const m = process.memoryUsage();
      peak = Math.max(peak, m.rss);
      buffers = Math.max(buffers, m.arrayBuffers);
    }, 100);
    const t0 = performance.now();
    const job = c.monthArchives.start(co.companyId, '2026-11', 'hr');
    await job.finished;
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `archive: ${job.done} of ${job.total} documents, ${(job.bytes / 1048576).toFixed(1)} MiB zip, ${seconds.toFixed(1)} s ` +
        `(${((seconds * 1000) / Math.max(1, job.done)).toFixed(1)} ms per document); RSS before ${(before / 1048576).toFixed(0)} MiB, ` +
        `peak ${(peak / 1048576).toFixed(0)} MiB, main-thread buffers peak ${(buffers / 1048576).toFixed(1)} MiB, maxRSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB; status ${job.status}`,
    );
  } finally {
    await c.close();
    storage.cleanup();
  }
}

/** The resident and peak resident set of a process, in bytes (Linux /proc). */
function rssOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * `--archive --server`: the same month, archived by a `portico serve` process (the issue's
 * "warmed server"), measured from outside through /proc: its RSS once warmed (the first
 * document's PDF and e-invoice fetched, the VAT report and the book read, as an accountant's
 * visit does) against its peak while it builds the archive of BENCH_ARCHIVE_DOCS documents,
 * sampled every 100 ms, and its VmHWM after. The documents are seeded by this process first.
 */
async function runArchiveServer(): Promise<void> {
  const docs = Number(process.env.BENCH_ARCHIVE_DOCS ?? 10_000);
  const storage = freshStorage('sqlite', 'archive');
  const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir, LOG_LEVEL: 'warn', WORKER: 'off' };
  let server: Child | null = null;
  try {
    const seed = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent' }), {
      clock: { now: () => new Date('2026-11-03T09:00:00.000Z') },
    });
    const co = await createDemoCompany(seed);
    const first = await einvoices(seed, co, docs);
    await seed.close();
    const port = await freePort();
    const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
    server = startPortico(['serve'], { ...env, HOST: '127.0.0.1', PORT: String(port) }, flags);
    const base = `http://127.0.0.1:${port}`;
    await waitForHttp(`${base}/healthz`, server);
    const call = async (method: string, url: string, body?: object, accept = 'application/json') => {
      const res = await fetch(`${base}/api/v1/admin${url}`, {
        method,
        headers: {
          authorization: `Bearer ${co.adminToken}`,
          accept,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${bytes.toString().slice(0, 300)}`);
      return bytes;
    };
    // Warm: what a visit before the archive does (print threads, the e-invoice writer, the reports).
    for (let i = 0; i < 3; i++) {
      await call('GET', `/sales/${first}?format=pdf`, undefined, 'application/pdf');
      await call('GET', `/sales/${first}/e-invoice`, undefined, 'application/xml');
      await call('GET', '/reports/vat?from=2026-11-01&to=2026-11-30');
      await call('GET', '/reports/sales?from=2026-11-01&to=2026-11-30&groupBy=day');
    }
    await new Promise((r) => setTimeout(r, 2000));
    const pid = server.pid!;
    const warmed = rssOf(pid);
    let peak = warmed.rss;
    const timer = setInterval(() => {
      peak = Math.max(peak, rssOf(pid).rss);
    }, 100);
    const t0 = performance.now();
    const started = JSON.parse((await call('POST', '/exports/month', { month: '2026-11' })).toString()).data;
    let job = started;
    while (job.status === 'building') {
      await new Promise((r) => setTimeout(r, 1000));
      job = JSON.parse((await call('GET', `/exports/${started.id}`)).toString()).data;
    }
    clearInterval(timer);
    const seconds = (performance.now() - t0) / 1000;
    const after = rssOf(pid);
    const mib = (n: number) => (n / 1048576).toFixed(0);
    console.log(
      `archive (server): ${job.done} of ${job.total} documents, ${(job.bytes / 1048576).toFixed(1)} MiB zip, ${seconds.toFixed(1)} s ` +
        `(${((seconds * 1000) / Math.max(1, job.done)).toFixed(1)} ms per document); warmed RSS ${mib(warmed.rss)} MiB ` +
        `(VmHWM ${mib(warmed.hwm)}), peak sampled ${mib(peak)} MiB = ${(peak / warmed.rss).toFixed(2)}x, VmHWM after ${mib(after.hwm)} MiB ` +
        `= ${(after.hwm / warmed.rss).toFixed(2)}x, RSS after ${mib(after.rss)} MiB; status ${job.status}`,
    );
  } finally {
    await stop(server);
    storage.cleanup();
  }
}

if (process.argv.includes('--archive')) {
  await (process.argv.includes('--server') ? runArchiveServer() : runArchive());
  process.exit(0);
}

for (const engine of enginesFromArgs(process.argv.slice(2).filter((a) => a !== '--archive' && a !== '--server'))) {
  const r = await runEngine(engine);
  console.log(`\n### ${r.engine} (${ROWS} invoices in the big company)\n`);
  console.log(r.steps.map((s) => `- ${s}`).join('\n'));
  console.log(`\nInvoices in November 2026: big ${r.counts.bigMonth}, small ${r.counts.smallMonth}\n`);
  console.log('| report | big p50 ms | small p50 ms | big ÷ small |\n|---|---:|---:|---:|');
  for (const x of r.results)
    console.log(`| ${x.name} | ${x.big.toFixed(2)} | ${x.small.toFixed(2)} | ${(x.big / x.small).toFixed(2)} |`);
  console.log(`\nVAT plan:\n\n\`\`\`\n${r.plans.vat}\n\`\`\`\n\nSales plan:\n\n\`\`\`\n${r.plans.sales}\n\`\`\``);
}
