/**
 * The one layout of every sales document (a quotation, a sale: whatever PrintDocument says), like
 * the point-of-sale print (pdfmake 0.3 + pdfkit, no browser).
 *
 * - Every label comes from the message catalog in the company's language, and numbers, money
 *   and dates from its formatter (src/modules/i18n), so a Croatian print is Croatian throughout.
 * - The closing block (totals, tax summary, payment instructions and payment codes) is never
 *   alone on a page: it is unbreakable, and when it does not fit under the last lines, the last
 *   lines move to the next page with it (a second layout, with the line table's measured column
 *   widths so both parts of the table line up).
 * - Page numbers count the whole file: `extraPages` are the datasheet pages appended after these
 *   (print-job.ts stamps those).
 * - Deterministic: the same document renders to the same bytes. CreationDate/ModDate come from
 *   `issuedAt` (pdfkit would otherwise use `new Date()`), and pdfkit derives the trailer /ID as
 *   md5 over the info dictionary, so it is deterministic too. Font subset tags derive from the
 *   font ids (F1, F2, ...), and zlib output is deterministic for equal input.
 * - Rendering is synchronous CPU work (~3 ms for 10 lines, ~25 ms for 200 once warm), so the
 *   server runs it on the print pool's threads (print-pool.ts). How a definition becomes bytes
 *   (pdfmake layout, our content streams and font subsets, pdfkit) is in pdf-writer.ts.
 */
