/**
 * Quotation PDF layout, like the point-of-sale print (pdfmake 0.3 + pdfkit, no browser).
 *
 * - Deterministic: the same QuotationDocument renders to the same bytes. CreationDate/ModDate
 *   come from `issuedAt` (pdfkit would otherwise use `new Date()`), and pdfkit derives the
 *   trailer /ID as md5 over the info dictionary, so it is deterministic too. Font subset tags
 *   derive from the font ids (F1, F2, ...), and zlib output is deterministic for equal input.
 * - Rendering is synchronous CPU work (~3 ms for 10 lines, ~25 ms for 200 once warm), so the
 *   server runs it on the print pool's threads (print-pool.ts). How a definition becomes bytes
 *   (pdfmake layout, our content streams and font subsets, pdfkit) is in quotation-printer.ts.
 */
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { QuotationDocument } from './quotation-document.ts';
import { printPdf, QUOTATION_FONT_FAMILY } from './quotation-printer.ts';

export { QUOTATION_FONT_FAMILY } from './quotation-printer.ts';

const FONT_FAMILY = QUOTATION_FONT_FAMILY;

// ---------------------------------------------------------------------------
// Formatting (Intl objects are cached: constructing them is the slow part).

interface Formatters {
  money: Intl.NumberFormat;
  unitPrice: Intl.NumberFormat;
  quantity: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  dateTime: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
}

const formatterCache = new Map<string, Formatters>();

function getFormatters(locale: string, currency: string, timeZone: string): Formatters {
  const key = `${locale}\u0000${currency}\u0000${timeZone}`;
  let formatters = formatterCache.get(key);
  if (formatters === undefined) {
    const money = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const minDigits = money.resolvedOptions().minimumFractionDigits ?? 2;
    formatters = {
      money,
      unitPrice: new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: minDigits,
        maximumFractionDigits: Math.max(minDigits, 4),
      }),
      quantity: new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }),
      percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 3 }),
      dateTime: new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }),
      date: new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium' }),
    };
    if (formatterCache.size > 256) formatterCache.clear();
    formatterCache.set(key, formatters);
  }
  return formatters;
}

type DecimalString = `${number}`;

/** Formats a decimal string exactly (Intl accepts decimal strings without going through a double). */
function decimal(format: Intl.NumberFormat, value: string): string {
  const trimmed = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) throw new RangeError(`not a decimal number: ${JSON.stringify(value)}`);
  return format.format(trimmed as DecimalString);
}

function percent(format: Intl.NumberFormat, rate: string): string {
  const n = Number(rate);
  if (!Number.isFinite(n)) throw new RangeError(`not a tax rate: ${JSON.stringify(rate)}`);
  return format.format(n / 100);
}

function parseDate(iso: string, field: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`${field} is not a valid ISO 8601 date: ${JSON.stringify(iso)}`);
  return date;
}

// ---------------------------------------------------------------------------
// User text

const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONG_TOKEN_CHARS = 28;
const LONG_TOKEN = new RegExp(`\\S{${LONG_TOKEN_CHARS},}`, 'g');

type TextValue = string | Array<string | { text: string; wordBreak: 'break-all' }>;

/**
 * Prepares user-supplied text for pdfmake: CR/LF normalised, tabs to spaces,
 * other control characters removed; and tokens of 28+ non-space characters
 * (long SKUs, URLs, pasted garbage) may break anywhere, since pdfmake
 * otherwise never breaks inside a word and one such token would stretch the
 * table past the page edge. Characters DejaVu Sans lacks (CJK, emoji) print
 * as empty boxes.
 */
