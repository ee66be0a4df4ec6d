import { CompiledQuery } from 'kysely';
import type { Engine, Executor } from './database.ts';

/**
 * The hot statements, written out rather than built with Kysely's query builder: on the hot
 * write paths (inquiries, the webhook queue) building and compiling a query cost more per row
 * than the database takes to store it. Mostly multi-row INSERTs. Values are always parameters;
 * the texts are cached, and on PostgreSQL kept prepared, so a cached text must not return `*`
 * (see database.ts).
 */
const texts = new Map<string, string>();
/** Text → name of every cached text: a small, fixed set, so PostgreSQL may keep them prepared. */
const names = new Map<string, string>();

/**
 * The written-out statements that run across tenants by design, by the name the snapshot test
 * (test/db/written-sql.test.ts) gives them, and why; every other one names one company. The test
 * fails when a statement without `company_id = ` is missing here, or an entry has no statement.
 */
export const CROSS_TENANT = {
  'queue.claim':
    'a worker serves every company: due deliveries are leased whoever owns them (and their events read by id)',
  'queue.record': 'outcomes are found by the ids of deliveries this worker claimed, under its lease',
  'companies.listRecipients':
    'a group-committed batch of inquiries may come from several companies: their recipients are read at once, each row with its company',
  'inquiries.readBatchContext':
    "a group-committed batch of inquiries may come from several companies: their recipients, location names and webhook subscriptions are read at once, each row with its company (`company_id in` the batch's companies)",
} as const;

// `select *`, `t.*`, `, *` or `returning *`, but not `count(*)`.
const STAR_COLUMNS = /(\bselect\s+(distinct\s+)?|,\s*|\breturning\s+)(\w+\.)?\*/i;

/**
 * A statement text, built once per key. Never with a `*` column list: PostgreSQL keeps these
 * texts prepared, and refuses a prepared statement whose result row changed shape (a migration
 * adding a column) where it would re-plan one with its columns named.
 */
export function cachedText(key: string, make: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = make();
    if (STAR_COLUMNS.test(text))
      throw new Error(`a written-out statement names its columns; \`*\` column list in: ${text}`);
    texts.set(key, text);
    if (!names.has(text)) names.set(text, `portico_${names.size + 1}`);
  }
  return text;
}

/**
 * The name under which PostgreSQL keeps `text` prepared, when it is one of the cached texts
 * (see database.ts): parsing and planning a multi-row INSERT of a hundred parameters costs the
 * server more than executing it, and these texts repeat on every batch.
 */
export function preparedName(text: string): string | undefined {
  return names.get(text);
}

/** `(?, ?), (?, ?)` on SQLite, `($1, $2), ($3, $4)` on PostgreSQL (numbered on from `first`). */
export function valuesList(engine: Engine, rows: number, columns: number, first = 1): string {
  let n = first - 1;
  const row = () => `(${Array.from({ length: columns }, () => (engine === 'postgres' ? `$${++n}` : '?')).join(', ')})`;
  return Array.from({ length: rows }, row).join(', ');
}

/** A multi-row INSERT of `rows` rows, the values in `columns` order. */
export function insertText(engine: Engine, table: string, columns: readonly string[], rows: number): string {
  return cachedText(
    `${engine}:${table}:${columns.length}:${rows}`,
    () => `insert into ${table} (${columns.join(', ')}) values ${valuesList(engine, rows, columns.length)}`,
  );
}

/**
 * 37 rows → 32 + 4 + 1: multi-row statements of a few fixed sizes, so that each text is
 * prepared once and stays in the statement cache whatever the batch sizes are.
 */
export function powerOfTwoChunks<T>(rows: readonly T[], largest = 128): T[][] {
  const chunks: T[][] = [];
  let i = 0;
  for (let size = largest; size >= 1; size >>= 1) {
    while (rows.length - i >= size) {
      chunks.push(rows.slice(i, i + size));
      i += size;
    }
  }
  return chunks;
}

/** Inserts `rows` into `table`, giving every one of `columns` (which should be all of them). */
export async function insertRows<Row>(
  db: Executor,
  engine: Engine,
  table: string,
  columns: ReadonlyArray<keyof Row & string>,
  rows: readonly Row[],
): Promise<void> {
  for (const chunk of powerOfTwoChunks(rows)) {
    await db.executeQuery(
      CompiledQuery.raw(
        insertText(engine, table, columns, chunk.length),
        chunk.flatMap((row) => columns.map((c) => row[c])),
      ),
    );
  }
}

