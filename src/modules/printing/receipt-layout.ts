import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import { fiscalQrSide } from './fiscal-qr-side.ts';
import { createFormatter, resolveLanguage, translator } from '../i18n/index.ts';
import type { PrintDocument } from './print-document.ts';
import { PRINT_FONT_FAMILY } from './pdf-writer.ts';
import { parseScaled } from '../../lib/money.ts';
import { basisPoints, cents, discountText, parseDate, plain, t } from './print-text.ts';
import { logoBox } from './logo-box.ts';

/**
 * The receipt layout: the same PrintDocument as the A4 print, on an 80 mm roll cut where the
 * content ends (a receipt printer's paper). Nothing the A4 invoice states is left out (the law
 * asks the same of a receipt: seller and ids, number, date and time, operator, payment method,
 * lines with quantity, price and tax rate, the tax per rate, the total, the fiscal codes ZKI
 * and JIR and the verification QR code): it is one column instead of a table.
 */

/** 80 mm paper; thermal heads print about 72 mm of it, so 4 mm margins each side. */
const ROLL_WIDTH_PT = (80 / 25.4) * 72;
const SIDE_MARGIN_PT = (4 / 25.4) * 72;
/** The fiscal verification QR: at least 2 × 2 cm with its quiet zone. */
const FISCAL_QR_SIDE_PT = 72;
const GREY = '#333333';
const SMALL = { fontSize: 7 } as const;

