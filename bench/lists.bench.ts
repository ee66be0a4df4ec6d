/**
 * The hub's lists at scale (issue 13): `GET /api/v1/admin/quotations` (first page, and a page
 * 10 000 rows deep by cursor) and `GET /api/v1/admin/customers?q=` (name prefix, e-mail, phone)
 * for a company with 1 000 000 quotations and 1 000 000 customers, against the same requests
 * for a company with 1 000 of each, in the same run, on the same server. Target: each big ÷
 * small within 2× (p50).
 *
 *   node bench/lists.bench.ts                      # SQLite and PostgreSQL
 *   node bench/lists.bench.ts --engine sqlite      # or --engine postgres
 *   node bench/lists.bench.ts --write-readme       # also replaces "## Lists at scale" in bench/README.md
 *   BENCH_LISTS_ROWS=100000 node bench/lists.bench.ts   # a smaller big company (quick check)
 *   BENCH_LISTS_ROWS=100000 node bench/lists.bench.ts --hub --write-readme
 *       # instead: the hub's quotation list and detail pages against the same data from the
 *       # JSON admin API, for the big company (issue 14: the page within 1.5× of the JSON);
 *       # replaces "## Hub pages against the JSON admin API"
 *
 * Per engine: a fresh DATA_DIR and database (PostgreSQL: `portico_bench_lists`, dropped and
 * recreated); two demo tenants through the services (the big one and the small one, each with
 * an admin token, two locations and the demo catalog); 99 filler companies (one location each)
 * by SQL. Then rows straight into the tables by one INSERT … SELECT per table over a number
 * series (PostgreSQL generate_series, SQLite a recursive CTE), interleaved in time the way
 * several shops' traffic is: of every 11 rows 10 are the big company's and 1 goes to one of
 * the 100 others (so each of them gets 1 000, the small company among them). Keys are written
 * as the services compute them (a sample is re-checked in JS against nameKey, emailKey,
 * phoneKey and searchKey). Then `portico serve` as a child process; requests one at a time
 * over one keep-alive connection (latency, not throughput), big and small interleaved in
 * blocks so both see the same machine. The query plans come from the exact SQL the
 * repositories send (compiled by Kysely through the repositories themselves).
 * Bounded: a watchdog aborts one engine after 240 s.
 */
import { DatabaseSync } from 'node:sqlite';
import { performance } from 'node:perf_hooks';
import { createHash, randomBytes } from 'node:crypto';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import pg from 'pg';
import { Agent, request } from 'undici';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import type { Engine } from '../src/db/database.ts';
import { searchKey } from '../src/lib/search-key.ts';
import { createDemoCompany } from '../src/modules/demo/demo-company.ts';
import { emailKey, nameKey, phoneKey } from '../src/modules/customers/contact-keys.ts';
import { classifySearch } from '../src/modules/customers/customer-search.ts';
import { createCustomersRepository } from '../src/modules/customers/customers.repository.ts';
import { createQuotationsRepository } from '../src/modules/quotations/quotations.repository.ts';
import { documentLines } from '../src/modules/documents/document-lines.repository.ts';
import {
  enginesFromArgs,
  freePort,
  freshStorage,
  machine,
  percentile,
  postgresVersion,
  round,
  startPortico,
  stop,
  waitForHttp,
  watchdog,
  writeReadmeSection,
  type Child,
  type EngineName,
} from './support/harness.ts';

const WATCHDOG_MS = 480_000;
const BIG = Number(process.env.BENCH_LISTS_ROWS ?? 1_000_000);
const OTHERS = 100; // companies besides the big one, the small one included
const EVERY = 11; // of every EVERY rows, one belongs to another company
const PER_OTHER = BIG / (OTHERS * (EVERY - 1)); // 1 000 for the full run
if (!Number.isInteger(PER_OTHER) || PER_OTHER < 100)
  throw new Error(
    `BENCH_LISTS_ROWS must be a multiple of ${OTHERS * (EVERY - 1)}, at least ${OTHERS * (EVERY - 1) * 100}`,
  );
const TOTAL = BIG + OTHERS * PER_OTHER;
const DEEP = Math.min(10_000, BIG / 10);
const WARMUP = 10;
const SAMPLES = 150; // per request kind and company
const BLOCK = 25; // big and small alternate in blocks of this many
const TARGET = 2;

const FIRST = [
  'Ana',
  'Ivan',
  'Marija',
  'Marko',
  'Petra',
  'Luka',
  'Ivana',
  'Josip',
  'Katarina',
  'Tomislav',
  'Maja',
  'Nikola',
  'Lucija',
  'Matej',
  'Jelena',
  'Stjepan',
  'Mirjana',
  'Željko',
  'Đurđa',
  'Krešimir',
  'Snježana',
  'Dražen',
  'Gordana',
  'Zvonimir',
  'Vesna',
  'Hrvoje',
  'Tea',
  'Božo',
  'Ljiljana',
  'Ante',
  'Zrinka',
  'Dario',
  'Nives',
  'Goran',
  'Šime',
  'Barbara',
  'Filip',
  'Dunja',
  'Mislav',
  'Ružica',
];
const LAST = [
  'Horvat',
  'Kovačević',
  'Babić',
  'Marić',
  'Jurić',
  'Novak',
  'Kovačić',
  'Knežević',
  'Vuković',
  'Marković',
  'Petrović',
  'Matić',
  'Tomić',
  'Pavlović',
  'Božić',
  'Blažević',
  'Grgić',
  'Pavić',
  'Radić',
  'Perić',
  'Šarić',
  'Lovrić',
  'Vidović',
  'Perković',
  'Popović',
  'Nikolić',
  'Bošnjak',
  'Jukić',
  'Mandić',
  'Filipović',
  'Đurić',
  'Šimić',
  'Živković',
  'Čačić',
  'Ćosić',
  'Žužić',
  'Lončar',
  'Barišić',
  'Galić',
  'Mlinarić',
];
const BUSINESS = [
  (l: string) => `${l} gradnja d.o.o.`,
  (l: string) => `Obrt ${l}`,
  (l: string) => `Stolarija ${l} j.d.o.o.`,
];

