import { sql, type ColumnDataType, type Expression } from 'kysely';
import type { Engine } from '../database.ts';

/** The few places where the two engines spell a column differently. */
export function columnTypes(engine: Engine) {
  return {
    timestamp: (engine === 'postgres' ? 'timestamptz' : 'text') as ColumnDataType,
    bool: (engine === 'postgres' ? 'boolean' : 'integer') as ColumnDataType,
    falseValue: (engine === 'postgres' ? sql`false` : sql`0`) as Expression<unknown>,
    trueValue: (engine === 'postgres' ? sql`true` : sql`1`) as Expression<unknown>,
  };
}
