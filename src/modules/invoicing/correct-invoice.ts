import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, MONEY_SCALE, parseScaled, QUANTITY_SCALE } from '../../lib/money.ts';
import {
  formatDocumentNumber,
  priceLine,
  sequenceKind,
  summarize,
  testPrefix,
  yearIn,
  type DataMode,
} from '../documents/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import {
  PAYMENT_METHODS,
  type InvoicePaymentMethod,
  type PaymentMethod,
  type RefundRow,
  type SaleLineRow,
  type SaleRow,
} from '../sales/index.ts';
import { fiscalise, insertIssued, issueFacts, type IssueFiscaliser } from './issue-steps.ts';
import { afterIssue, type IssueDeps, type IssueRepos, type Issued } from './issue-invoice.ts';
import { tseAmountsOf, type CounterTse } from './counter-tse.ts';
import { freezeAtIssue } from './frozen-documents.ts';
import { goesAsEInvoice, sendAsEInvoice } from './send-einvoice.ts';

type CorrectionRepos = IssueRepos;

export interface CorrectionInput {
  companyId: string;
  saleId: string;
  reason: string;
  actorId: string | null;
  now: Date;
  /** How money paid on the invoice goes back (cash from the drawer, card reversal, transfer); absent: a counter sale's as it was paid. */
  refund?: { method: string } | null;
  /** The correction's id when it was chosen before the unit of work (a storno the TSE signed first). */
  documentId?: string;
  /** A credit note the TSE signed first: the total it signed, which the unit of work must match. */
  signedTotalMinor?: number;
}

/** A correction to issue: a cancellation (storno) of the whole invoice, or a credit note for some of its lines. */
export type Correction =
  | { kind: 'cancellation' }
  | { kind: 'credit_note'; lines: ReadonlyArray<{ lineId: string; quantity: string }> };

/**
 * The one way an invoice is corrected: in one unit of work the correction document with its own
 * legal number in the invoices' series, its fiscal request, its event, the invoice's new state and
 * the snapshot of issue; after commit, as an issue, the dispatcher woken and the fiscal request
 * delivered with the bounded wait.
 */
export async function correctInvoice<R extends IssueRepos>(
  deps: IssueDeps<R>,
  input: CorrectionInput,
  correction: Correction,
): Promise<Issued & { refunds: RefundRow[] }> {
  if (correction.kind === 'cancellation' && deps.tse) input = await signStorno(deps, deps.tse, input);
  if (correction.kind === 'credit_note' && deps.tse) input = await signCredit(deps, deps.tse, input, correction.lines);
  const issued = await deps.store.unitOfWork(async (repos) => {
    const issued =
      correction.kind === 'cancellation'
        ? await cancelInvoice(repos, input, deps.newId, deps.fiscaliser)
        : await creditInvoice(repos, { ...input, lines: correction.lines }, deps.newId, deps.fiscaliser);
    const refunds = await giveRefund(repos, input, issued.row, deps.newId);
    const snapshot = await freezeAtIssue(repos, issued.row, input.now, 0, {
      refunds: refunds.map((r) => ({ method: r.method, amountMinor: r.amount_minor })),
    });
    if (issued.asEInvoice) await sendAsEInvoice(repos, issued, snapshot, { now: input.now, newId: deps.newId });
    return { ...issued, refunds };
  });
  return { ...(await afterIssue(deps, issued)), refunds: issued.refunds };
}

/**
 * What the correction gives back of what was paid: a storno everything still paid on the invoice,
 * a credit note what was paid beyond what the invoice still asks. Recorded with its method and
 * who gave it (`refund.recorded`), and the invoice's paid amount falls by it, so the invoice's
 * balance, the day's takings and the drawer's expected cash follow the money.
 */
async function giveRefund(
  repos: CorrectionRepos,
  input: CorrectionInput,
  correction: SaleRow,
  newId: IdGenerator,
): Promise<RefundRow[]> {
  const invoice = (await repos.sales.find(input.companyId, input.saleId))!;
  const owed = owedBack(invoice);
  const amount = Math.min(owed, Math.abs(correction.total_minor) || owed);
  if (amount <= 0) return [];
  // Unasked, only a counter sale's money goes back there and then (the customer is at the counter);
  // another invoice's stays owed back (a negative balance) until the shop says how it returns it
  // (then or later: `refundOwed`).
  if (!input.refund && invoice.source_type !== 'counter') return [];
  const method = await refundMethod(repos, input, invoice);
  return [
    await recordRefund(repos, { invoice, correction, method, amount, actorId: input.actorId, now: input.now }, newId),
  ];
}

