import { sql, type Expression, type SqlBool } from 'kysely';
import type { Engine } from '../../db/database.ts';
import { searchKey } from '../../lib/search-key.ts';

/**
 * What `q` matches on the hub's lists of quotations and orders: the start of the document number
 * (case-insensitive: "q-zg1-2026-000" finds Q-ZG1-2026-00042) or the start of the customer's
 * name as folded by searchKey ("kova" does not find "Ana Kovač", "ana kov" does). Both are
 * prefixes, so each is a range on an index that leads with the tenant; matches are then sorted
 * newest first. Returns null when `q` holds nothing searchable.
 */
export function documentSearch(engine: Engine, q: string): Expression<SqlBool> | null {
  const number = q
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9-]/g, '');
  const name = searchKey(q);
  const terms: Array<Expression<SqlBool>> = [];
  if (number) terms.push(prefix(engine, 'number', number));
  if (name) terms.push(prefix(engine, 'customer_name_key', name));
  if (terms.length === 0) return null;
  return terms.length === 1 ? terms[0]! : sql<SqlBool>`(${terms[0]!} or ${terms[1]!})`;
}

/**
 * PostgreSQL: LIKE 'p%' (the pattern-ops index serves it under any collation; the prefix holds
 * no LIKE wildcard). SQLite: a byte range, which its plain index serves.
 */
function prefix(engine: Engine, column: 'number' | 'customer_name_key', value: string): Expression<SqlBool> {
  if (engine === 'postgres') return sql<SqlBool>`${sql.ref(column)} like ${`${value}%`}`;
  return sql<SqlBool>`(${sql.ref(column)} >= ${value} and ${sql.ref(column)} < ${`${value}\u007f`})`;
}
