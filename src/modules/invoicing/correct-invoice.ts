import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney, parseScaled, QUANTITY_SCALE } from '../../lib/money.ts';
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
import type { InvoicePaymentMethod, SaleLineRow, SaleRow } from '../sales/index.ts';
import { fiscalise, insertIssued, issueFacts, type IssueFiscaliser } from './issue-steps.ts';
import { afterIssue, type IssueDeps, type IssueRepos, type Issued } from './issue-invoice.ts';
import { tseAmountsOf, type CounterTse } from './counter-tse.ts';
import { freezeAtIssue } from './frozen-documents.ts';

type CorrectionRepos = IssueRepos;

export interface CorrectionInput {
  companyId: string;
  saleId: string;
  reason: string;
  actorId: string | null;
  now: Date;
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
): Promise<Issued> {
  if (correction.kind === 'cancellation' && deps.tse) input = await signStorno(deps, deps.tse, input);
  if (correction.kind === 'credit_note' && deps.tse) input = await signCredit(deps, deps.tse, input, correction.lines);
  const issued = await deps.store.unitOfWork(async (repos) => {
    const issued =
      correction.kind === 'cancellation'
        ? await cancelInvoice(repos, input, deps.newId, deps.fiscaliser)
        : await creditInvoice(repos, { ...input, lines: correction.lines }, deps.newId, deps.fiscaliser);
    await freezeAtIssue(repos, issued.row, input.now, 0);
    return issued;
  });
  return afterIssue(deps, issued);
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
  const negated = lines.map(
    (l): SaleLineRow => ({
      ...l,
      id: newId('saleLine'),
      document_id: id,
      quantity_milli: -l.quantity_milli,
      net_minor: -l.net_minor,
      tax_minor: -l.tax_minor,
      total_minor: -l.total_minor,
      corrects_line_id: l.id,
    }),
  );
  const issued = await writeCorrection(repos, 'cancellation', original, id, negated, input, newId, fiscaliser);
  await enqueueEvent(
    repos,
    {
      companyId: input.companyId,
      locationId: original.location_id,
      type: 'sale.cancelled',
      livemode: original.mode !== 'test',
      data: {
        saleId: original.id,
        invoiceNumber: original.invoice_number ?? original.number,
        cancellationId: id,
        cancellationNumber: issued.row.invoice_number!,
        totalWithTax: formatMoney(issued.row.total_minor),
        reason: input.reason,
      },
    },
    { now: input.now.toISOString(), newId },
  );
  return issued;
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
  await enqueueEvent(
    repos,
    {
      companyId: input.companyId,
      locationId: original.location_id,
      type: 'credit_note.created',
      livemode: original.mode !== 'test',
      data: {
        saleId: original.id,
        invoiceNumber: original.invoice_number ?? original.number,
        creditNoteId: id,
        creditNoteNumber: issued.row.invoice_number!,
        totalWithTax: formatMoney(issued.row.total_minor),
        reason: input.reason,
      },
    },
    { now: input.now.toISOString(), newId },
  );
  return issued;
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
    created_by: input.actorId,
    created_at: now.toISOString(),
  };
  await insertIssued(repos, row, lines, company.timezone);
  await repos.sales.insertSaleLines(lines);
  const fiscal = await fiscalise(fiscaliser, repos, row, lines);
  return { row, lines, fiscal };
}

/**
 * The credit note's lines for the lines and quantities asked, given what earlier credit notes
 * took (`taken`, by invoiced line): every refusal named in `details`. Pure, so the TSE can be
 * told the same amounts before the unit of work that writes them.
 */
function creditedLines(
  original: SaleRow,
  invoiced: readonly SaleLineRow[],
  taken: Map<string, { quantity: number; net: number; tax: number; total: number }>,
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
    const before = taken.get(line.id) ?? { quantity: 0, net: 0, tax: 0, total: 0 };
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
      const amounts =
        quantity === left
          ? {
              net: line.net_minor - before.net,
              tax: line.tax_minor - before.tax,
              total: line.total_minor - before.total,
            }
          : priceLine(
              { unitPriceMinor: line.unit_price_minor, quantityMilli: quantity, taxRateBp: line.tax_rate_bp },
              Boolean(original.prices_include_tax),
            );
      taken.set(line.id, {
        quantity: before.quantity + quantity,
        net: before.net + amounts.net,
        tax: before.tax + amounts.tax,
        total: before.total + amounts.total,
      });
      out.push({
        ...line,
        id: newId('saleLine'),
        document_id: id,
        position: out.length + 1,
        quantity_milli: -quantity,
        net_minor: -amounts.net,
        tax_minor: -amounts.tax,
        total_minor: -amounts.total,
        corrects_line_id: line.id,
      });
    }
  });
  return { out, details };
}

/** What earlier credit notes took of each invoiced line (their lines are negative). */
function takenBy(earlier: readonly SaleLineRow[]) {
  const taken = new Map<string, { quantity: number; net: number; tax: number; total: number }>();
  for (const l of earlier) {
    if (!l.corrects_line_id) continue;
    const t = taken.get(l.corrects_line_id) ?? { quantity: 0, net: 0, tax: 0, total: 0 };
    t.quantity -= l.quantity_milli;
    t.net -= l.net_minor;
    t.tax -= l.tax_minor;
    t.total -= l.total_minor;
    taken.set(l.corrects_line_id, t);
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