/** What is owed back on an invoice, in cents: all that is paid on a cancelled one, what was paid beyond what it still asks otherwise. */
function owedBack(invoice: SaleRow): number {
  return invoice.status === 'cancelled'
    ? invoice.paid_minor
    : invoice.paid_minor - (invoice.total_minor - invoice.credited_minor);
}

/** A refund row, the invoice's paid amount down by it, and `refund.recorded`: the one way money goes back. */
async function recordRefund(
  repos: CorrectionRepos,
  given: { invoice: SaleRow; correction: SaleRow; method: string; amount: number; actorId: string | null; now: Date },
  newId: IdGenerator,
): Promise<RefundRow> {
  const { invoice, correction, method, amount } = given;
  const refund: RefundRow = {
    id: newId('refund'),
    company_id: invoice.company_id,
    location_id: correction.location_id,
    sale_id: correction.id,
    invoice_id: invoice.id,
    method,
    amount_minor: amount,
    given_by: given.actorId,
    mode: correction.mode,
    created_at: given.now.toISOString(),
  };
  await repos.sales.insertRefund(refund);
  await repos.sales.subtractPaid(invoice.company_id, invoice.id, amount);
  await enqueueEvent(
    repos,
    {
      companyId: invoice.company_id,
      locationId: correction.location_id,
      type: 'refund.recorded',
      livemode: correction.mode !== 'test',
      data: {
        saleId: invoice.id,
        invoiceNumber: invoice.invoice_number ?? invoice.number,
        correctionId: correction.id,
        correctionNumber: correction.invoice_number!,
        refundId: refund.id,
        method: method as PaymentMethod,
        amount: formatMoney(amount),
        givenBy: given.actorId,
      },
    },
    { now: given.now.toISOString(), newId },
  );
  return refund;
}

/**
 * Money owed back on a corrected invoice, given later than its correction (the storno was issued
 * before the money went back, or the customer is refunded by transfer days after): recorded
 * against the invoice's newest correction, at most what is owed back (all of it unless `amount`
 * says less). 409 when nothing is owed back; 400 naming `amount` when it is more.
 */
export async function refundOwed<R extends IssueRepos>(
  deps: Pick<IssueDeps<R>, 'store' | 'newId'>,
  input: {
    companyId: string;
    saleId: string;
    method: string;
    amount?: string | null;
    actorId: string | null;
    now: Date;
  },
): Promise<RefundRow> {
  const details = fieldErrors();
  if (!(PAYMENT_METHODS as readonly string[]).includes(input.method))
    addFieldError(details, 'method', said('error.refund.method'));
  let asked: number | null = null;
  if (input.amount !== undefined && input.amount !== null) {
    try {
      asked = Number(parseScaled(input.amount, MONEY_SCALE));
      if (asked <= 0) addFieldError(details, 'amount', said('error.greaterThanZero'));
    } catch {
      addFieldError(details, 'amount', said('error.payment.amountForm'));
    }
  }
  if (Object.keys(details).length > 0) throw AppError.invalid(details);
  return deps.store.unitOfWork(async (repos) => {
    // Held until commit (a lock on PostgreSQL), so two refunds at once cannot give back twice.
    await repos.sales.recomputeStatusOf(input.companyId, input.saleId);
    const invoice = await repos.sales.find(input.companyId, input.saleId);
    if (!invoice) throw AppError.notFound('Sale');
    const corrections =
      invoice.kind === 'invoice' ? await repos.sales.listCorrections(input.companyId, invoice.id) : [];
    const owed = owedBack(invoice);
    if (corrections.length === 0 || owed <= 0) throw new AppError('conflict', said('error.refund.nothingOwed'));
    if (asked !== null && asked > owed)
      throw AppError.invalid({
        amount: [said('error.refund.overOwed', { owed: owed / 10 ** MONEY_SCALE, currency: invoice.currency })],
      });
    return recordRefund(
      repos,
      {
        invoice,
        correction: corrections.at(-1)!,
        method: input.method,
        amount: asked ?? owed,
        actorId: input.actorId,
        now: input.now,
      },
      deps.newId,
    );
  });
}

