import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';

/** Newest-first keyset pages over (createdAt, id): fetch one extra row to know if more follow. */
export function newestFirstPage(query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? 25;
  const before = query.cursor
    ? (([createdAt, id]) => ({ createdAt: createdAt!, id: id! }))(decodeCursor(query.cursor, 2))
    : undefined;
  // The first value is compared with a timestamp column: a forged one must be a 400, not a SQL error.
  if (before && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(before.createdAt))
    throw AppError.invalid({ cursor: [said('error.cursor.unknown')] });
  return {
    limit: limit + 1,
    before,
    page<T extends { createdAt: string; id: string }>(rows: T[]): { data: T[]; nextCursor: string | null } {
      const data = rows.slice(0, limit);
      const last = data.at(-1);
      return { data, nextCursor: rows.length > limit && last ? encodeCursor([last.createdAt, last.id]) : null };
    },
  };
}
