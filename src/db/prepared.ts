import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { DB } from './schema.ts';

/**
 * A Kysely query built and compiled once, then run with new values: building and compiling cost
 * more than SQLite takes to answer a primary-key read, so the hottest reads (one per request,
 * such as authentication) skip them. The query is written with `param(name)` where a value goes;
 * the SQL text stays the same, so SQLite's prepared-statement cache (sqlite-adapter.ts) applies too.
 */
export function prepareQuery<P extends Record<string, unknown>, Row>(
  db: Kysely<DB>,
  build: (param: <K extends keyof P & string>(name: K) => P[K]) => Compilable<Row>,
): (values: P) => Promise<Row[]> {
  // Compiled on first use: repositories are also built per transaction, mostly never using it.
  let prepared: { sql: string; slots: Array<(values: P) => unknown> } | null = null;
  const prepare = () => {
    const compiled = build((name) => `\u0000param:${name}\u0000` as never).compile();
    // Each compiled parameter is either a named value or a constant the query itself holds.
    const slots = compiled.parameters.map((value): (values: P) => unknown => {
      const name = typeof value === 'string' ? /^\u0000param:(.+)\u0000$/.exec(value)?.[1] : undefined;
      return name === undefined ? () => value : (values) => values[name];
    });
    return { sql: compiled.sql, slots };
  };
  return async (values) => {
    prepared ??= prepare();
    const parameters = prepared.slots.map((slot) => slot(values));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(prepared.sql, parameters));
    return result.rows;
  };
}