/** The method asked for, or the one the invoice was paid with; a 400 on `refund.method` when neither says. */
async function refundMethod(repos: CorrectionRepos, input: CorrectionInput, invoice: SaleRow): Promise<string> {
  const asked = input.refund?.method;
  if (asked !== undefined) {
    if ((PAYMENT_METHODS as readonly string[]).includes(asked)) return asked;
    throw AppError.invalid({ 'refund.method': [said('error.refund.method')] });
  }
  const paidWith = new Set(
    (await repos.sales.listPayments(input.companyId, invoice.id)).filter((p) => !p.voided_at).map((p) => p.method),
  );
  if (paidWith.size === 1) return [...paidWith][0]!;
  if (invoice.payment_method && (PAYMENT_METHODS as readonly string[]).includes(invoice.payment_method))
    return invoice.payment_method;
  throw AppError.invalid({ 'refund.method': [said('error.refund.methodNeeded')] });
}

/**
 * A storno of a German counter sale is its own TSE transaction (DSFinV-K `AVBelegstorno`,
 * receipt type CANCELLATION): the original's amounts negated, paid back by its method, signed
 * before the unit of work like the sale was. Anything else (a Croatian invoice, an invoice not
 * sold at the counter) is not a TSE matter.
 */
async function signStorno<R extends IssueRepos>(
  deps: IssueDeps<R>,
  tse: CounterTse,
  input: CorrectionInput,
): Promise<CorrectionInput> {
  const repos = deps.store.repos;
  const original = await repos.sales.find(input.companyId, input.saleId);
  if (!original || original.source_type !== 'counter' || original.kind !== 'invoice' || original.status === 'cancelled')
    return input;
  const company = await repos.companies.findCompany(input.companyId);
  if (company?.country !== 'DE' || !company.fiscal_enabled) return input;
  const lines = await repos.sales.listSaleLines(input.companyId, [original.id]);
  const taxes = summarize(
    lines.map((l) => ({ net: -l.net_minor, tax: -l.tax_minor, total: -l.total_minor, taxRateBp: l.tax_rate_bp })),
  ).taxes;
  const documentId = deps.newId('sale');
  await tse.sign({
    companyId: input.companyId,
    locationId: original.location_id,
    documentId,
    type: 'CANCELLATION',
    amounts: tseAmountsOf(taxes, original.payment_method ?? 'cash'),
  });
  return { ...input, documentId };
}

/** The invoice a correction corrects: an issued invoice not yet cancelled, locked until commit. */
async function correctable(repos: CorrectionRepos, companyId: string, saleId: string): Promise<SaleRow> {
  const sale = await repos.sales.find(companyId, saleId);
  if (!sale) throw AppError.notFound('Sale');
  const name = sale.invoice_number ?? sale.number;
  if (sale.kind !== 'invoice') throw new AppError('conflict', said('error.invoice.isCorrection', { number: name }));
  if (sale.status === 'cancelled')
    throw new AppError('conflict', said('error.invoice.alreadyCancelled', { number: name }));
  return sale;
}

/**
 * Cancels an invoice with a cancellation invoice (storno): every line negated, its own number
 * in the same series, naming the original; the original becomes `cancelled`. An invoice already
 * partly credited is not cancelled whole (the storno would take back what the credit notes
 * already did): credit the rest instead.
 */
async function cancelInvoice(
  repos: CorrectionRepos,
  input: CorrectionInput,
  newId: IdGenerator,
  fiscaliser: IssueFiscaliser,
): Promise<Issued> {
  const original = await correctable(repos, input.companyId, input.saleId);
  if (original.credited_minor !== 0)
    throw new AppError(
      'conflict',
      said('error.invoice.hasCreditNotes', { number: original.invoice_number ?? original.number }),
    );
  if (!(await repos.sales.markCancelled(input.companyId, original.id, input.now.toISOString())))
    throw new AppError(
      'conflict',
      said('error.invoice.alreadyCancelled', { number: original.invoice_number ?? original.number }),
    );
  const lines = await repos.sales.listSaleLines(input.companyId, [original.id]);
  const id = input.documentId ?? newId('sale');
  const negated = lines.map((l) => correctionLine(l, id, l.position, whole(l), newId));
  const issued = await writeCorrection(repos, 'cancellation', original, id, negated, input, newId, fiscaliser);
  await announceCorrection(repos, input, original, issued, newId);
  return issued;
}

