/** SQLite hands booleans back as 0/1, PostgreSQL as booleans; code writes booleans and reads with Boolean(). */
export type SqlBool = boolean | number;
/** ISO 8601 UTC text on SQLite, timestamptz on PostgreSQL parsed back to the same ISO text. */
export type Timestamp = string;

export interface CompaniesTable {
  id: string;
  name: string;
  address_street: string | null;
  address_postal_code: string | null;
  address_city: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  tax_id: string | null;
  bank_iban: string | null;
  bank_bic: string | null;
  bank_holder: string | null;
  currency: string;
  locale: string;
  timezone: string;
  prices_include_tax: SqlBool;
  quotation_validity_days: number;
  /** Days a bank transfer is given (0022); null: 15. */
  payment_terms_days?: number | null;
  template_header: string | null;
  template_footer: string | null;
  template_payment_instructions: string | null;
  catalog_scope_kind: string;
  /** JSON array of ids for the products | categories | models scopes. */
  catalog_scope_ids: string;
  created_at: Timestamp;
  /** Croatian fiscalisation configured and on (the certificate is the fiscal module's). */
  fiscal_enabled: SqlBool;
  /** In the VAT system: the VAT id prints beside the OIB, and CIS is told so. */
  vat_registered: SqlBool;
  /** `premises` (P: numbered per business premises) or `device` (N: per device). */
  fiscal_sequence_mode: string;
  /** The seller contact of e-invoices (BG-6), required by XRechnung. */
  contact_name: string | null;
  contact_phone: string | null;
  contact_email: string | null;
  /** The ZKI's signature hash (0026): `sha1` (specification v2.6 chapter 12) or `sha256`. */
  fiscal_zki_hash?: string;
  /** The print template's logo in use (0028), by its hash in `company_logos`; null: none. */
  logo_sha256?: string | null;
}

export interface LocationsTable {
  id: string;
  company_id: string;
  name: string;
  code: string;
  address: string | null;
  created_at: Timestamp;
  /** The business premises label of Croatian invoice numbers; null: the location's code. */
  fiscal_premises: string | null;
  /** The device label (digits); null: 1. */
  fiscal_device: string | null;
}

export interface UsersTable {
  id: string;
  company_id: string;
  email: string;
  name: string;
  role: string;
  password_hash: string | null;
  created_at: Timestamp;
  disabled_at: Timestamp | null;
  /** The hub's language for this user (`hr`, `de`, `en`); null: the company's. */
  locale: string | null;
  /** The personal OIB CIS is told as the invoice's operator. */
  operator_oib: string | null;
  /** The operator's label printed on receipts (0026; Zakon o fiskalizaciji čl. 8); null: the user's name. */
  operator_label?: string | null;
  /** The location this user last chose at the counter or for a new quotation in the hub (0026). */
  hub_location_id?: string | null;
}

export interface HubSessionsTable {
  /** SHA-256 of the cookie's token, hex. */
  token_hash: string;
  company_id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  /** The absolute end; the idle end is last_seen_at plus the idle timeout. */
  expires_at: Timestamp;
}