interface NameRow {
  idx: number;
  kind: 'person' | 'business';
  name: string;
  nameKey: string;
  searchKey: string;
  local: string;
}

const NAMES = (FIRST.length + BUSINESS.length) * LAST.length;
const ascii = (s: string) => searchKey(s).replace(/ /g, '.');

function nameTable(): NameRow[] {
  const rows: NameRow[] = [];
  for (const f of FIRST)
    for (const l of LAST)
      rows.push({
        idx: rows.length,
        kind: 'person',
        name: `${f} ${l}`,
        nameKey: '',
        searchKey: '',
        local: `${ascii(f)}.${ascii(l)}`,
      });
  for (const b of BUSINESS)
    for (const l of LAST)
      rows.push({
        idx: rows.length,
        kind: 'business',
        name: b(l),
        nameKey: '',
        searchKey: '',
        local: `info.${ascii(l)}`,
      });
  for (const r of rows) {
    r.nameKey = nameKey(r.name);
    r.searchKey = searchKey(r.name);
  }
  return rows;
}

interface Tenant {
  companyId: string;
  adminToken: string;
  locations: Array<{ id: string; code: string }>;
  products: ProductRow[];
}
interface ProductRow {
  idx: number;
  productId: string;
  unitId: string;
  name: string;
  code: string | null;
  unitName: string;
  priceMinor: number;
  taxBp: number;
}

// ---------------------------------------------------------------------------
// SQL over both engines

