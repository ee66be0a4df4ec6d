/**
 * Test documents (made with a test API key) are numbered in series of their own, printed with a
 * `T-` in front (`T-Q-ZG1-2026-00001`): a developer's trials take no number from the gap-free
 * live series, and a test document is never mistaken for a real one.
 */
export type DataMode = 'live' | 'test';

/** The sequence a document of this kind and mode counts in (number_sequences.kind). */
export function sequenceKind(kind: string, mode: DataMode): string {
  return mode === 'test' ? `test:${kind}` : kind;
}

export function testPrefix(mode: DataMode): string {
  return mode === 'test' ? 'T-' : '';
}
