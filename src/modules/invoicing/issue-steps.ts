import type { CompanyDirectory, LocationRow } from '../companies/index.ts';
import { said } from '../i18n/index.ts';
import {
  sequenceKind,
  summarize,
  testPrefix,
  yearIn,
  type DataMode,
  type DocumentLineRow,
  type NumberSequences,
} from '../documents/index.ts';
import { NOT_REQUIRED, type Fiscaliser, type FiscalStatus, type FiscalWrites } from '../fiscal/index.ts';
import { invoiceSeries, type SequenceMode } from './numbering.ts';
import {
  documentTotals,
  type InvoiceKind,
  type InvoicePaymentMethod,
  type SaleRow,
  type SaleTotalsLedger,
  type SaleRecords,
} from '../sales/index.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * When a conversion names no payment method: a quotation or web order is usually paid by bank
 * transfer against the invoice (the hub's convert form asks; the admin API's body may say).
 */
export const DEFAULT_PAYMENT_METHOD: InvoicePaymentMethod = 'bank_transfer';

/**
 * The fiscal step as invoicing holds it: it writes the fiscal tables (a CIS request, a TSE
 * transaction) in the issuing unit of work, so issuing's repositories carry them.
 */
export type IssueFiscaliser = Fiscaliser<FiscalWrites>;

/** Days a bank transfer is given when neither the customer nor the company set terms; paid at the counter: due at once. */
export const BANK_TRANSFER_DAYS = 15;

export type StepRepos = {
  companies: Pick<CompanyDirectory, 'findCompany' | 'findLocation' | 'listLocations' | 'findUser'>;
  sequences: NumberSequences;
} & FiscalWrites;

/** What an issued document states beyond its lines: its legal number, dates, payment and operator. */
export type IssuedFacts = Pick<
  SaleRow,
  | 'invoice_number'
  | 'invoice_seq'
  | 'invoice_year'
  | 'fiscal_premises'
  | 'fiscal_device'
  | 'issued_at'
  | 'delivery_date'
  | 'due_date'
  | 'payment_method'
  | 'operator_name'
  | 'operator_oib'
>;

/**
 * Inside the issuing unit of work: the next legal number of the company's series (the counter
 * row stays locked until commit, so numbers have no gaps), the dates and the operator.
 */
export async function issueFacts(
  repos: StepRepos,
  input: {
    companyId: string;
    location: LocationRow;
    now: Date;
    paymentMethod: InvoicePaymentMethod;
    operatorId: string | null;
    /** A correction is delivered and due when it is issued. */
    correction: boolean;
    /** A test document counts in a series of its own and is printed `T-…`. */
    mode: DataMode;
    /** The customer's payment terms in days; null or absent: the company's (default 15). */
    paymentTermsDays?: number | null;
  },
): Promise<IssuedFacts> {
  const { companyId, location, now } = input;
  const company = (await repos.companies.findCompany(companyId))!;
  const year = yearIn(now, company.timezone);
  const series = invoiceSeries(
    { country: company.country, sequenceMode: company.fiscal_sequence_mode as SequenceMode },
    location,
    await repos.companies.listLocations(companyId),
    year,
  );
  const seq = await repos.sequences.next(companyId, series.locationId, sequenceKind(series.kind, input.mode), year);
  const operator = input.operatorId ? await repos.companies.findUser(companyId, input.operatorId) : undefined;
  const today = dateIn(now, company.timezone);
  const days = input.paymentTermsDays ?? company.payment_terms_days ?? BANK_TRANSFER_DAYS;
  const due = input.paymentMethod === 'bank_transfer' && !input.correction ? addDays(today, days) : today;
  return {
    invoice_number: testPrefix(input.mode) + series.format(seq),
    invoice_seq: seq,
    invoice_year: year,
    fiscal_premises: series.premises,
    fiscal_device: series.device,
    issued_at: now.toISOString(),
    delivery_date: today,
    due_date: due,
    payment_method: input.paymentMethod,
    // The operator's label is what the paper names (Zakon o fiskalizaciji čl. 8); the OIB goes to CIS only.
    operator_name: operator ? operator.operator_label || operator.name : null,
    operator_oib: operator?.operator_oib ?? null,
  };
}

