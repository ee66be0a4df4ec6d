/**
 * The fiscal step of issuing a document, behind one interface: Croatia's CIS is the first
 * implementation; a German TSE adapter would be another. The invoicing side knows only this.
 */

/** How a document was paid, in the words of the invoice (the CIS codes are the adapter's business). */
export type FiscalPaymentMethod = 'cash' | 'card' | 'bank_transfer' | 'other';

/** The facts of one issued document that a fiscal authority needs, as the document states them. */
export interface FiscalDocument {
  companyId: string;
  /** The sale (invoice, cancellation or credit note) this record belongs to. */
  documentId: string;
  kind: 'invoice' | 'cancellation' | 'credit_note';
  /** ISO 8601 instant of issue; the adapter formats it in the company's time zone. */
  issuedAt: string;
  timeZone: string;
  /** The legal number's parts: `{sequence}/{premises}/{device}` in Croatia. */
  sequence: number;
  premises: string;
  device: string;
  sellerTaxId: string;
  vatRegistered: boolean;
  /** Per rate, in minor units, signed (negative on a cancellation or credit note). */
  taxes: ReadonlyArray<{ ratePercent: string; baseMinor: number; taxMinor: number }>;
  /** Amounts not subject to VAT or exempt, by reason, signed. */
  exemptMinor: number;
  totalMinor: number;
  paymentMethod: FiscalPaymentMethod;
  /** The issuing user's personal tax id (OIB), where the law asks for the operator's. */
  operatorTaxId: string | null;
  /** The buyer's tax id when a business bought, else null. */
  buyerTaxId: string | null;
  /** Croatia's OznSlijed: numbers per premises (`P`, the default) or per device (`N`). */
  sequenceMode?: 'P' | 'N';
  /** The hash under the ZKI's signature (the company's `fiscal.zkiHash`); absent: SHA-1. */
  zkiHash?: 'sha1' | 'sha256';
}

/** What a document carries once the fiscal step has run: at issue (code), later (receipt). */
export interface FiscalStatus {
  status: 'not_required' | 'pending' | 'fiscalised' | 'rejected';
  /** ZKI: the issuer's protection code, computed locally at issue. */
  protectionCode: string | null;
  /** JIR: the authority's receipt, once it answered. */
  receipt: string | null;
  verifyUrl: string | null;
  error: { code: string; message: string } | null;
  /** Germany: the TSE's answers for this document (KassenSichV), absent elsewhere. */
  tse?: TseRecord | null;
}

/**
 * A German document's TSE transaction as the receipt and the JSON carry it (§ 6 KassenSichV,
 * DSFinV-K Anhang I). `failed`: the TSE could not be reached ("TSE ausgefallen"): the fields the
 * TSE fixes are null, the reason is said.
 */
export interface TseRecord {
  status: 'signed' | 'failed';
  transactionNumber: number | null;
  signatureCounter: number | null;
  start: string | null;
  end: string | null;
  signature: string | null;
  algorithm: string | null;
  timeFormat: string | null;
  publicKey: string | null;
  serialNumber: string | null;
  clientSerial: string | null;
  processType: string;
  processData: string;
  qrCode: string | null;
  error: string | null;
}

/**
 * Runs inside the issuing unit of work (`repos` is the caller's transaction): computes what must
 * be printed at once and writes the request to the fiscal outbox, so an acknowledged invoice is
 * never without its fiscal record. Sending happens after commit, bounded, and by the worker.
 */
export interface Fiscaliser<R> {
  prepare(repos: R, document: FiscalDocument): Promise<FiscalStatus>;
  /**
   * Once the issuing transaction committed: sends what `prepare` queued, waits for the authority
   * at most the bounded wait, and answers the documents' status then (a JIR, or still pending:
   * the worker delivers it later). Absent where there is nothing to send.
   */
  deliver?(companyId: string, documentIds: readonly string[]): Promise<Map<string, FiscalStatus>>;
  /**
   * Inside the unit of work that recorded a payment: tells the authority when the issued
   * receipt's payment method is now another (Croatia: promijeniPodatkeRacuna, the same day only).
   * Absent where the authority has no such message.
   */
  changePayment?(repos: R, change: PaymentChange): Promise<PaymentChangeOutcome>;
}

/** An issued document's payment method as it stands after a payment was recorded. */
export interface PaymentChange {
  companyId: string;
  documentId: string;
  paymentMethod: FiscalPaymentMethod;
  at: Date;
}

/**
 * `queued`: the change goes to the authority from the fiscal outbox; `unchanged`: it already
 * knows this method; `too_late`: the day of issue is over, so the receipt is cancelled and
 * issued anew instead; `not_required`: nothing fiscal to change.
 */
export type PaymentChangeOutcome = 'queued' | 'unchanged' | 'too_late' | 'not_required';

/** A company that fiscalises nothing (not configured, or a country without an adapter yet). */
export const NOT_REQUIRED: FiscalStatus = Object.freeze({
  status: 'not_required',
  protectionCode: null,
  receipt: null,
  verifyUrl: null,
  error: null,
}) as FiscalStatus;

/**
 * Reads the fiscal status of documents already issued (the receipt arrives after the issuing
 * transaction), for views and prints. A missing id means nothing fiscal is known: not required.
 */
export interface FiscalStatusReader {
  statusOf(companyId: string, documentIds: readonly string[]): Promise<Map<string, FiscalStatus>>;
}
