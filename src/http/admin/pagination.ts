import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';

/** Newest-first keyset pages over (createdAt, id): fetch one extra row to know if more follow. */
export function newestFirstPage(query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? 25;
  const before = query.cursor ? (([createdAt, id]) => ({ createdAt: createdAt!, id: id! }))(decodeCursor(query.cursor, 2)) : undefined;
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