/**
 * After the issuing transaction committed: hands the fiscal request to the authority with the
 * adapter's bounded wait, so the answer (a JIR) usually comes back with the document; if it does
 * not, the document stays pending and the fiscal worker delivers it late.
 */
export async function deliverFiscal(
  fiscaliser: IssueFiscaliser,
  companyId: string,
  documentId: string,
  status: FiscalStatus,
): Promise<FiscalStatus> {
  if (status.status !== 'pending' || !fiscaliser.deliver) return status;
  return (await fiscaliser.deliver(companyId, [documentId])).get(documentId) ?? status;
}

/**
 * Runs the fiscal step for a document just written, in the same unit of work. A test document
 * is never reported to the tax authority: it records no sale (it is a developer's trial).
 */
export async function fiscalise(
  fiscaliser: IssueFiscaliser,
  repos: StepRepos,
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  /** It goes to the buyer as an e-invoice, fiscalised by the exchange: no receipt to CIS (send-einvoice.ts). */
  asEInvoice = false,
): Promise<FiscalStatus> {
  if (row.mode === 'test' || asEInvoice) return NOT_REQUIRED;
  const company = (await repos.companies.findCompany(row.company_id))!;
  // Switched off in the company's settings: nothing is fiscalised, whatever certificate is stored.
  if (!company.fiscal_enabled) return NOT_REQUIRED;
  const totals = summarize(
    lines.map((l) => ({ net: l.net_minor, tax: l.tax_minor, total: l.total_minor, taxRateBp: l.tax_rate_bp })),
  );
  const oib = company.tax_id?.replace(/^HR/, '') ?? '';
  return fiscaliser.prepare(repos, {
    companyId: row.company_id,
    documentId: row.id,
    kind: row.kind as InvoiceKind,
    issuedAt: row.issued_at!,
    timeZone: company.timezone,
    sequence: row.invoice_seq ?? 0,
    premises: row.fiscal_premises ?? '',
    device: row.fiscal_device ?? '',
    sellerTaxId: oib,
    vatRegistered: Boolean(company.vat_registered),
    taxes: totals.taxes
      .filter((t) => t.rateBp !== 0)
      .map((t) => ({ ratePercent: (t.rateBp / 100).toFixed(2), baseMinor: t.base, taxMinor: t.tax })),
    exemptMinor: totals.taxes.filter((t) => t.rateBp === 0).reduce((sum, t) => sum + t.base, 0),
    totalMinor: totals.withTax,
    paymentMethod: row.payment_method as InvoicePaymentMethod,
    operatorTaxId: row.operator_oib,
    // A receipt names a business buyer (OibPrimateljaRacuna) only when paid in cash or by card:
    // such a receipt never says T (specification v2.6 §2.1.1.1; Zakon o fiskalizaciji art. 39).
    buyerTaxId:
      row.customer_kind === 'business' && row.payment_method !== 'bank_transfer'
        ? (row.customer_tax_id?.replace(/^HR/, '') ?? null)
        : null,
    zkiHash: company.fiscal_zki_hash === 'sha256' ? 'sha256' : 'sha1',
  });
}

/**
 * Writes an issued document's row and adds its figures to its day's and month's running totals,
 * in the caller's unit of work; a legal number already used this year (the sequence mode was
 * changed after invoices were issued with the other one) is a 409, not a duplicate.
 */
export async function insertIssued(
  repos: { sales: Pick<SaleRecords, 'insert'>; saleTotals: Pick<SaleTotalsLedger, 'add'> },
  row: SaleRow,
  lines: readonly DocumentLineRow[],
  timeZone: string,
): Promise<void> {
  try {
    await repos.sales.insert(row);
  } catch (error) {
    const e = error as { message?: string; constraint?: string };
    if (e.constraint === 'sales_company_invoice_number_key' || /invoice_number/.test(String(e.message)))
      throw new AppError('conflict', said('error.invoice.numberUsed', { number: row.invoice_number ?? '' }));
    throw error;
  }
  await repos.saleTotals.add(documentTotals(row, lines, dateIn(new Date(row.issued_at!), timeZone)));
}

/** The calendar day (YYYY-MM-DD) at `instant` where the company is. */
export function dateIn(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    // Built once per zone: a formatter costs more to make than an invoice's other arithmetic.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    if (dayFormats.size >= 256) dayFormats.clear();
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