export interface PasswordResetsTable {
  token_hash: string;
  company_id: string;
  user_id: string;
  created_by: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

export interface AdminTokensTable {
  id: string;
  company_id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  location_id: string;
  name: string;
  secret_hash: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  /** `secret` (servers) or `publishable` (web pages: inquiries and catalog reads only) (0011). */
  kind: string;
  /** `live` or `test`: which data the key works on (0011). */
  mode: string;
  /** JSON array of exact origins a publishable key may be used from (0011). */
  allowed_origins: string;
}

/** A publishable key's allowed origins, one row each: what a CORS preflight looks up (0011). */
export interface ApiKeyOriginsTable {
  origin: string;
  api_key_id: string;
}

export interface InquiriesTable {
  id: string;
  company_id: string;
  location_id: string;
  api_key_id: string;
  topic: string;
  subject: string;
  message: string;
  email: string;
  phone: string;
  name: string | null;
  product_photo_url: string | null;
  created_at: Timestamp;
  /** Marked handled in the hub (0008); null while open. */
  handled_at: Timestamp | null;
  handled_by: string | null;
  /** `live`, or `test` when made with a test key (0011): the two never see each other. */
  mode: string;
  /** Held back as spam, and why (0011): nobody was told; staff may release it. */
  spam_reason: string | null;
  /** When a staff digest e-mailed it (0034); null until then, and for ones no digest takes. */
  digested_at: Timestamp | null;
}

/** A product photo fetched once by the server (0011): the image it names, or why not. */
export interface InquiryPhotosTable {
  inquiry_id: string;
  company_id: string;
  /** The stored image (0027): its blob's key within the company; null when none is kept. */
  sha256: string | null;
  failure: string | null;
  fetched_at: Timestamp;
  /** When the retention took the photo away (0027). */
  removed_at: Timestamp | null;
}

/** A product photo's bytes, once per company and content (0027), whatever number of inquiries name it. */
export interface InquiryPhotoBlobsTable {
  company_id: string;
  sha256: string;
  content_type: string;
  size: number;
  bytes: Uint8Array;
  /** Set whenever an inquiry is given this blob; the sweep leaves younger unnamed blobs alone. */
  last_used_at: Timestamp;
}

export interface NotificationsTable {
  id: string;
  company_id: string;
  user_id: string;
  kind: string;
  title: string;
  body: string;
  subject_type: string | null;
  subject_id: string | null;
  read_at: Timestamp | null;
  created_at: Timestamp;
  /** The parameters of the message `kind` names, as JSON (0012); null on older rows: show title and body. */
  message_params: string | null;
}

export interface EmailMessagesTable {
  id: string;
  company_id: string;
  to_address: string;
  subject: string;
  text_body: string;
  status: string;
  attempts: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: Timestamp;
  /** 0016, absent on the inquiries' batched e-mails: where the recipient's answer goes. */
  reply_to?: string | null;
  /** 0016: JSON list of MailAttachment recipes (notifications/email-sender.ts), rendered when sent. */
  attachments?: string | null;
  /** 0016: what the SMTP server answered when it took the message ("250 OK …"). */
  smtp_response?: string | null;
  /** 0024: `customer` (documents, replies) or `staff` (inquiry digests); each lane is sent apart. */
  lane?: 'customer' | 'staff';
  /** 0024: an HTML part beside the text (the inquiry digests). */
  html_body?: string | null;
}

/** 0024: per company, whether a digest of new inquiries is due, and up to when the last one covered. */
export interface InquiryDigestsTable {
  company_id: string;
  due_at: Timestamp | null;
  covered_until: Timestamp;
  last_sent_at: Timestamp | null;
}

/** A document sent by e-mail from the hub (0016); its state is its e-mail's. */
export interface DocumentSendingsTable {
  id: string;
  company_id: string;
  /** `quotation` or `sale` (an invoice, cancellation or credit note). */
  document_type: string;
  document_id: string;
  email_id: string;
  to_address: string;
  locale: string;
  message: string | null;
  sent_by: string;
  created_at: Timestamp;
  /** 0019: `attached` (the e-invoice XML went with the PDF), `missing` (it could not), null (not for this buyer or document). */
  e_invoice?: string | null;
  /** 0019: with `missing`, the fields the e-invoice's profile still lacked, a JSON list. */
  e_invoice_missing?: string | null;
  /** 0025: the SHA-256 of the sale's PDF as issued that this sending carried (hex). */
  sha256?: string | null;
  /** 0025: the SHA-256 of the e-invoice XML as issued that it carried. */
  e_invoice_sha256?: string | null;
}

/** A company's e-mail text for sent documents, per language (0016); none: the built-in one. */
export interface MailTemplatesTable {
  company_id: string;
  locale: string;
  subject: string;
  body: string;
  updated_at: Timestamp;
}

/** Where customers' answers to the company's e-mails go (0016); none: the sending user's address. */
export interface MailSettingsTable {
  company_id: string;
  reply_to: string | null;
  updated_at: Timestamp;
}

/** A customer's link to a sent quotation (0016): only the SHA-256 of its token is kept. */
export interface QuotationLinksTable {
  token_hash: string;
  company_id: string;
  quotation_id: string;
  locale: string;
  expires_at: Timestamp;
  created_at: Timestamp;
}

/** The customer's answer to a quotation (0016), at most one (its key). */
export interface QuotationAnswersTable {
  quotation_id: string;
  company_id: string;
  /** `accepted` or `declined`. */
  answer: string;
  name: string | null;
  reference: string | null;
  /** The acceptance's note, or the reason it was declined. */
  note: string | null;
  answered_at: Timestamp;
}

/** A reply to an inquiry written in the hub and e-mailed to the inquirer (0016). */
export interface InquiryRepliesTable {
  id: string;
  company_id: string;
  inquiry_id: string;
  message: string;
  author_id: string;
  email_id: string | null;
  created_at: Timestamp;
}

export interface IdempotencyKeysTable {
  company_id: string;
  key: string;
  request_hash: string;
  state: string;
  locked_until: Timestamp;
  response_status: number | null;
  response_body: string | null;
  resource_id: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
}

export interface CategoriesTable {
  id: string;
  company_id: string;
  parent_id: string | null;
  name: string;
  created_at: Timestamp;
}

export interface ModelsTable {
  id: string;
  company_id: string;
  name: string;
  created_at: Timestamp;
}

export interface TaxRatesTable {
  id: string;
  company_id: string;
  name: string;
  /** Percent in basis points: 25% = 2500. */
  rate_bp: number;
  created_at: Timestamp;
  /** Why a 0 % rate is exempt, printed on invoices with such lines (the law's provision). */
  exemption_reason: string | null;
}

export interface ProductsTable {
  id: string;
  company_id: string;
  sku: string | null;
  name: string;
  description: string | null;
  category_id: string | null;
  model_id: string | null;
  tax_rate_id: string;
  datasheet_file: string | null;
  datasheet_name: string | null;
  active: SqlBool;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** KPD 2025 (Croatian CPA) code, e.g. "20.30.11": every e-invoice line's classification (HR-BR-25). */
  classification_code: string | null;
  /** GTIN digits (EAN-8, UPC-A, EAN-13, GTIN-14), check digit verified (0018); unique per company. */
  barcode: string | null;
}

export interface UnitsTable {
  id: string;
  company_id: string;
  product_id: string;
  name: string;
  /** Minor units; net, or gross when the company's prices include tax. */
  price_minor: number;
  position: number;
  created_at: Timestamp;
  /** UN/ECE Recommendation 20 code ("H87", "LTR"); null: derived from the name (einvoice/unit-codes.ts). */
  unit_code: string | null;
}

export interface NumberSequencesTable {
  company_id: string;
  location_id: string;
  kind: string;
  year: number;
  last_value: number;
}

export interface QuotationsTable {
  id: string;
  company_id: string;
  location_id: string;
  api_key_id: string | null;
  number: string;
  status: string;
  customer_name: string;
  customer_email: string | null;
  customer_phone: string | null;
  directory_customer_id: string | null;
  note: string | null;
  currency: string;
  prices_include_tax: SqlBool;
  include_datasheets: SqlBool;
  net_minor: number;
  tax_minor: number;
  total_minor: number;
  expires_at: Timestamp;
  created_at: Timestamp;
  sale_id: string | null;
  cancelled_at: Timestamp | null;
  cancellation_reason: string | null;
  /** The customer name folded for prefix search (src/lib/search-key.ts). */
  customer_name_key: string;
  /** `live`, or `test` when made with a test key (0011): the two never see each other. */
  mode: string;
  /** The hub user who made it (0015); null when an API key did. */
  created_by?: string | null;
  /** 1 for a new quotation; each revision adds one and suffixes the number (0015). */
  revision?: number;
  revised_at?: Timestamp | null;
}

/** An earlier revision of a quotation, kept whole (0015). */
export interface QuotationRevisionsTable {
  company_id: string;
  quotation_id: string;
  revision: number;
  number: string;
  total_minor: number;
  created_at: Timestamp;
  /** `{ row, lines }` as they were: the quotation row and its lines, JSON. */
  snapshot: string;
  replaced_at: Timestamp;
  replaced_by: string | null;
}

export interface DocumentLinesTable {
  id: string;
  company_id: string;
  document_id: string;
  position: number;
  product_id: string;
  unit_id: string;
  product_name: string;
  product_code: string | null;
  unit_name: string;
  quantity_milli: number;
  unit_price_minor: number;
  tax_rate_bp: number;
  net_minor: number;
  tax_minor: number;
  total_minor: number;
  note: string | null;
  /** The line's discount in basis points of a percent (0015); its amounts are after it. */
  discount_bp?: number;
}

/** A sale's line; a credit note's line names the invoice line it credits. */
export interface SaleLinesTable extends DocumentLinesTable {
  corrects_line_id?: string | null;
  /** The product's KPD 2025 code when the sale was issued (0019): the e-invoice's BT-158. */
  classification_code?: string | null;
  /** The unit's UN/ECE Rec 20 code when the sale was issued (0019); null: derived from `unit_name`. */
  unit_code?: string | null;
}

export interface OrdersTable {
  id: string;
  company_id: string;
  location_id: string;
  api_key_id: string | null;
  number: string;
  status: string;
  customer_name: string;
  customer_email: string;
  customer_phone: string;
  customer_address: string | null;
  directory_customer_id: string | null;
  note: string | null;
  external_reference: string | null;
  currency: string;
  prices_include_tax: SqlBool;
  net_minor: number;
  tax_minor: number;
  total_minor: number;
  created_at: Timestamp;
  sale_id: string | null;
  accepted_at: Timestamp | null;
  cancelled_at: Timestamp | null;
  cancellation_reason: string | null;
  customer_name_key: string;
  /** `live`, or `test` when made with a test key (0011): the two never see each other. */
  mode: string;
}

/** A sale: a converted quotation or web order, with a snapshot of its directory customer. */
export interface SalesTable {
  id: string;
  company_id: string;
  location_id: string;
  number: string;
  status: string;
  source_type: string;
  source_id: string;
  source_number: string;
  customer_id: string;
  customer_kind: string;
  customer_name: string;
  customer_tax_id: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  /** JSON {street, postalCode, city, country}, as the directory had it at conversion. */
  customer_address: string | null;
  note: string | null;
  currency: string;
  prices_include_tax: SqlBool;
  repriced: SqlBool;
  net_minor: number;
  tax_minor: number;
  total_minor: number;
  paid_minor: number;
  created_by: string | null;
  created_at: Timestamp;
  /** `invoice`, `cancellation` or `credit_note`. */
  kind: string;
  /** The legal number: `12/ZG1/1` in Croatia, `2026-12` elsewhere; null on sales made before invoices. */
  invoice_number: string | null;
  invoice_seq: number | null;
  /** The calendar year the legal number belongs to (where the company is). */
  invoice_year: number | null;
  fiscal_premises: string | null;
  fiscal_device: string | null;
  issued_at: Timestamp | null;
  /** YYYY-MM-DD. */
  delivery_date: string | null;
  /** YYYY-MM-DD. */
  due_date: string | null;
  payment_method: string | null;
  operator_name: string | null;
  operator_oib: string | null;
  /** The invoice a cancellation or credit note corrects. */
  corrects_sale_id: string | null;
  correction_reason: string | null;
  /** Why the 0 % lines are exempt, from their tax rates at issue. */
  exemption_reason: string | null;
  cancelled_at: Timestamp | null;
  /** What credit notes took off this invoice, positive. */
  credited_minor: number;
  /** Cash handed over at a counter sale (0015): the receipt prints it and the change. */
  tendered_minor?: number | null;
  /** `live`, or `test` when converted from a test document (0017); corrections share their invoice's. */
  mode: string;
  /** The buyer's order number (BT-13), given at conversion or at the counter (0025). */
  order_reference?: string | null;
}

/**
 * An issued document as issued (0025): its snapshot (`format` `snapshot`, JSON) written in the
 * issuing transaction, and each rendering stored the first time it is made; never updated.
 */
export interface IssuedDocumentsTable {
  company_id: string;
  sale_id: string;
  format: string;
  content_type: string;
  bytes: Uint8Array;
  sha256: string;
  created_at: Timestamp;
}

/**
 * Running totals of issued documents (0020): per company, mode, day (and month) where the company
 * is, location, operator, kind and tax rate, the sums of the documents' printed tax rows. Added to in the
 * transaction that issues each document; the reports sum these rows, not the documents.
 */
export interface SaleTotalsTable {
  company_id: string;
  mode: string;
  /** `day`, or `month`: the same sums again per month, so a year by month reads 12 rows a combination, not 365. */
  grain: string;
  /** YYYY-MM-DD in the company's time zone at issue; a month's row is keyed by its first day. */
  day: string;
  location_id: string;
  /** The issuing user (the document's `created_by`), '' when none. */
  operator_id: string;
  /** `invoice`, `cancellation` or `credit_note`. */
  kind: string;
  tax_rate_bp: number;
  /** For a 0 % row, the document's exemption reason (at most 500 characters); '' otherwise. */
  exemption: string;
  /** The operator's name as last printed (kept for a user since removed). */
  operator_name: string | null;
  /** Documents counted once each, on the row of their highest rate. */
  documents: number;
  /** The tax row's base, tax and base + tax, summed. */
  net_minor: number;
  tax_minor: number;
  total_minor: number;
}

/** Money given back on a cancellation or credit note of a paid invoice (0027); never updated. */
/** A logo uploaded for the print template (0028), kept once by its hash and never changed. */
export interface CompanyLogosTable {
  company_id: string;
  sha256: string;
  content_type: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  created_at: Timestamp;
}

export interface RefundsTable {
  id: string;
  company_id: string;
  location_id: string;
  /** The correction (cancellation or credit note) the refund goes with. */
  sale_id: string;
  /** The invoice refunded. */
  invoice_id: string;
  method: string;
  amount_minor: number;
  given_by: string | null;
  mode: string;
  created_at: Timestamp;
}

/** A location's cash drawer for one day (0027): opened with a float, closed with a count; frozen once closed. */
export interface DrawerDaysTable {
  id: string;
  company_id: string;
  location_id: string;
  /** YYYY-MM-DD where the company is, the day it was opened. */
  date: string;
  float_minor: number;
  opened_at: Timestamp;
  opened_by: string | null;
  closed_at: Timestamp | null;
  closed_by: string | null;
  counted_minor: number | null;
  expected_minor: number | null;
  difference_minor: number | null;
  /** JSON: the count by denomination, when given that way. */
  denominations: string | null;
  /** JSON: the day report as closed. */
  report: string | null;
}

/** Cash put in (`in`) or taken out (`out`) of a drawer during its day, with a reason (0027). */
export interface DrawerMovementsTable {
  id: string;
  company_id: string;
  day_id: string;
  kind: string;
  amount_minor: number;
  reason: string;
  recorded_by: string | null;
  created_at: Timestamp;
}

export interface SalePaymentsTable {
  id: string;
  company_id: string;
  sale_id: string;
  method: string;
  amount_minor: number;
  recorded_by: string | null;
  created_at: Timestamp;
  voided_at: Timestamp | null;
  voided_by: string | null;
  void_reason: string | null;
}

export interface CustomersTable {
  id: string;
  company_id: string;
  kind: string;
  name: string;
  /** Folded name (see customer-keys.ts): prefix search. */
  name_key: string;
  tax_id: string | null;
  tax_id_key: string | null;
  email: string | null;
  email_key: string | null;
  phone: string | null;
  /** E.164 where the number is possible. */
  phone_key: string | null;
  address_street: string | null;
  address_postal_code: string | null;
  address_city: string | null;
  address_country: string | null;
  note: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Electronic address (BT-49) and its EAS scheme ("9934" Croatian OIB, "EM" e-mail, "0204" Leitweg-ID). */
  endpoint_id: string | null;
  endpoint_scheme: string | null;
  /** Buyer reference (BT-10): a German public buyer's Leitweg-ID, or the buyer's own reference. */
  buyer_reference: string | null;
  /** Days a bank transfer is given this customer (0022); null: the company's. */
  payment_terms_days?: number | null;
  /** `hr`, `de` or `en` (0018): documents and replies sent to the customer; null: the company's. */
  language: string | null;
}

export interface WebhookEndpointsTable {
  id: string;
  company_id: string;
  kind: string;
  description: string | null;
  url: string | null;
  /** Sealed (AES-256-GCM) secret or bot token; never returned. */
  secret_sealed: string | null;
  secret_hint: string | null;
  chat_id: string | null;
  /** JSON array of event names; empty means every event. */
  events: string;
  enabled: SqlBool;
  disabled_reason: string | null;
  failing_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookEventsTable {
  id: string;
  company_id: string;
  location_id: string | null;
  type: string;
  /** The exact JSON body sent to HTTP endpoints. */
  payload: string;
  created_at: Timestamp;
  /** `live`, or `test` when made with a test key (0011): the two never see each other. */
  mode: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  event_id: string;
  endpoint_id: string;
  status: string;
  attempts: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  locked_by: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Timestamp | null;
  created_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: string;
  company_id: string;
  delivery_id: string;
  endpoint_id: string;
  attempt: number;
  /** Which worker process sent it: for operators, and to prove workers never double-send. */
  worker_id: string;
  started_at: Timestamp;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  success: SqlBool;
}

/** A company's FINA application certificate, sealed (0010). */
export interface FiscalCertificatesTable {
  company_id: string;
  /** Secret box of `{ key, certificate }` PEM: never returned by any API. */
  sealed: string;
  subject: string;
  oib: string;
  not_before: Timestamp;
  expires_at: Timestamp;
  uploaded_at: Timestamp;
}

/** The fiscal outbox (0010): one row per issued document, written with it. */
export interface FiscalRequestsTable {
  document_id: string;
  company_id: string;
  kind: string;
  /** RacunFacts as JSON: what CIS is told, fixed at issue. */
  facts: string;
  zki: string;
  /** The verification URL's `datv` (`yyyyMMdd_HHmm`). */
  qr_time: string;
  total_minor: number;
  /** pending | fiscalised | rejected */
  status: string;
  attempts: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  jir: string | null;
  /** CIS's refusal (SifraGreske, PorukaGreske) when rejected. */
  error_code: string | null;
  error_message: string | null;
  /** Why the last send got no answer. */
  last_error: string | null;
  issued_at: Timestamp;
  fiscalised_at: Timestamp | null;
  overdue_notified_at: Timestamp | null;
  created_at: Timestamp;
}

/** A company's cloud TSE account (0027): fiskaly SIGN DE; the secret sealed. */
export interface TseAccountsTable {
  company_id: string;
  provider: string;
  api_key: string;
  sealed_secret: string;
  base_url: string;
  updated_at: Timestamp;
}

/** One device (Kasse) per location: its TSS and client at the TSE (0027). */
export interface TseDevicesTable {
  company_id: string;
  location_id: string;
  tss_id: string;
  client_id: string;
  tss_serial: string;
  client_serial: string;
  public_key: string;
  algorithm: string;
  time_format: string;
  sealed_admin_pin: string;
  created_at: Timestamp;
}

/** One TSE transaction (0027): signed, or failed ("TSE ausgefallen") and waiting. */
export interface TseTransactionsTable {
  id: string;
  company_id: string;
  location_id: string;
  document_id: string | null;
  tx_id: string;
  /** RECEIPT | CANCELLATION | ABORT */
  receipt_type: string;
  /** signed | failed | cancelled */
  status: string;
  process_type: string;
  process_data: string;
  number: number | null;
  signature_counter: number | null;
  time_start: Timestamp | null;
  time_end: Timestamp | null;
  signature: string | null;
  algorithm: string | null;
  time_format: string | null;
  public_key: string | null;
  tss_serial: string | null;
  client_serial: string | null;
  qr_code: string | null;
  error: string | null;
  attempts: number;
  created_at: Timestamp;
  /** DSFinV-K GV_TYP of a drawer movement (Anfangsbestand, Einzahlung, Auszahlung, DifferenzSollIst); null for a sale's transaction. */
  business_case: string | null;
}

export interface DB {
  companies: CompaniesTable;
  locations: LocationsTable;
  users: UsersTable;
  hub_sessions: HubSessionsTable;
  password_resets: PasswordResetsTable;
  admin_tokens: AdminTokensTable;
  api_keys: ApiKeysTable;
  api_key_origins: ApiKeyOriginsTable;
  inquiries: InquiriesTable;
  inquiry_photos: InquiryPhotosTable;
  inquiry_photo_blobs: InquiryPhotoBlobsTable;
  notifications: NotificationsTable;
  email_messages: EmailMessagesTable;
  inquiry_digests: InquiryDigestsTable;
  idempotency_keys: IdempotencyKeysTable;
  categories: CategoriesTable;
  models: ModelsTable;
  tax_rates: TaxRatesTable;
  products: ProductsTable;
  units: UnitsTable;
  number_sequences: NumberSequencesTable;
  quotations: QuotationsTable;
  quotation_lines: DocumentLinesTable;
  quotation_revisions: QuotationRevisionsTable;
  orders: OrdersTable;
  order_lines: DocumentLinesTable;
  sales: SalesTable;
  sale_lines: SaleLinesTable;
  sale_payments: SalePaymentsTable;
  sale_totals: SaleTotalsTable;
  refunds: RefundsTable;
  company_logos: CompanyLogosTable;
  drawer_days: DrawerDaysTable;
  drawer_movements: DrawerMovementsTable;
  issued_documents: IssuedDocumentsTable;
  customers: CustomersTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  fiscal_certificates: FiscalCertificatesTable;
  fiscal_requests: FiscalRequestsTable;
  tse_accounts: TseAccountsTable;
  tse_devices: TseDevicesTable;
  tse_transactions: TseTransactionsTable;
  document_sendings: DocumentSendingsTable;
  mail_templates: MailTemplatesTable;
  mail_settings: MailSettingsTable;
  quotation_links: QuotationLinksTable;
  quotation_answers: QuotationAnswersTable;
  inquiry_replies: InquiryRepliesTable;
  used_proofs: UsedProofsTable;
  einvoice_exchanges: EInvoiceExchangesTable;
  purchase_invoices: PurchaseInvoicesTable;
  purchase_invoice_payments: PurchaseInvoicePaymentsTable;
  exchange_messages: ExchangeMessagesTable;
  einvoice_sends: EInvoiceSendsTable;
}

/** A solved proof-of-work challenge, spent (0017; keyed by its expiry first since 0021): refused again until it expires. */
export interface UsedProofsTable {
  signature: string;
  expires_at: Timestamp;
}

/** A company's e-invoice information intermediary (0023): the password sealed, never returned. */
export interface EInvoiceExchangesTable {
  company_id: string;
  provider: string;
  username: string;
  sealed_password: string;
  /** The intermediary's `CompanyId`: the company's OIB as registered there. */
  exchange_company_id: string;
  software_id: string;
  business_unit: string | null;
  base_url: string;
  inbox_checked_at: Timestamp | null;
  /** Why the last inbox poll failed; null after a good one. */
  inbox_error: string | null;
  updated_at: Timestamp;
}

/** A received e-invoice (0023): its original bytes frozen by a trigger, its facts parsed beside them. */
export interface PurchaseInvoicesTable {
  id: string;
  company_id: string;
  source: string;
  exchange_document_id: string | null;
  syntax: string;
  original_xml: Uint8Array;
  xml_sha256: string;
  type_code: string;
  number: string;
  issue_date: string;
  due_date: string | null;
  currency: string;
  supplier_name: string;
  supplier_oib: string | null;
  supplier_vat_id: string | null;
  net_minor: number;
  tax_minor: number;
  total_minor: number;
  payable_minor: number;
  iban: string | null;
  payment_reference: string | null;
  /** JSON: lines, VAT breakdown, buyer, notes, attachments (the parsed document). */
  parsed: string;
  status: string;
  rejection_type: string | null;
  rejection_reason: string | null;
  decided_at: Timestamp | null;
  decided_by: string | null;
  paid_minor: number;
  received_at: Timestamp;
}

/** A payment made on a received invoice (0023). */
export interface PurchaseInvoicePaymentsTable {
  id: string;
  company_id: string;
  purchase_invoice_id: string;
  amount_minor: number;
  paid_on: string;
  method: string;
  recorded_by: string | null;
  created_at: Timestamp;
}

/** The exchange's outbox (0023): one call to the intermediary, written with the change that causes it. */
export interface ExchangeMessagesTable {
  id: string;
  company_id: string;
  kind: string;
  subject_id: string;
  /** JSON: the call's facts, frozen when the change commits. */
  body: string;
  /** pending → done, or failed (the intermediary refused it: a person looks). */
  status: string;
  attempts: number;
  next_attempt_at: Timestamp;
  locked_until: Timestamp | null;
  last_error: string | null;
  /** JSON: what the intermediary answered. */
  answer: string | null;
  created_at: Timestamp;
  done_at: Timestamp | null;
}

/** An issued document sent as an e-invoice through the exchange (0027), and where it is. */
export interface EInvoiceSendsTable {
  sale_id: string;
  company_id: string;
  /** The `send` call in `exchange_messages`. */
  message_id: string;
  /** queued → sent → delivered, or rejected (by the buyer), or failed (the intermediary refused it). */
  status: string;
  /** The intermediary's id of the document (moj-eRačun's ElectronicId). */
  document_id: string | null;
  delivered_at: Timestamp | null;
  /** The issuer's fiscalisation of the e-invoice: unknown, fiscalised or failed. */
  fiscal_status: string;
  fiscal_message: string | null;
  rejection_type: string | null;
  rejection_reason: string | null;
  rejected_at: Timestamp | null;
  last_error: string | null;
  checked_at: Timestamp | null;
  /** When the admins were told of its failure or rejection (once). */
  notified_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
