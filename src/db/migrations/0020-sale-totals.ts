import { sql, type Kysely } from 'kysely';
import type { Engine } from '../database.ts';

/**
 * Running totals of issued documents (issue 23's reports at scale): a month's VAT report or a
 * year's sales read at most a row per day and combination instead of every document of the
 * period, so their time no longer grows with the documents issued. The issuing transaction adds
 * each document's tax rows to its day's row (an upsert); documents issued before this migration
 * are summed into the table here.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  await db.schema
    .createTable('sale_totals')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('grain', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('location_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('exemption', 'text', (c) => c.notNull())
    .addColumn('operator_name', 'text')
    .addColumn('documents', 'bigint', (c) => c.notNull())
    .addColumn('net_minor', 'bigint', (c) => c.notNull())
    .addColumn('tax_minor', 'bigint', (c) => c.notNull())
    .addColumn('total_minor', 'bigint', (c) => c.notNull())
    // The upsert's conflict target, and the reports' range: the tenant, live or test, days or months, then the dates.
    .addPrimaryKeyConstraint('sale_totals_pkey', [
      'company_id',
      'mode',
      'grain',
      'day',
      'location_id',
      'operator_id',
      'kind',
      'tax_rate_bp',
      'exemption',
    ])
    .execute();
  await backfillSaleTotals(db, engine);
}

/**
 * Sums every issued document into `sale_totals` (which must hold none of them yet), a document
 * counted once on its highest rate's row. PostgreSQL finds each document's day where its company
 * is with `at time zone`; SQLite has no time zones, so there each company's local days are
 * written out as ranges of instants (as the reports compute them) and each day's documents found
 * by a range of the (company, issue time) index. Exported for the reports bench, which writes its
 * documents straight into the tables.
 */
export async function backfillSaleTotals(db: Kysely<any>, engine: Engine): Promise<void> {
  if (engine === 'postgres')
    await sql`
      insert into sale_totals (company_id, mode, grain, day, location_id, operator_id, kind, tax_rate_bp, exemption,
                               operator_name, documents, net_minor, tax_minor, total_minor)
      select s.company_id, s.mode, 'day', to_char(s.issued_at at time zone c.timezone, 'YYYY-MM-DD'), s.location_id,
             coalesce(s.created_by, ''), s.kind, l.tax_rate_bp,
             case when l.tax_rate_bp = 0 then coalesce(substr(s.exemption_reason, 1, 500), '') else '' end,
             max(s.operator_name), count(distinct case when l.tax_rate_bp = l.top then s.id end),
             sum(l.net_minor), sum(l.tax_minor), sum(l.total_minor)
      from sales s
      join companies c on c.id = s.company_id
      join (select company_id, document_id, tax_rate_bp, net_minor, tax_minor, total_minor,
                   max(tax_rate_bp) over (partition by company_id, document_id) as top
            from sale_lines) l on l.company_id = s.company_id and l.document_id = s.id
      where s.issued_at is not null
      group by 1, 2, 3, 4, 5, 6, 7, 8, 9
    `.execute(db);
  else await backfillDaysSqlite(db);
  // The months: their days' rows summed.
  await sql`
    insert into sale_totals (company_id, mode, grain, day, location_id, operator_id, kind, tax_rate_bp, exemption,
                             operator_name, documents, net_minor, tax_minor, total_minor)
    select company_id, mode, 'month', substr(day, 1, 8) || '01', location_id, operator_id, kind, tax_rate_bp, exemption,
           max(operator_name), sum(documents), sum(net_minor), sum(tax_minor), sum(total_minor)
    from sale_totals
    where grain = 'day'
    group by company_id, mode, substr(day, 1, 8) || '01', location_id, operator_id, kind, tax_rate_bp, exemption
  `.execute(db);
}

async function backfillDaysSqlite(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sale_totals_days').ifExists().execute();
  await db.schema
    .createTable('sale_totals_days')
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('start_at', 'text', (c) => c.notNull())
    .addColumn('end_at', 'text', (c) => c.notNull())
    .execute();
  const spans = await db
    .selectFrom('sales as s')
    .innerJoin('companies as c', 'c.id', 's.company_id')
    .select([
      's.company_id',
      'c.timezone',
      sql<string>`min(s.issued_at)`.as('first'),
      sql<string>`max(s.issued_at)`.as('last'),
    ])
    .where('s.issued_at', 'is not', null)
    .groupBy(['s.company_id', 'c.timezone'])
    .execute();
  for (const span of spans) {
    const days = localDays(new Date(span.first), new Date(span.last), span.timezone as string);
    for (let i = 0; i < days.length; i += 500)
      await db
        .insertInto('sale_totals_days')
        .values(days.slice(i, i + 500).map((d) => ({ company_id: span.company_id, ...d })))
        .execute();
  }
  await sql`analyze sale_totals_days`.execute(db);
  await sql`
    insert into sale_totals (company_id, mode, grain, day, location_id, operator_id, kind, tax_rate_bp, exemption,
                             operator_name, documents, net_minor, tax_minor, total_minor)
    select s.company_id, s.mode, 'day', d.day, s.location_id, coalesce(s.created_by, ''), s.kind, l.tax_rate_bp,
           case when l.tax_rate_bp = 0 then coalesce(substr(s.exemption_reason, 1, 500), '') else '' end,
           max(s.operator_name),
           count(distinct case when l.tax_rate_bp = (select max(m.tax_rate_bp) from sale_lines m
                                                     where m.company_id = s.company_id and m.document_id = s.id)
                               then s.id end),
           sum(l.net_minor), sum(l.tax_minor), sum(l.total_minor)
    from sale_totals_days d
    join sales s on s.company_id = d.company_id and s.issued_at >= d.start_at and s.issued_at < d.end_at
    join sale_lines l on l.company_id = s.company_id and l.document_id = s.id
    group by 1, 2, 3, 4, 5, 6, 7, 8, 9
  `.execute(db);
  await db.schema.dropTable('sale_totals_days').execute();
}

/** Each local day from the one holding `first` to the one holding `last`, with the UTC instants it spans. */
function localDays(
  first: Date,
  last: Date,
  timeZone: string,
): Array<{ day: string; start_at: string; end_at: string }> {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const out: Array<{ day: string; start_at: string; end_at: string }> = [];
  let day = format.format(first);
  const end = format.format(last);
  let start = startOfDay(day, timeZone);
  while (day <= end) {
    const next = new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString().slice(0, 10);
    const nextStart = startOfDay(next, timeZone);
    out.push({ day, start_at: start, end_at: nextStart });
    day = next;
    start = nextStart;
  }
  return out;
}

/** The UTC instant of local midnight starting `day` in `timeZone` (as the reports compute it). */
function startOfDay(day: string, timeZone: string): string {
  const guess = Date.parse(`${day}T00:00:00.000Z`);
  let instant = guess - offsetAt(guess, timeZone);
  // The offset at midnight itself may differ from the offset at the guess (a DST change that day).
  instant = guess - offsetAt(instant, timeZone);
  return new Date(instant).toISOString();
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function offsetAt(instantMs: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(instantMs))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const local = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return local - Math.floor(instantMs / 1000) * 1000;
}