import type { Content, ContentTable, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { logoBox } from './logo-box.ts';
import { fiscalQrSide } from './fiscal-qr-side.ts';
import { parseScaled } from '../../lib/money.ts';
import { formatIban } from '../../lib/iban.ts';
import { createFormatter, resolveLanguage, translator, type Formatter, type Translate } from '../i18n/index.ts';
import type { PrintDocument } from './print-document.ts';
import type { LaidOutPage } from './content-stream-renderer.ts';
import { printPdf, PRINT_FONT_FAMILY, type Relayout } from './pdf-writer.ts';
import { buildReceipt } from './receipt-layout.ts';
import { basisPoints, cents, discountText, parseDate, plain, t } from './print-text.ts';

export { PRINT_FONT_FAMILY } from './pdf-writer.ts';

const FONT_FAMILY = PRINT_FONT_FAMILY;

/** Payment code images by kind, as PNG: drawn beside the payment details. */
export type CodeImages = Partial<
  Record<'epc_qr' | 'hub3_pdf417' | 'fiscal_qr', { png: Uint8Array; width: number; height: number }>
>;

export interface PrintOptions {
  /** Pages appended after the document's own (datasheets): page numbers count them. */
  extraPages?: number;
  codeImages?: CodeImages;
}

/**
 * Conservative bound for "this table row is shorter than a page": the
 * product column is at least ~250 pt wide (≈ 55 characters of 7.5 pt text per
 * line) and an A4 page holds ~75 such lines; we allow 1,500 characters and
 * 30 explicit line breaks.
 */
function lineFitsOnAPage(line: PrintDocument['lines'][number]): boolean {
  const text = `${line.productName}\n${line.productCode ?? ''}\n${line.note ?? ''}`;
  if (text.length > 1500) return false;
  let newlines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
  return newlines <= 32;
}

// ---------------------------------------------------------------------------
// Document definition

const GREY = '#555555';
const RULE = '#999999';

// Inline style properties rather than named `styles`: pdfmake resolves ~20
// style properties per text item by walking the style stack, and each named
// style lookup allocates; inline properties make 200-line tables ~15% faster.
const COMPANY = { fontSize: 14, bold: true } as const;
const TITLE = { fontSize: 16, bold: true } as const;
const LABEL = { color: GREY } as const;
const TH = { bold: true, fontSize: 8.5, noWrap: true } as const;
const CODE = { fontSize: 7.5, color: GREY } as const;
const LINE_NOTE = { fontSize: 7.5, italics: true, color: GREY } as const;

/** HUB-3's box on paper: the module is 0.254 mm (0.72 pt), the symbol at most 58 × 26 mm. */
const HUB3_MODULE_PT = 0.72;
const HUB3_MAX_HEIGHT_PT = (26 / 25.4) * 72;
/** The EPC QR code's side, quiet zone included (about 35 mm). */
const EPC_QR_SIDE_PT = 100;
/** The fiscal verification QR: at least 2 × 2 cm with its quiet zone, as the fiscal rules ask (about 25 mm). */
const FISCAL_QR_SIDE_PT = 72;

/** The layout's parts that a second pass needs: the line table, measured by the first. */
interface Built {
  definition: TDocumentDefinitions;
  lineTable: ContentTable;
}

/** A property on a text part that finds its words on the laid-out pages (see pageWith). */
const MARK = 'porticoMark';
type Mark = 'lastRow' | 'closing';
const marked = (text: string, mark: Mark) => [{ text, [MARK]: mark }];

/**
 * The pdfmake document definition (fonts referenced by the private family name
 * "PorticoDejaVuSans"). Exported for tests, which render it through pdfmake's public API to
 * check that our printer produces the same pages, text and font subsets. Builds fresh objects
 * on every call (pdfmake mutates the definition while laying it out). With `split`, the last
 * `split.rows` lines print in the closing block, in a table of the given column widths, on a
 * new page.
 */
export function buildDocDefinition(
  doc: PrintDocument,
  options: PrintOptions = {},
  split?: { rows: number; widths: number[] },
): TDocumentDefinitions {
  return build(doc, options, split).definition;
}

/** What every part of the layout says things with: the catalog's words and the company's formats. */
interface Speech {
  tr: Translate;
  f: Formatter;
  money: (value: string) => string;
}

function build(doc: PrintDocument, options: PrintOptions, split?: { rows: number; widths: number[] }): Built {
  const tr: Translate = translator(resolveLanguage(doc.locale));
  const f: Formatter = createFormatter(doc.locale, {
    currency: doc.currency,
    timeZone: doc.timezone,
    dates: 'numeric',
  });
  const say: Speech = { tr, f, money: (value) => f.money(cents(value)) };
  const issuedAt = parseDate(doc.issuedAt, 'issuedAt');
  const title = tr('document.titleWithNumber', { title: tr(doc.title), number: plain(doc.number) });
  const sourceLine = doc.source ? `${tr('print.sourceDocument')}: ${plain(doc.source.number)}` : null;

  const lines = lineTables(doc, say);
  const moved = split ? Math.min(split.rows, lines.rows.length) : 0;
  const lineTable = lines.table(lines.rows.slice(0, lines.rows.length - moved), split?.widths);
  const closing: Content[] = [];
  if (moved > 0) closing.push(lines.table(lines.rows.slice(lines.rows.length - moved), split?.widths));
  closing.push(...closingBlock(doc, options, say));

  const content: Content[] = [
    companyHeader(doc, tr),
    { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.8 }], margin: [0, 6, 0, 8] },
    { text: title, ...TITLE, margin: [0, 0, 0, sourceLine ? 2 : 8] },
    ...(sourceLine ? [{ text: t(sourceLine), color: GREY, margin: [0, 0, 0, 8] } as Content] : []),
    ...(doc.corrects ?? []).map((line) => ({ text: t(line), bold: true, margin: [0, 0, 0, 4] }) as Content),
    metaBlock(doc, say, issuedAt),
  ];
  if (doc.note) content.push({ text: t(doc.note), margin: [0, 0, 0, 10] });
  if (lineTable.table.body.length > 1) content.push(lineTable);
  // The company's closing words belong to the closing block: alone on a last page they looked like a stray page.
  if (doc.template.footer) closing.push({ text: t(doc.template.footer), color: GREY, fontSize: 8 });
  content.push({ stack: closing, unbreakable: true, ...(moved > 0 ? { pageBreak: 'before' as const } : {}) });
  return { definition: pageDefinition(doc, options, tr, { title, issuedAt, content }), lineTable };
}

/** The company's name, logo, address and tax ids, beside the print template's header. */
function companyHeader(doc: PrintDocument, tr: Translate): Content {
  const companyStack: Content[] = [{ text: t(doc.company.name), ...COMPANY }];
  // The logo in a box of its own above the name: 160 × 48 pt at most, its proportions kept.
  if (doc.logo) companyStack.unshift({ image: 'logo', ...logoBox(doc.logo, 160, 48), margin: [0, 0, 0, 6] });
  if (doc.company.address) companyStack.push({ text: t(doc.company.address) });
  if (doc.sellerIds) for (const id of doc.sellerIds) companyStack.push({ text: t(`${tr(id.label)}: ${id.value}`) });
  else if (doc.company.taxId) companyStack.push({ text: t(`${tr('print.taxId')}: ${doc.company.taxId}`) });
  return {
    columns: [
      { width: '*', stack: companyStack },
      doc.template.header
        ? { width: '45%', text: t(doc.template.header), alignment: 'right', color: GREY }
        : { width: '45%', text: '' },
    ],
    columnGap: 16,
  };
}