/** `sale.cancelled` or `credit_note.created`, in the correction's transaction; the payloads name the document by its kind. */
async function announceCorrection(
  repos: CorrectionRepos,
  input: CorrectionInput,
  original: SaleRow,
  issued: Issued,
  newId: IdGenerator,
): Promise<void> {
  const invoice = { saleId: original.id, invoiceNumber: original.invoice_number ?? original.number };
  const rest = { totalWithTax: formatMoney(issued.row.total_minor), reason: input.reason };
  const number = issued.row.invoice_number!;
  await enqueueEvent(
    repos,
    {
      companyId: input.companyId,
      locationId: original.location_id,
      livemode: original.mode !== 'test',
      ...(issued.row.kind === 'cancellation'
        ? {
            type: 'sale.cancelled' as const,
            data: { ...invoice, cancellationId: issued.row.id, cancellationNumber: number, ...rest },
          }
        : {
            type: 'credit_note.created' as const,
            data: { ...invoice, creditNoteId: issued.row.id, creditNoteNumber: number, ...rest },
          }),
    },
    { now: input.now.toISOString(), newId },
  );
}

/**
 * A credit note for part of an invoice (goods returned): the lines and quantities given, never
 * more of a line than was invoiced less what earlier credit notes took (a 400 naming the line).
 * Taking the last of a line credits exactly what the line still holds, so credits add up to it.
 */
async function creditInvoice(
  repos: CorrectionRepos,
  input: CorrectionInput & { lines: ReadonlyArray<{ lineId: string; quantity: string }> },
  newId: IdGenerator,
  fiscaliser: IssueFiscaliser,
): Promise<Issued> {
  // Locks the invoice row first, so two credit notes at once count each other's lines.
  await repos.sales.recomputeStatusOf(input.companyId, input.saleId);
  const original = await correctable(repos, input.companyId, input.saleId);
  const corrections = await repos.sales.listCorrections(input.companyId, original.id);
  const [invoiced, earlier] = await Promise.all([
    repos.sales.listSaleLines(input.companyId, [original.id]),
    repos.sales.listSaleLines(
      input.companyId,
      corrections.filter((c) => c.kind === 'credit_note').map((c) => c.id),
    ),
  ]);
  const taken = takenBy(earlier);
  const id = input.documentId ?? newId('sale');
  const { out, details } = creditedLines(original, invoiced, taken, input.lines, id, newId);
  // Signed at the TSE before this unit of work (a German counter sale's return): the amounts
  // must be those signed; another credit note of the same invoice in between changed them.
  if (input.signedTotalMinor !== undefined && Object.keys(details).length === 0) {
    const total = out.reduce((sum, l) => sum + l.total_minor, 0);
    if (total !== input.signedTotalMinor) throw new AppError('conflict', said('error.credit.refused'));
  }
  if (input.lines.length === 0) addFieldError(details, 'lines', said('error.credit.noLines'));
  if (Object.keys(details).length > 0) throw AppError.invalid(details, said('error.credit.refused'));
  const issued = await writeCorrection(repos, 'credit_note', original, id, out, input, newId, fiscaliser);
  await repos.sales.addCredited(input.companyId, original.id, -issued.row.total_minor);
  await announceCorrection(repos, input, original, issued, newId);
  return issued;
}

/** A quantity of an invoice line and its amounts, in minor units. */
interface Portion {
  quantity: number;
  net: number;
  tax: number;
  total: number;
}

const NOTHING: Portion = { quantity: 0, net: 0, tax: 0, total: 0 };
const whole = (l: SaleLineRow): Portion => ({
  quantity: l.quantity_milli,
  net: l.net_minor,
  tax: l.tax_minor,
  total: l.total_minor,
});
const plus = (a: Portion, b: Portion): Portion => ({
  quantity: a.quantity + b.quantity,
  net: a.net + b.net,
  tax: a.tax + b.tax,
  total: a.total + b.total,
});
const minus = (a: Portion, b: Portion): Portion =>
  plus(a, { quantity: -b.quantity, net: -b.net, tax: -b.tax, total: -b.total });

