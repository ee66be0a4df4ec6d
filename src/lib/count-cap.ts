/**
 * Counts shown to people (Today's cards, the unread badge) stop here: "99+" is all they need,
 * and a count that reads at most this many index entries costs the same at any table size.
 */
export const COUNT_CAP = 100;

/** A capped count as shown: the number, or "99+" once the cap is reached. */
export function cappedText(count: number, format: (n: number) => string): string {
  return count >= COUNT_CAP ? `${format(COUNT_CAP - 1)}+` : format(count);
}
