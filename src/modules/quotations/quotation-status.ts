export const QUOTATION_STATUSES = ['approved', 'accepted', 'declined', 'converted', 'cancelled'] as const;
export type QuotationStatus = (typeof QUOTATION_STATUSES)[number];

/**
 * Only an approved quotation, or one the customer accepted on its page, may still change: be
 * converted, cancelled, or get its customer. A declined one is closed like a cancelled one.
 */
export const OPEN_QUOTATION_STATUSES: readonly QuotationStatus[] = ['approved', 'accepted'];
export function isQuotationOpen(status: string): boolean {
  return (OPEN_QUOTATION_STATUSES as readonly string[]).includes(status);
}