/**
 * The one correction line builder (storno and credit note): the invoice line as invoiced, with the
 * portion taken back negated, its own id and position, naming the line it corrects.
 */
function correctionLine(
  line: SaleLineRow,
  documentId: string,
  position: number,
  back: Portion,
  newId: IdGenerator,
): SaleLineRow {
  return {
    ...line,
    id: newId('saleLine'),
    document_id: documentId,
    position,
    quantity_milli: -back.quantity,
    net_minor: -back.net,
    tax_minor: -back.tax,
    total_minor: -back.total,
    corrects_line_id: line.id,
  };
}

/** Writes a correction document: numbered in the invoices' series, fiscalised like an invoice. */
async function writeCorrection(
  repos: CorrectionRepos,
  kind: 'cancellation' | 'credit_note',
  original: SaleRow,
  id: string,
  lines: SaleLineRow[],
  input: CorrectionInput,
  newId: IdGenerator,
  fiscaliser: IssueFiscaliser,
): Promise<Issued> {
  const { companyId, now } = input;
  const location = (await repos.companies.findLocation(companyId, original.location_id))!;
  const company = (await repos.companies.findCompany(companyId))!;
  const year = yearIn(now, company.timezone);
  // A correction is of its invoice's mode: a test invoice's storno is test data too.
  const mode = original.mode as DataMode;
  const seq = await repos.sequences.next(companyId, location.id, sequenceKind('sale', mode), year);
  const facts = await issueFacts(repos, {
    companyId,
    location,
    now,
    paymentMethod: (original.payment_method ?? 'other') as InvoicePaymentMethod,
    operatorId: input.actorId,
    correction: true,
    mode,
  });
  const totals = summarize(
    lines.map((l) => ({ net: l.net_minor, tax: l.tax_minor, total: l.total_minor, taxRateBp: l.tax_rate_bp })),
  );
  const row: SaleRow = {
    ...original,
    ...facts,
    id,
    number: testPrefix(mode) + formatDocumentNumber('S', location.code, year, seq),
    kind,
    status: 'issued',
    // A correction is its own source: the invoice it corrects is `corrects_sale_id`.
    source_type: kind,
    source_id: id,
    source_number: original.invoice_number ?? original.number,
    repriced: false,
    net_minor: totals.net,
    tax_minor: totals.tax,
    total_minor: totals.withTax,
    paid_minor: 0,
    credited_minor: 0,
    corrects_sale_id: original.id,
    correction_reason: input.reason,
    // The original's note (a delivery arrangement, say) is not the correction's to repeat; its
    // exemption reason only where the correction has an exempt line itself.
    note: null,
    exemption_reason: lines.some((l) => l.tax_rate_bp === 0) ? original.exemption_reason : null,
    // A storno takes back the original supply (čl. 79 t. 5 Zakon o PDV-u; §31 Abs. 5 UStDV):
    // its delivery date is the original's. Goods returned (a credit note) come back today.
    delivery_date: kind === 'cancellation' ? original.delivery_date : facts.delivery_date,
    cancelled_at: null,
    // Cash handed over was the original's; a correction gives back what its refund says.
    tendered_minor: null,
    created_by: input.actorId,
    created_at: now.toISOString(),
  };
  await insertIssued(repos, row, lines, company.timezone);
  await repos.sales.insertSaleLines(lines);
  const asEInvoice = await goesAsEInvoice(repos, row);
  const fiscal = await fiscalise(fiscaliser, repos, row, lines, asEInvoice);
  return { row, lines, fiscal, asEInvoice };
}

/**
 * The credit note's lines for the lines and quantities asked, given what earlier credit notes
 * took (`taken`, by invoiced line): every refusal named in `details`. Pure, so the TSE can be
 * told the same amounts before the unit of work that writes them.
 */