/** Dates, facts and location on the left; the customer on the right. */
function metaBlock(doc: PrintDocument, { tr, f }: Speech, issuedAt: Date): Content {
  const dates = doc.dates.map((date, i) => ({ label: date.label, at: parseDate(date.at, `dates[${i}].at`) }));
  const locationText = `${doc.location.name} (${doc.location.code})`;
  const metaBody: TableCell[][] = doc.issuedLabel
    ? [[{ text: tr(doc.issuedLabel), ...LABEL }, f.dateTime(issuedAt)]]
    : [];
  for (const date of dates) metaBody.push([{ text: tr(date.label), ...LABEL }, f.date(date.at)]);
  for (const fact of doc.facts ?? []) metaBody.push([{ text: tr(fact.label), ...LABEL }, { text: t(fact.value) }]);
  metaBody.push([
    { text: tr('print.location'), ...LABEL },
    { text: t(doc.location.address ? `${locationText}\n${doc.location.address}` : locationText) },
  ]);
  // No customer (the shop's own paper, a day report): no customer block.
  const customerStack: Content[] = doc.customer.name
    ? [
        { text: tr('print.customer'), ...LABEL },
        { text: t(doc.customer.name), bold: true },
      ]
    : [];
  if (doc.customer.address) customerStack.push({ text: t(doc.customer.address) });
  for (const id of doc.customer.ids ?? []) customerStack.push({ text: t(`${tr(id.label)}: ${id.value}`) });
  if (doc.customer.email) customerStack.push({ text: t(doc.customer.email) });
  if (doc.customer.phone) customerStack.push({ text: t(doc.customer.phone) });
  return {
    columns: [
      { width: '*', table: { widths: ['auto', '*'], body: metaBody }, layout: 'noBorders' },
      { width: '*', stack: customerStack },
    ],
    columnGap: 16,
    margin: [0, 0, 0, 10],
  };
}

/**
 * The document's lines as table rows, and the table that holds some of them: the whole list
 * normally, or the part before and the part after a split (the second in the closing block).
 */
function lineTables(
  doc: PrintDocument,
  { tr, f, money }: Speech,
): { rows: TableCell[][]; table: (rows: TableCell[][], widths?: number[]) => ContentTable } {
  const headerRow = (): TableCell[] => [
    { text: tr('print.column.position'), ...TH },
    { text: tr('print.column.product'), ...TH },
    { text: tr('print.column.quantity'), ...TH, alignment: 'right' },
    { text: tr('print.column.unit'), ...TH },
    { text: tr('print.column.unitPrice'), ...TH, alignment: 'right' },
    { text: tr('print.column.taxRate'), ...TH, alignment: 'right' },
    { text: tr('print.column.amount'), ...TH, alignment: 'right' },
  ];
  const rows: TableCell[][] = doc.lines.map((line, i) => {
    const product: Content[] = [{ text: t(line.productName) }];
    if (line.productCode) product.push({ text: t(line.productCode), ...CODE });
    if (line.note) product.push({ text: t(line.note), ...LINE_NOTE });
    // The unit price stays the list price; the amount is after the discount, which says so here.
    if (line.discount) product.push({ text: discountText(line, tr, f), ...LINE_NOTE });
    return [
      { text: i === doc.lines.length - 1 ? marked(String(line.position), 'lastRow') : String(line.position) },
      { stack: product },
      { text: f.quantity(parseScaled(line.quantity, 3)), alignment: 'right' },
      { text: t(line.unitName) },
      { text: money(line.unitPrice), alignment: 'right' },
      { text: f.percent(basisPoints(line.taxRate)), alignment: 'right' },
      { text: money(line.amount), alignment: 'right' },
    ];
  });
  // Keep a line's name, SKU and note together on one page, unless some line could be taller
  // than a page: pdfmake silently DROPS an unbreakable row that fits on no page, so then rows may split.
  const dontBreakRows = doc.lines.every(lineFitsOnAPage);
  const tableLayout = {
    hLineWidth: (i: number, node: ContentTable) => (i === 0 || i === 1 || i === node.table.body.length ? 0.8 : 0.25),
    vLineWidth: () => 0,
    hLineColor: (i: number) => (i <= 1 ? '#000000' : RULE),
    paddingLeft: (i: number) => (i === 0 ? 3 : 6),
    paddingRight: () => 3,
    paddingTop: () => 2.5,
    paddingBottom: () => 2.5,
    fillColor: (rowIndex: number) => (rowIndex === 0 ? '#eeeeee' : null),
  };
  const table = (part: TableCell[][], widths?: number[]): ContentTable => ({
    table: {
      headerRows: 1,
      dontBreakRows,
      widths: widths ? [...widths] : ['auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto'],
      body: [headerRow(), ...part],
    },
    layout: tableLayout,
    margin: [0, 0, 0, 8],
  });
  return { rows, table };
}