interface Sql {
  engine: EngineName;
  run(text: string): Promise<void>;
  rows<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

async function openSql(engine: EngineName, databaseUrl: string): Promise<Sql> {
  if (engine === 'sqlite') {
    const db = new DatabaseSync(databaseUrl.slice('sqlite:'.length));
    db.exec(
      'pragma synchronous = off; pragma cache_size = -600000; pragma temp_store = memory; pragma foreign_keys = off',
    );
    return {
      engine,
      run: async (text) => {
        db.exec(text);
      },
      rows: async <T>(text: string, params: unknown[] = []) => db.prepare(text).all(...(params as never[])) as T[],
      close: async () => {
        db.exec('pragma wal_checkpoint(truncate)');
        db.close();
      },
    };
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // A bulk load: rows consistent by construction, so foreign-key triggers are skipped (replica role) as pg_restore-style loads do.
  await client.query(
    "set synchronous_commit = off; set work_mem = '256MB'; set maintenance_work_mem = '512MB'; set session_replication_role = replica",
  );
  return {
    engine,
    run: async (text) => {
      await client.query(text);
    },
    rows: async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[],
    close: () => client.end(),
  };
}

const lit = (s: string | null) => (s === null ? 'null' : `'${s.replace(/'/g, "''")}'`);

function dialect(engine: EngineName) {
  const pgsql = engine === 'postgres';
  return {
    series: (n: number) =>
      pgsql
        ? `s as (select i from generate_series(0::bigint, ${n - 1}) as g(i))`
        : `s(i) as (select 0 union all select i + 1 from s where i < ${n - 1})`,
    withRecursive: pgsql ? 'with' : 'with recursive',
    pad: (e: string, n: number) => (pgsql ? `lpad((${e})::text, ${n}, '0')` : `printf('%0${n}d', ${e})`),
    hex12: (e: string) =>
      pgsql ? `lpad(to_hex((${e}) % 281474976710656), 12, '0')` : `printf('%012x', (${e}) % 281474976710656)`,
    /** A timestamp from milliseconds since the epoch, as the column holds it. */
    ts: (ms: string) =>
      pgsql ? `to_timestamp((${ms}) / 1000.0)` : `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`,
    year: (ms: string) =>
      pgsql
        ? `extract(year from to_timestamp((${ms}) / 1000.0))::int::text`
        : `strftime('%Y', (${ms}) / 1000.0, 'unixepoch')`,
    bool: (e: string) => (pgsql ? `(${e})` : `(case when ${e} then 1 else 0 end)`),
    int: pgsql ? 'bigint' : 'integer',
  };
}

/**
 * Row i of the series: which company, which of its rows (seq, from 1) and when. Ten of every
 * eleven rows are the big company's; the eleventh goes to company k % 100 of the others, the
 * small one being k % 100 = 0. Times are spread evenly over the last ten years.
 */
function rowsCte(engine: EngineName, big: Tenant, small: Tenant, startMs: number, stepMs: number): string {
  const d = dialect(engine);
  const other = `i % ${EVERY} = ${EVERY - 1}`;
  const k = `(i / ${EVERY})`;
  const seq = `(case when ${other} then ${k} / ${OTHERS} + 1 else i - i / ${EVERY} + 1 end)`;
  const slot = `(${k} % ${OTHERS})`;
  const company = `(case when not (${other}) then ${lit(big.companyId)} when ${slot} = 0 then ${lit(small.companyId)} else 'cmp_benchfill' || ${d.pad(slot, 3)} end)`;
  const loc = (t: Tenant) =>
    `(case when ${seq} % 2 = 0 then ${lit(t.locations[0]!.id)} else ${lit(t.locations[1]!.id)} end)`;
  const code = (t: Tenant) =>
    `(case when ${seq} % 2 = 0 then ${lit(t.locations[0]!.code)} else ${lit(t.locations[1]!.code)} end)`;
  const location = `(case when not (${other}) then ${loc(big)} when ${slot} = 0 then ${loc(small)} else 'loc_benchfill' || ${d.pad(slot, 3)} end)`;
  const locationCode = `(case when not (${other}) then ${code(big)} when ${slot} = 0 then ${code(small)} else 'ZG1' end)`;
  const productSet = `(case when not (${other}) or ${slot} <> 0 then 'big' else 'small' end)`;
  const ms = `(${startMs} + i * ${stepMs})`;
  return `${d.series(TOTAL)},
    r as (select i, ${company} as company_id, ${location} as location_id, ${locationCode} as location_code, ${seq} as seq,
                 ${productSet} as product_set, ${ms} as ms, (i * 2654435761) % 4294967296 as h from s)`;
}

async function helperTables(sql: Sql, names: NameRow[], big: Tenant, small: Tenant): Promise<void> {
  await sql.run(
    `create temp table bench_names (idx integer primary key, kind text not null, name text not null, name_key text not null, search_key text not null, local text not null)`,
  );
  await sql.run(
    `insert into bench_names values ${names.map((n) => `(${n.idx}, ${lit(n.kind)}, ${lit(n.name)}, ${lit(n.nameKey)}, ${lit(n.searchKey)}, ${lit(n.local)})`).join(',')}`,
  );
  await sql.run(
    `create temp table bench_products (product_set text not null, idx integer not null, product_id text not null, unit_id text not null, product_name text not null, product_code text, unit_name text not null, price_minor integer not null, tax_bp integer not null, primary key (product_set, idx))`,
  );
  const rows = [...big.products.map((p) => ['big', p] as const), ...small.products.map((p) => ['small', p] as const)];
  await sql.run(
    `insert into bench_products values ${rows.map(([set, p]) => `(${lit(set)}, ${p.idx}, ${lit(p.productId)}, ${lit(p.unitId)}, ${lit(p.name)}, ${lit(p.code)}, ${lit(p.unitName)}, ${p.priceMinor}, ${p.taxBp})`).join(',')}`,
  );
}

async function fillerCompanies(sql: Sql, big: Tenant): Promise<void> {
  const d = dialect(sql.engine);
  const slots = Array.from({ length: OTHERS - 1 }, (_, i) => i + 1);
  const now = sql.engine === 'postgres' ? 'now()' : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;
  for (const slot of slots) {
    const id = `cmp_benchfill${String(slot).padStart(3, '0')}`;
    await sql.run(`insert into companies (id, name, address_street, tax_id, currency, locale, timezone, prices_include_tax, quotation_validity_days, template_header, template_footer, template_payment_instructions, catalog_scope_kind, catalog_scope_ids, created_at)
      select '${id}', 'Trgovina ' || ${d.pad(String(slot), 3)} || ' d.o.o.', address_street, null, currency, locale, timezone, prices_include_tax, quotation_validity_days, null, null, null, 'all', '[]', ${now} from companies where id = ${lit(big.companyId)}`);
    await sql.run(
      `insert into locations (id, company_id, name, code, address, created_at) values ('loc_benchfill${String(slot).padStart(3, '0')}', '${id}', 'Zagreb', 'ZG1', null, ${now})`,
    );
  }
}

/** Customers: one INSERT … SELECT over the series. */
async function generateCustomers(sql: Sql, cte: string): Promise<void> {
  const d = dialect(sql.engine);
  const domains = ['gmail.com', 't-com.hr', 'net.hr', 'yahoo.com', 'outlook.com'];
  const domain = `(case i % 5 ${domains.map((x, n) => `when ${n} then '${x}'`).join(' ')} end)`;
  const mobile = `(case i % 6 when 0 then '1' when 1 then '2' when 2 then '5' when 3 then '7' when 4 then '8' else '9' end)`;
  const n7 = d.pad('(i * 48271) % 10000000', 7);
  // National ("091 234 5678") or international ("+385 91 234 5678"), both keyed +385912345678.
  const phone = `(case when i % 2 = 0 then '09' || ${mobile} || ' ' || substr(${n7}, 1, 3) || ' ' || substr(${n7}, 4, 4) else '+385 9' || ${mobile} || ' ' || substr(${n7}, 1, 3) || ' ' || substr(${n7}, 4, 4) end)`;
  const phoneKeyExpr = `('+3859' || ${mobile} || ${n7})`;
  const email = `(n.local || seq || '@' || ${domain})`;
  const streets = ['Ilica', 'Vukovarska', 'Savska cesta', 'Ulica kralja Zvonimira', 'Šetalište Bačvice'];
  const cities = [
    ['10000', 'Zagreb'],
    ['21000', 'Split'],
    ['51000', 'Rijeka'],
    ['31000', 'Osijek'],
    ['23000', 'Zadar'],
  ];
  await sql.run(`insert into customers (id, company_id, kind, name, name_key, tax_id, tax_id_key, email, email_key, phone, phone_key,
      address_street, address_postal_code, address_city, address_country, note, created_at, updated_at)
    ${d.withRecursive} ${cte}
    select 'cus_' || ${d.pad('i', 8)} || ${d.hex12('i * 2654435761')}, company_id, n.kind, n.name, n.name_key, null, null,
      case when i % 10 < 7 then ${email} end, case when i % 10 < 7 then ${email} end,
      case when i % 10 <> 3 then ${phone} end, case when i % 10 <> 3 then ${phoneKeyExpr} end,
      (case i % 5 ${streets.map((x, n) => `when ${n} then ${lit(x)}`).join(' ')} end) || ' ' || (1 + i % 180),
      (case i % 5 ${cities.map((x, n) => `when ${n} then '${x[0]}'`).join(' ')} end),
      (case i % 5 ${cities.map((x, n) => `when ${n} then '${x[1]}'`).join(' ')} end), 'HR',
      case when i % 13 = 0 then 'Plaća virmanom, R1 račun.' end, ${d.ts('ms')}, ${d.ts('ms')}
    from r join bench_names n on n.idx = r.h % ${NAMES}`);
}

/** One line's figures for quotation row i, line k (0-based): product, quantity, net, tax, total. */
function lineExpr(k: number, products: number) {
  const p = `p${k}`;
  const qty = `(1 + (i + ${k}) % 4)`;
  const net = `(${p}.price_minor * ${qty})`;
  const tax = `((${net} * ${p}.tax_bp + 5000) / 10000)`;
  return {
    p,
    join: `join bench_products ${p} on ${p}.product_set = r.product_set and ${p}.idx = (i * 7 + ${k} * 3) % ${products}`,
    qty,
    net,
    tax,
  };
}

async function generateQuotations(sql: Sql, cte: string, products: number): Promise<void> {
  const d = dialect(sql.engine);
  const lines = [0, 1, 2].map((k) => lineExpr(k, products));
  const count = '(1 + i % 3)';
  const sum = (f: (l: ReturnType<typeof lineExpr>) => string) =>
    lines.map((l, k) => (k === 0 ? f(l) : `(case when ${count} > ${k} then ${f(l)} else 0 end)`)).join(' + ');
  const names = NAMES;
  await sql.run(`insert into quotations (id, company_id, location_id, api_key_id, number, status, customer_name, customer_email, customer_phone,
      directory_customer_id, note, currency, prices_include_tax, include_datasheets, net_minor, tax_minor, total_minor, expires_at, created_at,
      sale_id, cancelled_at, cancellation_reason, customer_name_key)
    ${d.withRecursive} ${cte},
    q as (select r.*, row_number() over (partition by company_id, location_id, ${d.year('ms')} order by i) as yseq from r)
    select 'qt_' || ${d.pad('i', 8)} || ${d.hex12('i * 2654435761')}, company_id, location_id, null,
      'Q-' || location_code || '-' || ${d.year('ms')} || '-' || ${d.pad('yseq', 5)},
      case when i % 20 = 0 then 'cancelled' else 'approved' end,
      n.name, case when i % 10 < 8 then n.local || (h % 1000) || '@gmail.com' end, case when i % 10 < 5 then '+385 91 ' || ${d.pad('h % 10000000', 7)} end,
      case when i % 3 = 0 then 'cus_' || ${d.pad('i', 8)} || ${d.hex12('i * 2654435761')} end,
      case when i % 7 = 0 then 'Dostava na gradilište, molim nazvati prije.' end, 'EUR', ${d.bool('1 = 0')}, ${d.bool('i % 5 = 0')},
      ${sum((l) => l.net)}, ${sum((l) => l.tax)}, ${sum((l) => `(${l.net} + ${l.tax})`)},
      ${d.ts(`ms + ${30 * 86_400_000}`)}, ${d.ts('ms')}, null,
      case when i % 20 = 0 then ${d.ts('ms + 86400000')} end, case when i % 20 = 0 then 'Kupac je odustao.' end, n.search_key
    from q r join bench_names n on n.idx = (r.h / 7) % ${names} ${lines.map((l) => l.join).join(' ')}`);
  for (const [k, l] of lines.entries()) {
    await sql.run(`insert into quotation_lines (id, company_id, document_id, position, product_id, unit_id, product_name, product_code, unit_name,
        quantity_milli, unit_price_minor, tax_rate_bp, net_minor, tax_minor, total_minor, note)
      ${d.withRecursive} ${cte}
      select 'qtl_' || ${d.pad('i', 8)} || ${k} || ${d.hex12('i * 2654435761 + ' + k)}, company_id, 'qt_' || ${d.pad('i', 8)} || ${d.hex12('i * 2654435761')}, ${k + 1},
        ${l.p}.product_id, ${l.p}.unit_id, ${l.p}.product_name, ${l.p}.product_code, ${l.p}.unit_name, ${l.qty} * 1000, ${l.p}.price_minor, ${l.p}.tax_bp,
        ${l.net}, ${l.tax}, ${l.net} + ${l.tax}, case when (i + ${k}) % 9 = 0 then 'Nijansa prema uzorku kupca.' end
      from r ${l.join}
      where ${count} > ${k}`);
  }
}

/**
 * The tables' secondary indexes, dropped for the load and re-created afterwards from their own
 * stored definitions (sqlite_master / pg_indexes), so they end up exactly as the migrations
 * made them: one sort per index instead of a million random inserts. Indexes that back a
 * constraint (PostgreSQL) or are automatic (SQLite) stay.
 */
async function dropIndexes(sql: Sql, tables: string[]): Promise<Array<{ name: string; definition: string }>> {
  const list = tables.map((t) => `'${t}'`).join(', ');
  const indexes =
    sql.engine === 'postgres'
      ? await sql.rows<{
          name: string;
          definition: string;
        }>(`select indexname as name, indexdef as definition from pg_indexes i where schemaname = current_schema() and tablename in (${list})
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`)
      : await sql.rows<{ name: string; definition: string }>(
          `select name, sql as definition from sqlite_master where type = 'index' and tbl_name in (${list}) and sql is not null`,
        );
  for (const i of indexes) await sql.run(`drop index "${i.name}"`);
  return indexes;
}

/** A sample of generated rows against the services' own key functions: the bench measures the data the app would have written. */
async function checkKeys(sql: Sql, companyId: string): Promise<void> {
  const customers = await sql.rows<{
    name: string;
    name_key: string;
    email: string | null;
    email_key: string | null;
    phone: string | null;
    phone_key: string | null;
  }>(
    'select name, name_key, email, email_key, phone, phone_key from customers where company_id = $1 order by id limit 400'.replace(
      '$1',
      sql.engine === 'postgres' ? '$1' : '?',
    ),
    [companyId],
  );
  for (const c of customers) {
    if (nameKey(c.name) !== c.name_key) throw new Error(`name key of ${c.name}: ${c.name_key} ≠ ${nameKey(c.name)}`);
    if ((c.email === null ? null : emailKey(c.email)) !== c.email_key) throw new Error(`email key of ${c.email}`);
    if ((c.phone === null ? null : phoneKey(c.phone, 'HR')) !== c.phone_key)
      throw new Error(`phone key of ${c.phone}: ${c.phone_key} ≠ ${phoneKey(c.phone ?? '', 'HR')}`);
  }
  const quotations = await sql.rows<{ customer_name: string; customer_name_key: string }>(
    `select customer_name, customer_name_key from quotations where company_id = ${sql.engine === 'postgres' ? '$1' : '?'} order by id limit 400`,
    [companyId],
  );
  for (const q of quotations)
    if (searchKey(q.customer_name) !== q.customer_name_key) throw new Error(`search key of ${q.customer_name}`);
}

// ---------------------------------------------------------------------------
// the exact SQL of the repositories, and its plan

function capturingDb(engine: Engine): { db: Kysely<any>; last: () => { sql: string; parameters: readonly unknown[] } } {
  let captured: { sql: string; parameters: readonly unknown[] } | null = null;
  const db = new Kysely<any>({
    dialect: {
      createAdapter: () => (engine === 'postgres' ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => (engine === 'postgres' ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (engine === 'postgres' ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
    },
    log: (event) => {
      captured = { sql: event.query.sql, parameters: event.query.parameters };
    },
  });
  return {
    db,
    last: () => {
      if (!captured) throw new Error('no query captured');
      const c = captured;
      captured = null;
      return c;
    },
  };
}

interface Probe {
  name: string;
  sql: string;
  parameters: readonly unknown[];
}

async function repositorySql(
  engine: Engine,
  companyId: string,
  cases: Cases,
  pageIds: string[],
  assignedId: string | null,
): Promise<Probe[]> {
  const { db, last } = capturingDb(engine);
  const quotations = createQuotationsRepository(db as never, engine, documentLines(db as never, 'quotation_lines'));
  const customers = createCustomersRepository(db as never);
  const out: Probe[] = [];
  await quotations.list(companyId, { limit: 26 });
  out.push({ name: 'quotations, first page', ...last() });
  await quotations.list(companyId, { limit: 26, before: cases.deepBefore });
  out.push({ name: `quotations, ${DEEP} rows deep`, ...last() });
  await quotations.listLinesOf(companyId, pageIds);
  out.push({ name: 'their lines (one query per page)', ...last() });
  if (assignedId) {
    await customers.find(companyId, assignedId);
    out.push({ name: 'assigned directory customer (one per assigned row of the page)', ...last() });
  }
  for (const s of cases.searches) {
    await customers.page(companyId, { ...classifySearch(s.q, 'HR'), limit: 26 });
    out.push({ name: `customers ?q=${s.q}`, ...last() });
  }
  return out;
}

async function explain(sql: Sql, probe: Probe): Promise<string> {
  if (sql.engine === 'postgres') {
    const rows = await sql.rows<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${probe.sql}`, [
      ...probe.parameters,
    ]);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }
  const rows = await sql.rows<{ id: number; parent: number; detail: string }>(`explain query plan ${probe.sql}`, [
    ...probe.parameters,
  ]);
  const depth = new Map<number, number>([[0, 0]]);
  return rows
    .map((r) => {
      const dd = (depth.get(r.parent) ?? 0) + 1;
      depth.set(r.id, dd);
      return `${'  '.repeat(dd - 1)}${r.detail}`;
    })
    .join('\n');
}

// ---------------------------------------------------------------------------
// HTTP

interface Cases {
  deepCursor: string;
  deepBefore: { createdAt: string; id: string };
  deepRows: number;
  searches: Array<{ label: string; q: string }>;
}

async function getJson(
  agent: Agent,
  url: string,
  token: string,
): Promise<{ data: Array<Record<string, unknown>>; nextCursor: string | null }> {
  const res = await request(url, { dispatcher: agent, headers: { authorization: `Bearer ${token}` } });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text) as never;
}

/** Walks the cursor once (pages of 100, then of 25) to the page after `depth` rows. */
async function walkTo(
  agent: Agent,
  base: string,
  token: string,
  depth: number,
): Promise<{ cursor: string; rows: number }> {
  let cursor: string | null = null;
  let rows = 0;
  while (rows < depth) {
    const limit = Math.min(100, depth - rows);
    const page = await getJson(agent, `${base}/quotations?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, token);
    rows += page.data.length;
    if (!page.nextCursor) break;
    cursor = page.nextCursor;
  }
  if (!cursor) throw new Error('no cursor');
  return { cursor, rows };
}

async function casesFor(sql: Sql, agent: Agent, base: string, tenant: Tenant, depth: number): Promise<Cases> {
  const { cursor, rows } = await walkTo(agent, base, tenant.adminToken, depth);
  const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
  const p = sql.engine === 'postgres' ? '$1' : '?';
  // A customer from the middle of the company's range, with both an e-mail and a phone.
  const [c] = await sql.rows<{ email: string; phone: string }>(
    `select email, phone from customers where company_id = ${p} and email is not null and phone is not null and id > 'cus_00500000' order by id limit 1`,
    [tenant.companyId],
  );
  const [c2] = c
    ? [c]
    : await sql.rows<{ email: string; phone: string }>(
        `select email, phone from customers where company_id = ${p} and email is not null and phone is not null order by id desc limit 1`,
        [tenant.companyId],
      );
  const national = c2!.phone.startsWith('+385 ') ? `0${c2!.phone.slice(5)}` : c2!.phone;
  return {
    deepCursor: cursor,
    deepBefore: { createdAt, id },
    deepRows: rows,
    searches: [
      { label: 'customers ?q= name prefix, wide ("Ivan")', q: 'Ivan' },
      { label: 'customers ?q= name prefix, narrow ("Ana Kovač")', q: 'Ana Kovač' },
      { label: 'customers ?q= e-mail (whole address)', q: c2!.email.toUpperCase() },
      { label: 'customers ?q= phone (national form)', q: national },
    ],
  };
}

interface Timing {
  p50: number;
  p95: number;
  rows: number;
}
interface Row {
  label: string;
  big: Timing;
  small: Timing;
  ratio50: number;
  ratio95: number;
  met: boolean;
}

async function timeRequests(
  agent: Agent,
  urls: { big: string; small: string },
  tokens: { big: string; small: string },
): Promise<{ big: Timing; small: Timing }> {
  const samples = { big: [] as number[], small: [] as number[] };
  const rows = { big: 0, small: 0 };
  for (const which of ['big', 'small'] as const)
    for (let i = 0; i < WARMUP; i++) await getJson(agent, urls[which], tokens[which]);
  for (let done = 0; done < SAMPLES; done += BLOCK) {
    for (const which of ['big', 'small'] as const) {
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        const body = await getJson(agent, urls[which], tokens[which]);
        samples[which].push(performance.now() - t0);
        rows[which] = body.data.length;
      }
    }
  }
  const timing = (w: 'big' | 'small'): Timing => {
    const s = samples[w].sort((a, b) => a - b);
    return { p50: round(percentile(s, 50), 2), p95: round(percentile(s, 95), 2), rows: rows[w] };
  };
  return { big: timing('big'), small: timing('small') };
}

// ---------------------------------------------------------------------------

interface HubRow {
  label: string;
  page: Timing;
  json: Timing;
  ratio50: number;
  ratio95: number;
  met: boolean;
}

interface EngineResult {
  hub?: HubRow[];
  engine: EngineName;
  generation: Array<{ step: string; seconds: number }>;
  rows: Row[];
  plans: Array<{ name: string; sql: string; parameters: readonly unknown[]; plan: string }>;
  deep: { big: number; small: number };
}

const children = new Set<Child>();

const HUB = process.argv.includes('--hub');
const HUB_TARGET = 1.5;

async function timed(agent: Agent, url: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const res = await request(url, { dispatcher: agent, headers });
  const body = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${body.slice(0, 200)}`);
  return performance.now() - t0;
}

/**
 * The hub's pages against the admin API's JSON for the same rows, on the same server, one
 * request at a time over one connection, the two alternating in blocks. The page is signed in
 * by a session row made here as sign-in makes it (only the token's hash stored).
 */
async function measureHub(sql: Sql, agent: Agent, origin: string, big: Tenant, cases: Cases): Promise<HubRow[]> {
  const p = (n: number) => (sql.engine === 'postgres' ? `$${n}` : '?');
  const [admin] = await sql.rows<{ id: string }>(
    `select id from users where company_id = ${p(1)} and role = 'admin' order by id limit 1`,
    [big.companyId],
  );
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await sql.rows(
    `insert into hub_sessions (token_hash, company_id, user_id, created_at, last_seen_at, expires_at) values (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)})`,
    [
      createHash('sha256').update(token).digest('hex'),
      big.companyId,
      admin!.id,
      now.toISOString(),
      now.toISOString(),
      new Date(now.getTime() + 86_400_000).toISOString(),
    ],
  );
  // As a browser does: the CSRF secret cookie the first page sets is sent back from then on.
  const firstPage = await request(`${origin}/hub`, {
    dispatcher: agent,
    headers: { cookie: `portico_session=${token}` },
  });
  await firstPage.body.text();
  const csrfCookie = String(firstPage.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  if (!csrfCookie.startsWith('portico_csrf=')) throw new Error('no CSRF cookie from /hub');
  const page = { cookie: `portico_session=${token}; ${csrfCookie}` };
  const json = { authorization: `Bearer ${big.adminToken}` };
  const first = await getJson(agent, `${origin}/api/v1/admin/quotations`, big.adminToken);
  const id = first.data[Math.floor(first.data.length / 2)]!.id as string;
  const pairs = [
    {
      label: 'quotation list, first page',
      page: `${origin}/hub/quotations`,
      json: `${origin}/api/v1/admin/quotations`,
    },
    {
      label: `quotation list, ${cases.deepRows} rows deep by cursor`,
      page: `${origin}/hub/quotations?cursor=${cases.deepCursor}`,
      json: `${origin}/api/v1/admin/quotations?cursor=${cases.deepCursor}`,
    },
    {
      label: 'quotation detail',
      page: `${origin}/hub/quotations/${id}`,
      json: `${origin}/api/v1/admin/quotations/${id}`,
    },
  ];
  const out: HubRow[] = [];
  for (const pair of pairs) {
    const samples = { page: [] as number[], json: [] as number[] };
    for (let i = 0; i < WARMUP; i++) {
      await timed(agent, pair.page, page);
      await timed(agent, pair.json, json);
    }
    for (let done = 0; done < SAMPLES; done += BLOCK) {
      for (let i = 0; i < BLOCK; i++) samples.page.push(await timed(agent, pair.page, page));
      for (let i = 0; i < BLOCK; i++) samples.json.push(await timed(agent, pair.json, json));
    }
    const timing = (w: 'page' | 'json'): Timing => {
      const s = samples[w].sort((a, b) => a - b);
      return { p50: round(percentile(s, 50), 2), p95: round(percentile(s, 95), 2), rows: 0 };
    };
    const t = { page: timing('page'), json: timing('json') };
    const ratio50 = round(t.page.p50 / t.json.p50, 2);
    out.push({
      label: pair.label,
      ...t,
      ratio50,
      ratio95: round(t.page.p95 / t.json.p95, 2),
      met: ratio50 <= HUB_TARGET,
    });
    process.stderr.write(
      `hub pages: ${pair.label}: page ${t.page.p50}/${t.page.p95} ms, json ${t.json.p50}/${t.json.p95} ms, ×${ratio50}\n`,
    );
  }
  return out;
}

function hubMarkdown(results: EngineResult[]): string {
  const m = machine();
  const out = [
    '## Hub pages against the JSON admin API',
    '',
    `Measured ${m.date} with \`BENCH_LISTS_ROWS=${BIG} node bench/lists.bench.ts --hub\` — Node ${m.node}, ${m.cores} cores (${m.cpu}). The data of "Lists at scale" with ${BIG} quotations in the big company; the hub's HTML page and the admin API's JSON for the same rows, on the same server, requests one at a time over one keep-alive connection, ${WARMUP} warm-up then ${SAMPLES} timed each, alternating in blocks of ${BLOCK}. Target: page ÷ JSON p50 within ${HUB_TARGET}×.`,
    '',
  ];
  for (const r of results) {
    out.push(
      `### ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
      '',
      '| request | page p50 / p95 | JSON p50 / p95 | page ÷ JSON p50 (p95) | within 1.5× |',
      '|---|---:|---:|---:|---|',
    );
    for (const x of r.hub ?? [])
      out.push(
        `| ${x.label} | ${x.page.p50} / ${x.page.p95} ms | ${x.json.p50} / ${x.json.p95} ms | **${x.ratio50}** (${x.ratio95}) | ${x.met ? 'yes' : 'NO'} |`,
      );
    out.push('');
  }
  return out.join('\n');
}

async function setUpTenants(env: Record<string, string>): Promise<{ big: Tenant; small: Tenant }> {
  const c = await createContainer(loadConfig({ ...env, LOG_LEVEL: 'silent', WORKER: 'off' }));
  try {
    const tenant = async (): Promise<Tenant> => {
      const demo = await createDemoCompany(c);
      const products: ProductRow[] = [];
      for (const p of demo.products) {
        const product = demo.products.find((x) => x.id === p.id)!;
        const code = (
          await c.database.db.selectFrom('products').select('sku').where('id', '=', p.id).executeTakeFirstOrThrow()
        ).sku;
        for (const u of product.units) {
          products.push({
            idx: products.length,
            productId: p.id,
            unitId: u.id,
            name: p.name,
            code,
            unitName: u.name,
            priceMinor: Math.round(Number(u.price) * 100),
            taxBp: Math.round(Number(p.taxRate) * 100),
          });
        }
      }
      return {
        companyId: demo.companyId,
        adminToken: demo.adminToken,
        locations: demo.locations.map((l) => ({ id: l.id, code: l.code })),
        products,
      };
    };
    return { big: await tenant(), small: await tenant() };
  } finally {
    await c.close();
  }
}

async function runEngine(engine: EngineName): Promise<EngineResult> {
  const storage = freshStorage(engine, 'lists');
  let server: Child | null = null;
  const generation: EngineResult['generation'] = [];
  const step = async (name: string, work: () => Promise<void>) => {
    const t0 = performance.now();
    await work();
    generation.push({ step: name, seconds: round((performance.now() - t0) / 1000, 1) });
    process.stderr.write(`lists (${engine}): ${name} ${generation.at(-1)!.seconds} s\n`);
  };
  try {
    const env = { DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir };
    let tenants!: { big: Tenant; small: Tenant };
    await step('migrate + 2 demo tenants (services)', async () => {
      tenants = await setUpTenants(env);
    });
    const { big, small } = tenants;
    if (big.products.length !== small.products.length) throw new Error('demo catalogs differ');
    const sql = await openSql(engine, storage.databaseUrl);
    try {
      const names = nameTable();
      const tenYears = 10 * 365 * 86_400_000;
      const startMs = Date.now() - tenYears;
      const stepMs = Math.floor(tenYears / TOTAL);
      const cte = rowsCte(engine, big, small, startMs, stepMs);
      await step(`helper tables + ${OTHERS - 1} filler companies`, async () => {
        await helperTables(sql, names, big, small);
        await fillerCompanies(sql, big);
      });
      // One transaction for the whole load (nothing is committed half made).
      await sql.run('begin');
      const indexes = await dropIndexes(sql, ['customers', 'quotations', 'quotation_lines']);
      await step(`${TOTAL} customers`, () => generateCustomers(sql, cte));
      await step(`${TOTAL} quotations and ${2 * TOTAL} lines`, () => generateQuotations(sql, cte, big.products.length));
      await step(`${indexes.length} secondary indexes re-created`, async () => {
        for (const i of indexes) await sql.run(i.definition);
      });
      await sql.run('commit');
      const rebuilt = indexes.map((i) => i.name);
      process.stderr.write(`lists (${engine}): indexes re-created: ${rebuilt.join(', ')}\n`);
      if (engine === 'postgres') await step('vacuum analyze', () => sql.run('vacuum analyze'));
      await step("key check (sample vs the services' key functions)", async () => {
        await checkKeys(sql, big.companyId);
        await checkKeys(sql, small.companyId);
      });
      const counts = await sql.rows<{ c: string; q: number; cu: number }>(
        `select company_id as c, (select count(*) from quotations q where q.company_id = x.company_id) as q, count(*) as cu from customers x where company_id in (${lit(big.companyId)}, ${lit(small.companyId)}) group by company_id`,
      );
      process.stderr.write(`lists (${engine}): ${JSON.stringify(counts)}\n`);
    } finally {
      await sql.close();
    }

    const port = await freePort();
    server = startPortico(['serve'], {
      ...env,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      WORKER: 'off',
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    children.add(server);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, server, 60_000);
    const base = `http://127.0.0.1:${port}/api/v1/admin`;
    const agent = new Agent({ connections: 1, keepAliveTimeout: 60_000, headersTimeout: 30_000, bodyTimeout: 30_000 });
    const sql2 = await openSql(engine, storage.databaseUrl);
    try {
      let bigCases!: Cases;
      let smallCases!: Cases;
      await step(`walk the cursor ${DEEP} rows deep (big) and ${PER_OTHER - 25} (small)`, async () => {
        bigCases = await casesFor(sql2, agent, base, big, DEEP);
        smallCases = await casesFor(sql2, agent, base, small, PER_OTHER - 25);
      });
      if (HUB)
        return {
          engine,
          generation,
          rows: [],
          plans: [],
          deep: { big: bigCases.deepRows, small: smallCases.deepRows },
          hub: await measureHub(sql2, agent, `http://127.0.0.1:${port}`, big, bigCases),
        };
      const tokens = { big: big.adminToken, small: small.adminToken };
      const rows: Row[] = [];
      const measure = async (label: string, urls: { big: string; small: string }) => {
        const t = await timeRequests(agent, urls, tokens);
        const ratio50 = round(t.big.p50 / t.small.p50, 2);
        const ratio95 = round(t.big.p95 / t.small.p95, 2);
        rows.push({ label, ...t, ratio50, ratio95, met: ratio50 <= TARGET });
        process.stderr.write(
          `lists (${engine}): ${label}: big ${t.big.p50}/${t.big.p95} ms (${t.big.rows} rows), small ${t.small.p50}/${t.small.p95} ms (${t.small.rows} rows), ×${ratio50}\n`,
        );
      };
      await step('measure', async () => {
        await measure('GET /quotations, first page (25)', { big: `${base}/quotations`, small: `${base}/quotations` });
        await measure(
          `GET /quotations, page by cursor ${DEEP} rows deep (small: ${smallCases.deepRows}, its last page)`,
          {
            big: `${base}/quotations?cursor=${bigCases.deepCursor}`,
            small: `${base}/quotations?cursor=${smallCases.deepCursor}`,
          },
        );
        for (const [n, s] of bigCases.searches.entries()) {
          const q = (c: Cases) => encodeURIComponent(c.searches[n]!.q);
          await measure(s.label, {
            big: `${base}/customers?q=${q(bigCases)}`,
            small: `${base}/customers?q=${q(smallCases)}`,
          });
        }
      });
      const first = await getJson(agent, `${base}/quotations`, big.adminToken);
      const pageIds = first.data.map((q) => q.id as string);
      const assigned = (first.data.find((q) => q.directoryCustomer)?.directoryCustomer as { id: string } | undefined)
        ?.id;
      const probes = await repositorySql(engine, big.companyId, bigCases, pageIds, assigned ?? null);
      const plans = [];
      for (const p of probes) plans.push({ ...p, plan: await explain(sql2, p) });
      return { engine, generation, rows, plans, deep: { big: bigCases.deepRows, small: smallCases.deepRows } };
    } finally {
      await agent.close();
      await sql2.close();
    }
  } finally {
    await stop(server);
    if (process.env.BENCH_LISTS_KEEP) process.stderr.write(`lists (${engine}): kept ${storage.databaseUrl}\n`);
    else storage.cleanup();
  }
}

function table(r: EngineResult): string {
  return [
    '| request | big p50 / p95 (rows) | small p50 / p95 (rows) | big ÷ small p50 (p95) | within 2× |',
    '|---|---:|---:|---:|---|',
    ...r.rows.map(
      (x) =>
        `| ${x.label} | ${x.big.p50} / ${x.big.p95} ms (${x.big.rows}) | ${x.small.p50} / ${x.small.p95} ms (${x.small.rows}) | **${x.ratio50}** (${x.ratio95}) | ${x.met ? 'yes' : 'NO'} |`,
    ),
  ].join('\n');
}

function report(results: EngineResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    out.push(
      `### ${r.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}`,
      '',
      'Generation: ' + r.generation.map((g) => `${g.step} ${g.seconds} s`).join('; '),
      '',
      table(r),
      '',
    );
  }
  return out.join('\n');
}