function creditedLines(
  original: SaleRow,
  invoiced: readonly SaleLineRow[],
  taken: Map<string, Portion>,
  requests: ReadonlyArray<{ lineId: string; quantity: string }>,
  id: string,
  newId: IdGenerator,
): { out: SaleLineRow[]; details: ReturnType<typeof fieldErrors> } {
  const byId = new Map(invoiced.map((l) => [l.id, l]));
  const details = fieldErrors();
  const out: SaleLineRow[] = [];
  requests.forEach((request, i) => {
    const line = byId.get(request.lineId);
    if (!line) {
      addFieldError(
        details,
        `lines[${i}].lineId`,
        said('error.credit.notALine', { number: original.invoice_number ?? original.number }),
      );
      return;
    }
    let quantity = 0;
    try {
      quantity = Number(parseScaled(request.quantity, QUANTITY_SCALE));
    } catch {
      addFieldError(details, `lines[${i}].quantity`, said('error.credit.quantityForm'));
      return;
    }
    const before = taken.get(line.id) ?? NOTHING;
    const left = line.quantity_milli - before.quantity;
    if (quantity <= 0) addFieldError(details, `lines[${i}].quantity`, said('error.greaterThanZero'));
    else if (quantity > left)
      addFieldError(
        details,
        `lines[${i}].quantity`,
        said('error.credit.moreThanLeft', {
          position: line.position,
          product: line.product_name,
          left: left / 10 ** QUANTITY_SCALE,
        }),
      );
    else {
      const portion: Portion =
        quantity === left
          ? minus(whole(line), before)
          : {
              quantity,
              // Priced as the invoice charged it, the line's discount included: the taxable amount was
              // the discounted price (Directive 2006/112/EC art. 79(b)) and is reduced by what was
              // charged (art. 90(1)), not by the list price.
              ...priceLine(
                {
                  unitPriceMinor: line.unit_price_minor,
                  quantityMilli: quantity,
                  taxRateBp: line.tax_rate_bp,
                  discountBp: line.discount_bp ?? 0,
                },
                Boolean(original.prices_include_tax),
              ),
            };
      taken.set(line.id, plus(before, portion));
      out.push(correctionLine(line, id, out.length + 1, portion, newId));
    }
  });
  return { out, details };
}

/** What earlier credit notes took of each invoiced line (their lines are negative). */
function takenBy(earlier: readonly SaleLineRow[]): Map<string, Portion> {
  const taken = new Map<string, Portion>();
  for (const l of earlier) {
    if (!l.corrects_line_id) continue;
    taken.set(l.corrects_line_id, minus(taken.get(l.corrects_line_id) ?? NOTHING, whole(l)));
  }
  return taken;
}

/**
 * A credit note for a German counter sale (goods brought back at the counter) is its own TSE
 * transaction: a `Beleg` with the amounts negated, paid back by the sale's method, signed before
 * the unit of work like the sale. The amounts are computed as the unit of work will (unlocked
 * reads); the unit of work refuses if another credit note changed them in between.
 */
async function signCredit<R extends IssueRepos>(
  deps: IssueDeps<R>,
  tse: CounterTse,
  input: CorrectionInput,
  requests: ReadonlyArray<{ lineId: string; quantity: string }>,
): Promise<CorrectionInput> {
  const repos = deps.store.repos;
  const original = await repos.sales.find(input.companyId, input.saleId);
  if (!original || original.source_type !== 'counter' || original.kind !== 'invoice' || original.status === 'cancelled')
    return input;
  const company = await repos.companies.findCompany(input.companyId);
  if (company?.country !== 'DE' || !company.fiscal_enabled) return input;
  const corrections = await repos.sales.listCorrections(input.companyId, original.id);
  const [invoiced, earlier] = await Promise.all([
    repos.sales.listSaleLines(input.companyId, [original.id]),
    repos.sales.listSaleLines(
      input.companyId,
      corrections.filter((c) => c.kind === 'credit_note').map((c) => c.id),
    ),
  ]);
  const documentId = deps.newId('sale');
  const { out, details } = creditedLines(original, invoiced, takenBy(earlier), requests, documentId, deps.newId);
  // Refused as asked: the unit of work says why, and nothing is signed.
  if (Object.keys(details).length > 0 || out.length === 0) return input;
  const taxes = summarize(
    out.map((l) => ({ net: l.net_minor, tax: l.tax_minor, total: l.total_minor, taxRateBp: l.tax_rate_bp })),
  ).taxes;
  await tse.sign({
    companyId: input.companyId,
    locationId: original.location_id,
    documentId,
    type: 'RECEIPT',
    amounts: tseAmountsOf(taxes, original.payment_method ?? 'cash'),
  });
  return { ...input, documentId, signedTotalMinor: out.reduce((sum, l) => sum + l.total_minor, 0) };
}