function t(value: string): TextValue {
  let text = value;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) {
    text = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROL_CHARS, '');
  }
  if (text.length < LONG_TOKEN_CHARS || !LONG_TOKEN.test(text)) return text;
  LONG_TOKEN.lastIndex = 0;
  const parts: Array<string | { text: string; wordBreak: 'break-all' }> = [];
  let last = 0;
  for (const match of text.matchAll(LONG_TOKEN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ text: match[0], wordBreak: 'break-all' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/**
 * Conservative bound for "this table row is shorter than a page": the
 * product column is at least ~250 pt wide (≈ 55 characters of 7.5 pt text per
 * line) and an A4 page holds ~75 such lines; we allow 1,500 characters and
 * 30 explicit line breaks.
 */
function lineFitsOnAPage(line: QuotationDocument['lines'][number]): boolean {
  const text = `${line.productName}\n${line.productCode ?? ''}\n${line.note ?? ''}`;
  if (text.length > 1500) return false;
  let newlines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
  return newlines <= 32;
}

/** Plain-string variant for metadata (no inline splitting). */
function plain(value: string): string {
  return value.replace(/\r\n?/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
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

/**
 * The pdfmake document definition for a quotation (fonts referenced by the
 * private family name "PorticoDejaVuSans"). Exported for tests, which render
 * it through pdfmake's public API to check that our printer produces the same
 * pages, text and font subsets. Builds fresh objects on every call (pdfmake
 * mutates the definition while laying it out).
 */
export function buildQuotationDocDefinition(doc: QuotationDocument): TDocumentDefinitions {
  const f = getFormatters(doc.locale, doc.currency, doc.timezone);
  const issuedAt = parseDate(doc.issuedAt, 'issuedAt');
  const expiresAt = doc.expiresAt === null ? null : parseDate(doc.expiresAt, 'expiresAt');
  const title = `${doc.kind === 'sale' ? 'Sale' : 'Quotation'} ${plain(doc.number)}`;
  const sourceLine = doc.source ? `From ${doc.source.kind === 'order' ? 'web order' : 'quotation'} ${plain(doc.source.number)}` : null;

  // Company header ----------------------------------------------------------
  const companyStack: Content[] = [{ text: t(doc.company.name), ...COMPANY }];
  if (doc.company.address) companyStack.push({ text: t(doc.company.address) });
  if (doc.company.taxId) companyStack.push({ text: t(`Tax ID: ${doc.company.taxId}`) });
  const header: Content = {
    columns: [
      { width: '*', stack: companyStack },
      doc.template.header
        ? { width: '45%', text: t(doc.template.header), alignment: 'right', color: GREY }
        : { width: '45%', text: '' },
    ],
    columnGap: 16,
  };

  // Meta (dates, location) and customer ------------------------------------
  const locationText = `${doc.location.name} (${doc.location.code})`;
  const metaBody: TableCell[][] = [
    [{ text: 'Issued', ...LABEL }, f.dateTime.format(issuedAt)],
    ...(expiresAt ? [[{ text: 'Valid until', ...LABEL }, f.date.format(expiresAt)]] : []),
    [{ text: 'Location', ...LABEL }, { text: t(doc.location.address ? `${locationText}\n${doc.location.address}` : locationText) }],
  ];
  const customerStack: Content[] = [
    { text: 'Customer', ...LABEL },
    { text: t(doc.customer.name), bold: true },
  ];
  if (doc.customer.email) customerStack.push({ text: t(doc.customer.email) });
  if (doc.customer.phone) customerStack.push({ text: t(doc.customer.phone) });

  const metaBlock: Content = {
    columns: [
      { width: '*', table: { widths: ['auto', '*'], body: metaBody }, layout: 'noBorders' },
      { width: '*', stack: customerStack },
    ],
    columnGap: 16,
    margin: [0, 0, 0, 10],
  };

  // Line table ---------------------------------------------------------------
  const tableBody: TableCell[][] = [
    [
      { text: '#', ...TH },
      { text: 'Product', ...TH },
      { text: 'Quantity', ...TH, alignment: 'right' },
      { text: 'Unit', ...TH },
      { text: 'Unit price', ...TH, alignment: 'right' },
      { text: 'Tax %', ...TH, alignment: 'right' },
      { text: 'Amount', ...TH, alignment: 'right' },
    ],
  ];
  for (const line of doc.lines) {
    const product: Content[] = [{ text: t(line.productName) }];
    if (line.productCode) product.push({ text: t(line.productCode), ...CODE });
    if (line.note) product.push({ text: t(line.note), ...LINE_NOTE });
    tableBody.push([
      { text: String(line.position) },
      { stack: product },
      { text: decimal(f.quantity, line.quantity), alignment: 'right' },
      { text: t(line.unitName) },
      { text: decimal(f.unitPrice, line.unitPrice), alignment: 'right' },
      { text: percent(f.percent, line.taxRate), alignment: 'right' },
      { text: decimal(f.money, line.amount), alignment: 'right' },
    ]);
  }
  const lineTable: Content = {
    table: {
      headerRows: 1,
      // Keep a line's name, SKU and note together on one page, unless some
      // line could be taller than a page: pdfmake silently DROPS an
      // unbreakable row that fits on no page, so then rows may split.
      dontBreakRows: doc.lines.every(lineFitsOnAPage),
      widths: ['auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto'],
      body: tableBody,
    },
    layout: {
      hLineWidth: (i, node) => (i === 0 || i === 1 || i === node.table.body.length ? 0.8 : 0.25),
      vLineWidth: () => 0,
      hLineColor: (i) => (i <= 1 ? '#000000' : RULE),
      paddingLeft: (i) => (i === 0 ? 3 : 6),
      paddingRight: () => 3,
      paddingTop: () => 2.5,
      paddingBottom: () => 2.5,
      fillColor: (rowIndex) => (rowIndex === 0 ? '#eeeeee' : null),
    },
    margin: [0, 0, 0, 8],
  };

  // Totals -------------------------------------------------------------------
  const money = (value: string): string => decimal(f.money, value);
  const totalsBody: TableCell[][] = [[{ text: 'Net', ...LABEL }, { text: money(doc.totals.net), alignment: 'right' }]];
  for (const t of doc.totals.taxes) {
    totalsBody.push([
      { text: `Tax ${percent(f.percent, t.rate)} on ${money(t.base)}`, ...LABEL },
      { text: money(t.tax), alignment: 'right' },
    ]);
  }
  totalsBody.push([{ text: 'Total tax', ...LABEL }, { text: money(doc.totals.tax), alignment: 'right' }]);
  totalsBody.push([
    { text: `Total (${doc.currency})`, bold: true, fontSize: 11 },
    { text: money(doc.totals.withTax), bold: true, fontSize: 11, alignment: 'right' },
  ]);
  const totalsBlock: Content = {
    columns: [
      {
        width: '*',
        text: doc.pricesIncludeTax ? 'Prices include tax.' : 'Prices exclude tax.',
        color: GREY,
        fontSize: 8,
      },
      {
        width: 'auto',
        table: { widths: ['auto', 'auto'], body: totalsBody },
        layout: {
          hLineWidth: (i, node) => (i === node.table.body.length - 1 ? 0.8 : 0),
          vLineWidth: () => 0,
          paddingTop: () => 1.5,
          paddingBottom: () => 1.5,
        },
      },
    ],
    unbreakable: true,
    margin: [0, 0, 0, 12],
  };

  // Assemble -----------------------------------------------------------------
  const content: Content[] = [
    header,
    { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.8 }], margin: [0, 6, 0, 8] },
    { text: title, ...TITLE, margin: [0, 0, 0, sourceLine ? 2 : 8] },
    ...(sourceLine ? [{ text: t(sourceLine), color: GREY, margin: [0, 0, 0, 8] } as Content] : []),
    metaBlock,
  ];
  if (doc.note) content.push({ text: t(doc.note), margin: [0, 0, 0, 10] });
  content.push(lineTable, totalsBlock);
  if (doc.template.paymentInstructions) {
    content.push({
      stack: [{ text: 'Payment instructions', ...LABEL }, { text: t(doc.template.paymentInstructions) }],
      margin: [0, 0, 0, 10],
    });
  }
  if (doc.template.footer) content.push({ text: t(doc.template.footer), color: GREY, fontSize: 8 });

  return {
    pageSize: 'A4',
    pageMargins: [40, 36, 40, 44],
    language: doc.locale,
    displayTitle: true,
    info: {
      title,
      author: plain(doc.company.name),
      subject: `${title} for ${plain(doc.customer.name)}`,
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
        { text: `Page ${currentPage} of ${pageCount}`, alignment: 'right', color: GREY },
      ],
      fontSize: 8,
      margin: [40, 14, 40, 0],
    }),
  };
}

// ---------------------------------------------------------------------------

/** Renders a quotation to PDF bytes. Same input → same bytes. */
export async function renderQuotationPdf(doc: QuotationDocument): Promise<Buffer> {
  return printPdf(buildQuotationDocDefinition(doc));
}