/** Net total, tax per rate (an exempt supply by its amount only), total tax and the total. */
function totalsTable(doc: PrintDocument, { tr, f, money }: Speech): TableCell[][] {
  const totalsBody: TableCell[][] = [
    [
      { text: marked(tr('print.netTotal'), 'closing'), ...LABEL },
      { text: money(doc.totals.net), alignment: 'right' },
    ],
  ];
  for (const row of doc.totals.taxes) {
    if (basisPoints(row.rate) === 0) {
      // An exempt supply shows no rate and no tax, only its amount (čl. 79 st. 3 Zakon o PDV-u).
      totalsBody.push([{ text: tr('print.exemptAmount', { amount: money(row.base) }), ...LABEL }, { text: '' }]);
      continue;
    }
    const rate = f.percent(basisPoints(row.rate));
    const label = doc.pricesIncludeTax
      ? tr('print.taxIncludedIn', { rate, gross: f.money(cents(row.base) + cents(row.tax)) })
      : tr('print.taxOnBase', { rate, base: money(row.base) });
    totalsBody.push([
      { text: label, ...LABEL },
      { text: money(row.tax), alignment: 'right' },
    ]);
  }
  totalsBody.push([
    { text: tr('print.totalTax'), ...LABEL },
    { text: money(doc.totals.tax), alignment: 'right' },
  ]);
  totalsBody.push([
    { text: tr('print.total', { currency: doc.currency }), bold: true, fontSize: 11 },
    { text: money(doc.totals.withTax), bold: true, fontSize: 11, alignment: 'right' },
  ]);
  return totalsBody;
}

/** What is never alone on a page: the totals, notices, settlement, fiscal codes and payment. */
function closingBlock(doc: PrintDocument, options: PrintOptions, say: Speech): Content[] {
  const { tr, f, money } = say;
  const closing: Content[] = [];
  closing.push({
    columns: [
      {
        width: '*',
        text: tr(doc.pricesIncludeTax ? 'print.pricesIncludeTax' : 'print.pricesExcludeTax'),
        color: GREY,
        fontSize: 8,
      },
      {
        width: 'auto',
        table: { widths: ['auto', 'auto'], body: totalsTable(doc, say) },
        layout: {
          hLineWidth: (i, node) => (i === node.table.body.length - 1 ? 0.8 : 0),
          vLineWidth: () => 0,
          paddingTop: () => 1.5,
          paddingBottom: () => 1.5,
        },
      },
    ],
    margin: [0, 0, 0, 12],
  });
  for (const notice of doc.notices ?? []) closing.push({ text: t(notice), margin: [0, 0, 0, 6] });
  const settled = settlementBlock(doc, tr, f, money);
  if (settled) closing.push(settled);
  const fiscal = fiscalBlock(doc, tr, options.codeImages ?? {});
  if (fiscal) closing.push(fiscal);
  // Payment instructions belong to a document with something to pay.
  if (doc.template.paymentInstructions && (doc.settlement === undefined || doc.settlement?.state === 'due')) {
    closing.push({
      stack: [{ text: tr('print.payment.instructions'), ...LABEL }, { text: t(doc.template.paymentInstructions) }],
      margin: [0, 0, 0, 10],
    });
  }
  const payment = paymentBlock(doc, tr, money, options.codeImages ?? {});
  if (payment) closing.push(payment);
  return closing;
}

