/**
 * The e-invoice exchange: an information intermediary (informacijski posrednik, Zakon o
 * fiskalizaciji NN 89/2025 art. 59–63) that carries a company's e-invoices to and from other
 * businesses, fiscalises them and takes its e-reports. One port, one adapter per intermediary
 * (moj-eRačun first); ePoslovanje or FINA follow as adapters of the same interface.
 */
export const EXCHANGE_PROVIDERS = ['moj-eracun'] as const;
export type ExchangeProvider = (typeof EXCHANGE_PROVIDERS)[number];

/** What a company configures; the password is stored sealed and never shown again. */
export interface ExchangeCredentials {
  provider: ExchangeProvider;
  baseUrl: string;
  username: string;
  password: string;
  /** The company's id at the intermediary: its OIB. */
  companyId: string;
  /** The software's id the intermediary gave this integration. */
  softwareId: string;
  businessUnit: string | null;
}

/** The intermediary could not be asked (refused connection, timeout, its own 5xx): ask again later. */
export class ExchangeUnreachable extends Error {
  override name = 'ExchangeUnreachable';
}

/** The intermediary answered no (credentials, a document it refuses): asking again gives the same answer. */
export class ExchangeRefused extends Error {
  override name = 'ExchangeRefused';
}

/** Where a sent document is: with the intermediary, with the buyer, or not delivered. */
export type DeliveryStatus = 'processing' | 'sent' | 'delivered' | 'failed';
/** What the buyer said of it (the business process status), when it said anything. */
export type BusinessStatus = 'received' | 'accepted' | 'rejected' | 'paid' | 'partly_paid' | null;

export interface SentDocument {
  documentId: string;
  status: DeliveryStatus;
}

export interface DocumentStatus {
  documentId: string;
  number: string | null;
  status: DeliveryStatus;
  businessStatus: BusinessStatus;
  rejectReason: string | null;
  /** The buyer's reason type (Zakon o fiskalizaciji art. 52: N, U or O), when the intermediary states it. */
  rejectType: RejectionType | null;
  updatedAt: string | null;
}

export interface InboxEntry {
  documentId: string;
  number: string | null;
  senderId: string | null;
  senderName: string | null;
  sentAt: string | null;
}

export interface FiscalisationStatus {
  documentId: string;
  /** `fiscalised`: the Tax Administration took it; `failed` with its code; `unknown` until it is reported. */
  status: 'fiscalised' | 'failed' | 'unknown';
  code: string | null;
  message: string | null;
}

/** How a payment was made (EvidentirajNaplatu: T transfer, O set-off, Z other). */
export type ReportedPaymentMethod = 'T' | 'O' | 'Z';
/** Why an e-invoice is rejected (EvidentirajOdbijanje, specification v1.15 §5.1.2.6): N a data mismatch not affecting the VAT, U one affecting it, O other. */
export type RejectionType = 'N' | 'U' | 'O';
export const REJECTION_TYPES: readonly RejectionType[] = ['N', 'U', 'O'];

/** A stated rejection type, or null: anything but N, U or O reads as unknown rather than as a guess. */
export function rejectionTypeOf(value: unknown): RejectionType | null {
  const t = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return (REJECTION_TYPES as readonly string[]).includes(t) ? (t as RejectionType) : null;
}

export interface EInvoiceExchange {
  readonly provider: ExchangeProvider;
  /** Hands over a UBL document; the intermediary validates, signs, delivers and fiscalises it. */
  send(xml: string): Promise<SentDocument>;
  /** Delivery and business statuses of sent documents: one, or every one changed since a time. */
  status(query: { documentId?: string; since?: string }): Promise<DocumentStatus[]>;
  /** The fiscalisation of one document, sent (`outbox`) or received (`inbox`). */
  fiscalisation(direction: 'outbox' | 'inbox', documentId: string): Promise<FiscalisationStatus>;
  /** Documents addressed to the company not yet downloaded. */
  inbox(): Promise<InboxEntry[]>;
  /** One document's XML, byte for byte as the intermediary holds it. */
  receive(documentId: string): Promise<Buffer>;
  /** Reports a payment received on a sent e-invoice (EvidentirajNaplatu). */
  markPaid(payment: {
    documentId: string;
    paidOn: string;
    amount: string;
    method: ReportedPaymentMethod;
  }): Promise<unknown>;
  /** Reports the rejection of a received e-invoice (EvidentirajOdbijanje). */
  reject(rejection: { documentId: string; rejectedOn: string; type: RejectionType; reason: string }): Promise<unknown>;
  /** A cheap authenticated call: proves the address, TLS and the credentials. */
  check(): Promise<void>;
}