function plansText(results: EngineResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    for (const p of r.plans) {
      out.push(
        `#### ${r.engine}: ${p.name}`,
        '',
        '```sql',
        p.sql,
        `-- parameters: ${JSON.stringify(p.parameters)}`,
        '```',
        '',
        '```',
        p.plan,
        '```',
        '',
      );
    }
  }
  return out.join('\n');
}

function markdown(results: EngineResult[]): string {
  const m = machine();
  return [
    '## Lists at scale',
    '',
    `Measured ${m.date} with \`node bench/lists.bench.ts\` — Node ${m.node}, ${m.cores} cores (${m.cpu}), PostgreSQL ${results.some((r) => r.engine === 'postgres') ? postgresVersion() : 'n/a'} on the same machine.`,
    `One company with ${BIG} quotations (1–3 lines each) and ${BIG} customers among ${OTHERS} others with ${PER_OTHER} of each (the small company is one of them), rows interleaved in time; requests one at a time over one keep-alive connection, ${WARMUP} warm-up then ${SAMPLES} timed per company, big and small alternating in blocks of ${BLOCK}. Target: big ÷ small p50 within ${TARGET}×.`,
    '',
    report(results),
    'Run: `node bench/lists.bench.ts [--engine sqlite|postgres|both] [--write-readme]`.',
    '',
  ].join('\n');
}

if (import.meta.main) {
  const engines = enginesFromArgs(process.argv);
  const timer = watchdog(WATCHDOG_MS * engines.length, 'lists bench', () => {
    for (const c of children) c.kill('SIGKILL');
  });
  const results: EngineResult[] = [];
  for (const engine of engines) results.push(await runEngine(engine));
  console.log(JSON.stringify(results, null, 2));
  console.log();
  console.log(report(results));
  console.log(plansText(results));
  if (process.argv.includes('--write-readme')) {
    if (HUB) writeReadmeSection('Hub pages against the JSON admin API', hubMarkdown(results));
    else writeReadmeSection('Lists at scale', markdown(results));
  }
  clearTimeout(timer);
}
