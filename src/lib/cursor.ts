import { AppError } from './errors.ts';

/** Opaque keyset-pagination cursors: the sort key of the last row of a page. */
export function encodeCursor(values: readonly string[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string, length: number): string[] {
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(values) &&
      values.length === length &&
      values.every((v) => typeof v === 'string' && !v.includes('\u0000'))
    )
      return values as string[];
  } catch {
    // answered below
  }
  // Said by key as AppError.notFound is: lib/ imports nothing from the modules' catalog.
  throw AppError.invalid({
    cursor: [{ text: 'Not a cursor returned by this API.', key: 'error.cursor.unknown', params: {} }],
  });
}