/** The A4 page around the content: margins, the PDF's info, images, and the page footer. */
function pageDefinition(
  doc: PrintDocument,
  options: PrintOptions,
  tr: Translate,
  { title, issuedAt, content }: { title: string; issuedAt: Date; content: Content[] },
): TDocumentDefinitions {
  const images: Record<string, Buffer> = {};
  for (const [kind, image] of Object.entries(options.codeImages ?? {})) {
    if (image) images[kind] = Buffer.from(image.png.buffer, image.png.byteOffset, image.png.byteLength);
  }
  if (doc.logo) images.logo = Buffer.from(doc.logo.png.buffer, doc.logo.png.byteOffset, doc.logo.png.byteLength);
  const extraPages = options.extraPages ?? 0;
  const definition: TDocumentDefinitions = {
    pageSize: 'A4',
    pageMargins: [40, 36, 40, 44],
    language: doc.locale,
    displayTitle: true,
    info: {
      title,
      author: plain(doc.company.name),
      subject: `${title} · ${plain(doc.customer.name)}`,
      creator: 'Portico',
      producer: 'Portico (pdfmake)',
      creationDate: issuedAt,
      modDate: issuedAt,
    },
    defaultStyle: { font: FONT_FAMILY, fontSize: 9, lineHeight: 1.1 },
    content,
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: title, color: GREY },
        {
          text: tr('print.page', { page: currentPage, pages: pageCount + extraPages }),
          alignment: 'right',
          color: GREY,
        },
      ],
      fontSize: 8,
      margin: [40, 14, 40, 0],
    }),
  };
  if (Object.keys(images).length > 0) definition.images = images as unknown as TDocumentDefinitions['images'];
  return definition;
}

/** The codes a banking app scans, beside what a person types instead: recipient, IBAN, amount, reference. */
function paymentBlock(
  doc: PrintDocument,
  tr: Translate,
  money: (value: string) => string,
  images: CodeImages,
): Content | null {
  const payment = doc.payment;
  if (!payment) return null;
  const details: Content[] = [
    { text: tr('print.payment.scanToPay'), bold: true, margin: [0, 0, 0, 3] },
    { text: t(`${tr('print.payment.recipient')}: ${payment.holder}`) },
    { text: `${tr('print.payment.iban')}: ${formatIban(payment.iban)}` },
  ];
  if (payment.bic) details.push({ text: `${tr('print.payment.bic')}: ${payment.bic}` });
  details.push({
    text: `${tr('print.payment.amount')}: ${money(doc.settlement ? doc.settlement.balance : doc.totals.withTax)}`,
  });
  details.push({
    text: t(
      payment.reference.model
        ? tr('print.payment.referenceWithModel', { model: payment.reference.model, reference: payment.reference.value })
        : `${tr('print.payment.reference')}: ${payment.reference.value}`,
    ),
  });
  const columns: Content[] = [];
  for (const code of payment.codes) {
    const image = images[code.kind];
    if (!image) continue;
    if (code.kind === 'epc_qr') {
      columns.push({ image: code.kind, width: EPC_QR_SIDE_PT, height: EPC_QR_SIDE_PT * (image.height / image.width) });
    } else {
      const scale = Math.min(HUB3_MODULE_PT, HUB3_MAX_HEIGHT_PT / image.height);
      columns.push({ image: code.kind, width: image.width * scale, height: image.height * scale });
    }
  }
  columns.push({ width: '*', stack: details } as Content);
  return { columns, columnGap: 12, margin: [0, 0, 0, 10] } as Content;
}