/** One table's part of `insertTogether`: its name, every one of its columns, the rows. */
export interface TableRows {
  table: string;
  columns: readonly string[];
  rows: readonly object[];
}

/**
 * Inserts rows into several tables as one unit. PostgreSQL: one statement, atomic on its own,
 * so a batch costs one round trip instead of BEGIN, an INSERT per table and COMMIT. Each table's
 * rows travel as one JSON parameter that `json_populate_recordset` reads with the table's own
 * column types, so the text depends only on which tables get rows and stays prepared, whatever
 * the number of rows. SQLite: the multi-row INSERTs one after another; run it in a transaction.
 */
export async function insertTogether(db: Executor, engine: Engine, parts: readonly TableRows[]): Promise<void> {
  const filled = parts.filter((p) => p.rows.length > 0);
  if (engine === 'sqlite') {
    for (const p of filled)
      await insertRows(db, engine, p.table, p.columns, p.rows as ReadonlyArray<Record<string, unknown>>);
    return;
  }
  if (filled.length === 0) return;
  const text = cachedText(`postgres:together:${filled.map((p) => p.table).join(',')}`, () => {
    const inserts = filled.map((p, i) => {
      const columns = p.columns.join(', ');
      return `insert into ${p.table} (${columns}) select ${columns} from json_populate_recordset(null::${p.table}, $${i + 1})`;
    });
    const last = inserts.pop()!;
    return inserts.length === 0
      ? last
      : `with ${inserts.map((insert, i) => `part_${i + 1} as (${insert})`).join(', ')} ${last}`;
  });
  await db.executeQuery(
    CompiledQuery.raw(
      text,
      filled.map((p) => jsonParameter(p.rows)),
    ),
  );
}

/**
 * JSON that PostgreSQL accepts: a lone UTF-16 surrogate (a broken emoji in a form field), which
 * JSON.stringify writes as a `\udXXX` escape and PostgreSQL's JSON refuses, becomes U+FFFD, as
 * it does in a text parameter.
 */
function jsonParameter(value: unknown): string {
  const json = JSON.stringify(value);
  return json.includes('\\ud')
    ? JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.toWellFormed() : v))
    : json;
}

/**
 * Every column of `Row`, checked by the compiler: leaving one out is a type error naming it
 * (a forgotten column would otherwise be silently left to its default).
 */
export function allColumns<Row>() {
  return <const C extends ReadonlyArray<keyof Row & string>>(
    columns: C &
      ([Exclude<keyof Row, C[number]>] extends [never] ? unknown : { missingColumns: Exclude<keyof Row, C[number]> }),
  ): C => columns;
}

/**
 * One module's part of `readTogether`: a select of exactly `company_id, id, value` (text), whose
 * parameters are numbered from `first` on PostgreSQL. `key` names the text's shape (its list sizes).
 */
export interface ReadPart {
  key: string;
  select: (engine: Engine, first: number) => string;
  params: readonly unknown[];
}

export type PartRow = { company_id: string; id: string; value: string };

/**
 * Reads several modules' small lookups in one statement (`union all`), each row tagged with its
 * part: a group-committed batch of inquiries needs its recipients, location names and webhook
 * subscriptions, and on PostgreSQL each separate read was a round trip and a parse per batch
 * (issue 37, item 9). Each part keeps its own SQL in its own module; this only joins them.
 */
export async function readTogether(db: Executor, engine: Engine, parts: readonly ReadPart[]): Promise<PartRow[][]> {
  const text = cachedText(`${engine}:read-together:${parts.map((p) => p.key).join(',')}`, () => {
    let n = 1;
    return parts
      .map((p, i) => {
        const select = `select ${i} as part, company_id, id, value from (${p.select(engine, n)}) as part_${i}`;
        n += p.params.length;
        return select;
      })
      .join(' union all ');
  });
  const params = parts.flatMap((p) => p.params);
  const out: PartRow[][] = parts.map(() => []);
  const rows = (await db.executeQuery<PartRow & { part: number }>(CompiledQuery.raw(text, params))).rows;
  for (const { part, company_id, id, value } of rows) out[Number(part)]!.push({ company_id, id, value });
  return out;
}
