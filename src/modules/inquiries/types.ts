import type { InquiriesTable } from '../../db/schema.ts';

/** An inquiry as written and read; whether a digest has taken it is the digests' own business. */
export type InquiryRow = Omit<InquiriesTable, 'digested_at'>;

/** The hub's inquiry list filters; every one optional. */
export interface InquiryFilter {
  topic?: string;
  /** open: not yet handled; handled: handled; absent: both. */
  state?: 'open' | 'handled';
  /** Part of the subject, the sender's e-mail or name (case-insensitive). */
  q?: string;
  /** created_at ≥ from (ISO UTC). */
  from?: string;
  /** created_at < to (ISO UTC). */
  to?: string;
  /** Live (the default) or test data: never both. */
  mode?: 'live' | 'test';
  /** The inbox (the default) or the spam folder: never both. */
  folder?: 'inbox' | 'spam';
}
