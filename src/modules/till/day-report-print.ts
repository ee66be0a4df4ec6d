import { formatMoney, formatScaledTrimmed, MONEY_SCALE, parseScaled, RATE_SCALE } from '../../lib/money.ts';
import type { Company, LocationRow } from '../companies/index.ts';
import { printedContent } from '../documents/index.ts';
import { createFormatter, resolveLanguage, translator } from '../i18n/index.ts';
import type { PrintDocument, PrintFact } from '../printing/index.ts';
import type { DayReport } from './day-report.ts';

const cents = (text: string) => Number(parseScaled(text, MONEY_SCALE));

/**
 * The day report as the one printer's document, on A4 or the 80 mm roll like a receipt: the
 * turnover per tax rate as its lines and tax summary (the sums of the day's documents' lines per
 * rate), the cash reckoning and the documents as its facts, the movements and the count by
 * denomination as its notices. No customer: the report is the shop's own paper.
 */
export function toDayReportPrint(report: DayReport, company: Company, location: LocationRow): PrintDocument {
  const tr = translator(resolveLanguage(company.locale));
  const f = createFormatter(company.locale, {
    currency: report.currency,
    timeZone: company.timezone,
    dates: 'numeric',
  });
  const money = (text: string) => f.money(cents(text));
  const number = `${location.code} ${report.date}`;
  const totalMinor = report.byRate.reduce((s, r) => s + cents(r.total), 0);
  const content = printedContent(
    {
      title: 'document.dayReport',
      number,
      currency: report.currency,
      pricesIncludeTax: true,
      totalMinor,
      dueDate: report.date,
      customerName: '',
    },
    [],
    company,
    location,
  );
  const net = report.byRate.reduce((s, r) => s + cents(r.net), 0);
  const tax = report.byRate.reduce((s, r) => s + cents(r.tax), 0);
  const rate = (r: string) => formatScaledTrimmed(parseScaled(r, RATE_SCALE), RATE_SCALE);
  const facts: PrintFact[] = [
    // Opening, then closing, both in the report's numeric style (the issue date's row would
    // print the closing first, and on the roll in the receipt's "28. stu 2026." style).
    { label: 'print.day.device', value: `${report.premises} / ${report.device}` },
    { label: 'print.day.openedAt', value: f.dateTime(new Date(report.openedAt)) },
    ...(report.closedAt
      ? [{ label: 'print.day.closedAt' as const, value: f.dateTime(new Date(report.closedAt)) }]
      : []),
    { label: 'print.day.float', value: money(report.float) },
    { label: 'print.day.cashIn', value: money(report.cashIn) },
    { label: 'print.day.cashOut', value: money(report.cashOut) },
    { label: 'print.day.cashSales', value: money(report.cashSales) },
    { label: 'print.day.cashRefunds', value: money(report.cashRefunds) },
    { label: 'print.day.expected', value: money(report.expected) },
    ...(report.counted === null
      ? []
      : [
          { label: 'print.day.counted' as const, value: money(report.counted) },
          { label: 'print.day.difference' as const, value: money(report.difference!) },
        ]),
    ...report.byMethod.map((m) => ({
      label: `print.day.method.${m.method}` as 'print.day.method.cash',
      value: `${money(m.sales)} / ${money(m.refunds)}`,
    })),
    {
      label: 'print.day.documents',
      value: report.documents.first
        ? `${report.documents.first} – ${report.documents.last} (${report.documents.count})`
        : '0',
    },
    { label: 'print.day.invoices', value: `${report.invoices.count} · ${money(report.invoices.total)}` },
    {
      label: 'print.day.cancellations',
      value: `${report.cancellations.count} · ${money(report.cancellations.total)}`,
    },
    { label: 'print.day.creditNotes', value: `${report.creditNotes.count} · ${money(report.creditNotes.total)}` },
  ];
  const notices = [
    ...(report.closedAt ? [] : [tr('print.day.open')]),
    ...report.movements.map((m) =>
      tr(m.kind === 'in' ? 'print.day.movement.in' : 'print.day.movement.out', {
        amount: money(m.amount),
        reason: m.reason,
      }),
    ),
    ...(report.denominations ?? []).map((d) =>
      tr('print.day.denomination', { count: d.count, value: money(d.value), amount: money(d.amount) }),
    ),
  ];
  return {
    ...content,
    payment: null,
    template: { ...content.template, paymentInstructions: null },
    lines: report.byRate.map((r, i) => ({
      position: i + 1,
      productName: tr('print.day.turnoverAt', { rate: rate(r.rate) }),
      productCode: null,
      note: null,
      quantity: '1',
      unitName: '',
      unitPrice: r.total,
      taxRate: rate(r.rate),
      amount: r.total,
    })),
    totals: {
      net: formatMoney(net),
      tax: formatMoney(tax),
      withTax: formatMoney(totalMinor),
      taxes: report.byRate.map((r) => ({ rate: rate(r.rate), base: r.net, tax: r.tax })),
    },
    title: 'document.dayReport',
    number,
    issuedAt: report.closedAt ?? report.openedAt,
    issuedLabel: null,
    dates: [],
    customer: { name: '', email: null, phone: null },
    note: null,
    facts,
    notices,
    settlement: null,
    fiscal: null,
  };
}