/** Payments received, what they add up to and what is left (or that nothing is). */
function settlementBlock(
  doc: PrintDocument,
  tr: Translate,
  f: Formatter,
  money: (value: string) => string,
): Content | null {
  const s = doc.settlement;
  if (!s) return null;
  const body: TableCell[][] = [];
  if (s.credited)
    body.push([
      { text: tr('print.credited'), colSpan: 2, ...LABEL },
      '',
      { text: money(s.credited), alignment: 'right' },
    ]);
  body.push(
    ...s.payments.map((p): TableCell[] => [
      { text: f.date(parseDate(p.at, 'settlement.payments.at')), ...LABEL },
      { text: t(p.method), ...LABEL },
      { text: money(p.amount), alignment: 'right' },
    ]),
  );
  if (s.payments.length > 0)
    body.push([
      { text: tr('print.paymentsReceived'), colSpan: 2, ...LABEL },
      '',
      { text: money(s.paid), alignment: 'right' },
    ]);
  const last =
    s.state === 'paid'
      ? [{ text: tr('print.paidInFull'), colSpan: 3, bold: true }, '', '']
      : [
          { text: tr(s.state === 'refund' ? 'print.toRefund' : 'print.balanceDue'), colSpan: 2, bold: true },
          '',
          {
            text: money(s.state === 'refund' ? s.balance.replace(/^-/, '') : s.balance),
            bold: true,
            alignment: 'right',
          },
        ];
  body.push(last as TableCell[]);
  if (s.tendered !== undefined && s.change !== undefined)
    body.push(
      [{ text: tr('print.tendered'), colSpan: 2, ...LABEL }, '', { text: money(s.tendered), alignment: 'right' }],
      [{ text: tr('print.change'), colSpan: 2, ...LABEL }, '', { text: money(s.change), alignment: 'right' }],
    );
  return {
    columns: [
      { width: '*', text: '' },
      {
        width: 'auto',
        table: { widths: ['auto', 'auto', 'auto'], body },
        layout: { hLineWidth: () => 0, vLineWidth: () => 0, paddingTop: () => 1.5, paddingBottom: () => 1.5 },
      },
    ],
    margin: [0, 0, 0, 10],
  };
}

/** ZKI and JIR as labelled text, and the verification QR code beside them. */
function fiscalBlock(doc: PrintDocument, tr: Translate, images: CodeImages): Content | null {
  const fiscal = doc.fiscal;
  if (!fiscal || (fiscal.lines.length === 0 && !fiscal.verifyUrl)) return null;
  const columns: Content[] = [];
  const image = images.fiscal_qr;
  if (fiscal.verifyUrl && image)
    columns.push({
      image: 'fiscal_qr',
      width: fiscalQrSide(FISCAL_QR_SIDE_PT, fiscal.verifyUrl),
      height: fiscalQrSide(FISCAL_QR_SIDE_PT, fiscal.verifyUrl) * (image.height / image.width),
    });
  columns.push({
    width: '*',
    stack: [
      // Said in words: beside the payment codes, two QR codes would otherwise look alike.
      ...(fiscal.verifyUrl && image
        ? [{ text: tr(fiscal.heading ?? 'print.fiscal.verify'), bold: true, margin: [0, 0, 0, 2] }]
        : []),
      ...fiscal.lines.map((line) => ({ text: t(`${tr(line.label)}: ${line.value}`) })),
    ],
  } as Content);
  return { columns, columnGap: 12, margin: [0, 0, 0, 10] } as Content;
}

/** Lays out once; if the closing block would open a page of its own, lays out again with the last lines moved to it. */
function keepClosingWithLastLines(doc: PrintDocument, options: PrintOptions, first: Built): Relayout {
  return (pages) => {
    const lastPage = pageWith(pages, 'lastRow');
    const closingPage = pageWith(pages, 'closing');
    if (lastPage === null || closingPage === null || closingPage === lastPage) return null;
    const widths = (first.lineTable.table.widths as unknown as Array<{ _calcWidth?: number }>).map((w) => w._calcWidth);
    if (widths.some((w) => typeof w !== 'number')) throw new Error('the line table was not measured');
    return build(doc, options, { rows: 2, widths: widths as number[] }).definition;
  };
}

/**
 * The page a marked word was laid out on. pdfmake copies a text part's own properties onto its
 * words, and the words onto the laid-out lines; the positions it records on nodes are not
 * updated when an unbreakable block moves to the next page, so they cannot tell.
 */
function pageWith(pages: readonly LaidOutPage[], mark: Mark): number | null {
  for (let i = 0; i < pages.length; i++) {
    for (const { type, item } of pages[i]!.items) {
      if (
        type === 'line' &&
        (item as { inlines: Array<{ [MARK]?: Mark }> }).inlines.some((inline) => inline[MARK] === mark)
      )
        return i + 1;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------

/** Renders a sales document's own pages to PDF bytes. Same input → same bytes. */
export async function renderDocumentPdf(doc: PrintDocument, options: PrintOptions = {}): Promise<Buffer> {
  if (doc.layout === 'receipt') return printPdf(buildReceipt(doc, options));
  const first = build(doc, options);
  return printPdf(first.definition, keepClosingWithLastLines(doc, options, first));
}