export function buildReceipt(
  doc: PrintDocument,
  options: { codeImages?: { fiscal_qr?: { png: Uint8Array; width: number; height: number } } } = {},
): TDocumentDefinitions {
  const tr = translator(resolveLanguage(doc.locale));
  const f = createFormatter(doc.locale, { currency: doc.currency, timeZone: doc.timezone });
  const money = (value: string): string => f.money(cents(value));
  const issuedAt = parseDate(doc.issuedAt, 'issuedAt');
  const title = tr('document.titleWithNumber', { title: tr(doc.title), number: plain(doc.number) });
  // A fresh node each time: pdfmake writes positions into the definition as it lays it out.
  const rule = (): Content => ({
    canvas: [
      { type: 'line', x1: 0, y1: 0, x2: ROLL_WIDTH_PT - 2 * SIDE_MARGIN_PT, y2: 0, lineWidth: 0.5, lineColor: GREY },
    ],
    margin: [0, 4, 0, 4],
  });
  const pair = (label: string, value: string, bold = false): Content => ({
    columns: [
      { width: '*', text: t(label), bold },
      { width: 'auto', text: value, alignment: 'right', bold },
    ],
    columnGap: 6,
  });

  const content: Content[] = [{ text: t(doc.company.name), bold: true, fontSize: 10, alignment: 'center' }];
  if (doc.logo)
    content.unshift({ image: 'logo', ...logoBox(doc.logo, 120, 40), alignment: 'center', margin: [0, 0, 0, 4] });
  if (doc.company.address) content.push({ text: t(doc.company.address), alignment: 'center' });
  for (const id of doc.sellerIds ?? []) content.push({ text: t(`${tr(id.label)}: ${id.value}`), alignment: 'center' });
  if (!doc.sellerIds && doc.company.taxId)
    content.push({ text: t(`${tr('print.taxId')}: ${doc.company.taxId}`), alignment: 'center' });
  content.push({
    text: t(`${doc.location.name} (${doc.location.code})${doc.location.address ? `, ${doc.location.address}` : ''}`),
    alignment: 'center',
    color: GREY,
  });
  if (doc.template.header) content.push({ text: t(doc.template.header), alignment: 'center', color: GREY, ...SMALL });
  content.push(rule(), { text: title, bold: true, fontSize: 10 });
  for (const line of doc.corrects ?? []) content.push({ text: t(line), bold: true });
  if (doc.issuedLabel) content.push(pair(tr(doc.issuedLabel), f.dateTime(issuedAt)));
  for (const date of doc.dates) content.push(pair(tr(date.label), f.date(parseDate(date.at, 'dates.at'))));
  for (const fact of doc.facts ?? []) content.push(pair(tr(fact.label), plain(fact.value)));
  if (doc.customer.name)
    content.push({
      text: [
        { text: `${tr('print.customer')}: `, color: GREY },
        { text: plain(doc.customer.name), bold: true },
      ],
    });
  if (doc.customer.address) content.push({ text: t(doc.customer.address) });
  for (const id of doc.customer.ids ?? []) content.push({ text: t(`${tr(id.label)}: ${id.value}`) });
  if (doc.note) content.push({ text: t(doc.note), italics: true });
  content.push(rule());

  // Lines: the name, then quantity × unit price, tax rate and amount on one line beneath it.
  for (const line of doc.lines) {
    content.push({ text: t(line.productName), bold: true });
    if (line.productCode) content.push({ text: t(line.productCode), color: GREY, ...SMALL });
    if (line.note) content.push({ text: t(line.note), italics: true, color: GREY, ...SMALL });
    if (line.discount)
      content.push({
        text: discountText(line, tr, f),
        color: GREY,
        ...SMALL,
      });
    content.push({
      columns: [
        {
          width: '*',
          text: `${f.quantity(parseScaled(line.quantity, 3))} ${plain(line.unitName)} × ${money(line.unitPrice)}`,
        },
        { width: 'auto', text: f.percent(basisPoints(line.taxRate)), color: GREY },
        { width: 'auto', text: money(line.amount), alignment: 'right' },
      ],
      columnGap: 6,
      margin: [0, 0, 0, 3],
    });
  }
  content.push(rule());

  content.push(pair(tr('print.netTotal'), money(doc.totals.net)));
  for (const row of doc.totals.taxes) {
    const rate = f.percent(basisPoints(row.rate));
    const label = doc.pricesIncludeTax
      ? tr('print.taxIncludedIn', { rate, gross: f.money(cents(row.base) + cents(row.tax)) })
      : tr('print.taxOnBase', { rate, base: money(row.base) });
    content.push(pair(label, money(row.tax)));
  }
  content.push(pair(tr('print.totalTax'), money(doc.totals.tax)));
  content.push({
    ...(pair(tr('print.total', { currency: doc.currency }), money(doc.totals.withTax), true) as object),
    fontSize: 11,
    margin: [0, 3, 0, 0],
  } as Content);
  content.push({
    text: tr(doc.pricesIncludeTax ? 'print.pricesIncludeTax' : 'print.pricesExcludeTax'),
    color: GREY,
    ...SMALL,
  });
  for (const notice of doc.notices ?? []) content.push({ text: t(notice), ...SMALL });

  const s = doc.settlement;
  if (s) {
    content.push(rule());
    for (const p of s.payments)
      content.push(pair(`${plain(p.method)} · ${f.date(parseDate(p.at, 'payments.at'))}`, money(p.amount)));
    if (s.tendered !== undefined && s.change !== undefined) {
      content.push(pair(tr('print.tendered'), money(s.tendered)));
      content.push(pair(tr('print.change'), money(s.change), true));
    }
    content.push(
      s.state === 'paid'
        ? { text: tr('print.paidInFull'), bold: true, margin: [0, 2, 0, 0] }
        : pair(
            tr(s.state === 'refund' ? 'print.toRefund' : 'print.balanceDue'),
            money(s.balance.replace(/^-/, '')),
            true,
          ),
    );
  }

  const fiscal = doc.fiscal;
  if (fiscal && (fiscal.lines.length > 0 || fiscal.verifyUrl)) {
    content.push(rule());
    for (const line of fiscal.lines) content.push({ text: t(`${tr(line.label)}: ${line.value}`), ...SMALL });
    const image = options.codeImages?.fiscal_qr;
    if (fiscal.verifyUrl && image)
      content.push({
        image: 'fiscal_qr',
        width: fiscalQrSide(FISCAL_QR_SIDE_PT, fiscal.verifyUrl),
        height: fiscalQrSide(FISCAL_QR_SIDE_PT, fiscal.verifyUrl) * (image.height / image.width),
        alignment: 'center',
        margin: [0, 4, 0, 0],
      });
  }
  if (doc.template.footer)
    content.push(rule(), { text: t(doc.template.footer), alignment: 'center', color: GREY, ...SMALL });

  const images: Record<string, Buffer> = {};
  const qr = options.codeImages?.fiscal_qr;
  if (qr) images.fiscal_qr = Buffer.from(qr.png.buffer, qr.png.byteOffset, qr.png.byteLength);
  if (doc.logo) images.logo = Buffer.from(doc.logo.png.buffer, doc.logo.png.byteOffset, doc.logo.png.byteLength);
  const definition: TDocumentDefinitions = {
    pageSize: { width: ROLL_WIDTH_PT, height: 'auto' },
    pageMargins: [SIDE_MARGIN_PT, 12, SIDE_MARGIN_PT, 16],
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
    defaultStyle: { font: PRINT_FONT_FAMILY, fontSize: 8, lineHeight: 1.1 },
    content,
  };
  if (Object.keys(images).length > 0) definition.images = images as unknown as TDocumentDefinitions['images'];
  return definition;
}
