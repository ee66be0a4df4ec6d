import type { Company, LocationRow } from '../companies/index.ts';

/**
 * What an issued document's prints and e-invoice read besides its own row and lines, as it was
 * when it was issued: the seller, the location, the buyer's e-invoice address and what was paid
 * with the issue (a counter sale). Its renderings are made from this and never from today's
 * records, so a later edit of the company, the location or the customer changes no issued paper.
 */
export interface IssueSnapshot {
  version: 1;
  company: Company;
  location: LocationRow;
  buyer: { endpoint_id: string | null; endpoint_scheme: string | null; buyer_reference: string | null } | null;
  paidMinor: number;
  /** What a correction gave back with it (0027): each refund's method and amount. */
  refunds?: Array<{ method: string; amountMinor: number }>;
}
