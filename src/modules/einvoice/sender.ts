/**
 * Where a finished e-invoice goes: the one seam a shop connects to an exchange (README
 * "E-invoices"): in Croatia an information intermediary (posrednik) registered with the Tax
 * Administration, which also fiscalises the e-invoice; elsewhere a Peppol access point. Nothing
 * implements it yet: sending is out of issue 21's scope, and the seam keeps it one adapter away.
 */
export interface EInvoiceSender {
  /** Hands the document over; resolves with the exchange's own id for it, for the status it reports later. */
  send(document: {
    companyId: string;
    saleId: string;
    syntax: 'ubl' | 'cii';
    xml: string;
    receiver: { id: string; scheme: string } | null;
  }): Promise<{ exchangeId: string }>;
}
