import { reportLabel, type ReportLabel } from './report-labels.ts';
import type { BookEntry, PaymentsReport, ReceivablesReport, SalesReport, VatReport } from './report-shapes.ts';
import type { Cell, Column, ColumnType, ExportLocale, Table } from './table.ts';

/** Each report as the flat table its CSV and XLSX are written from, headed in the reader's language. */
export type ReportName = 'sales' | 'vat' | 'book' | 'payments' | 'receivables';

type Input =
  | { name: 'sales'; report: SalesReport; locations: Map<string, string> }
  | { name: 'vat'; report: VatReport; country: string | null }
  | { name: 'book'; report: { entries: BookEntry[] }; country: string | null }
  | { name: 'payments'; report: PaymentsReport; methodLabel: (method: string) => string }
  | { name: 'receivables'; report: ReceivablesReport };

/**
 * The German advance return (Umsatzsteuer-Voranmeldung) asks for the taxable amount of domestic
 * supplies per rate in its own field: 81 at 19 %, 86 at 7 %.
 */
const USTVA_FIELD: Record<number, string> = { 1900: '81', 700: '86' };

export function reportTable(input: Input, locale: ExportLocale): Table {
  // A day's period is a date (26.11.2026. in Croatian); a week's or month's stays its key.
  const col = (key: ReportLabel, type: ColumnType, field: string = key): Column => ({
    key: field,
    label: reportLabel(locale, key),
    type,
  });
  const kind = (k: string) => reportLabel(locale, `kind.${k}` as ReportLabel);
  switch (input.name) {
    case 'sales': {
      const r = input.report;
      return {
        title: reportLabel(locale, 'title.sales'),
        columns: [
          col('period', r.groupBy === 'day' ? 'date' : 'text'),
          col('location', 'text'),
          col('operator', 'text'),
          col('invoices', 'integer'),
          col('invoicesGross', 'money'),
          col('cancellationsGross', 'money'),
          col('creditNotesGross', 'money'),
          col('net', 'money'),
          col('tax', 'money'),
          col('gross', 'money'),
        ],
        rows: r.rows.map((row) => ({
          period: row.period,
          location: input.locations.get(row.locationId) ?? row.locationId,
          operator: row.operator,
          invoices: row.kinds.invoice.count,
          invoicesGross: row.kinds.invoice.gross,
          cancellationsGross: row.kinds.cancellation.gross,
          creditNotesGross: row.kinds.credit_note.gross,
          net: row.total.net,
          tax: row.total.tax,
          gross: row.total.gross,
        })),
      };
    }
    case 'vat': {
      const german = input.country === 'DE';
      const rows: Array<Record<string, Cell>> = [];
      for (const p of input.report.periods)
        for (const rate of p.rates)
          rows.push({
            period: p.key,
            from: p.from,
            to: p.to,
            rate: rate.rateBp,
            ...(german ? { ustvaField: USTVA_FIELD[rate.rateBp] ?? null } : {}),
            base: rate.base,
            tax: rate.tax,
            gross: rate.gross,
          });
      return {
        title: reportLabel(locale, 'title.vat'),
        columns: [
          col('period', 'text'),
          col('from', 'date'),
          col('to', 'date'),
          col('rate', 'percent'),
          ...(german ? [col('ustvaField', 'text')] : []),
          col('base', 'money'),
          col('tax', 'money'),
          col('gross', 'money'),
        ],
        rows,
      };
    }
    case 'book': {
      // The book of issued invoices as Obrazac I-RA lays it out (README "Reports", "The book of
      // issued invoices"): 1 serial number, 2 invoice number, 3 date, 4 the buyer's name and seat
      // (two columns here), 5 the buyer's OIB or VAT id, 6 the amount with VAT, 7–16 what is not
      // taxable or exempt, 17 the 0 % rate, then base and VAT per rate. Portico issues only
      // domestic exemptions (a 0 % rate with its reason), entered in column 14; the columns of flows
      // it does not issue (reverse charge, EU supplies, exports) stay on the form, empty. A
      // company outside Croatia gets one exempt column instead of the form's ten. The document's
      // kind (invoice, cancellation, credit note) is Portico's, after the form's columns.
      const croatian = input.country === 'HR';
      const present = input.report.entries.flatMap((e) => e.rates.map((r) => r.rateBp)).filter((bp) => bp !== 0);
      const rates = [...new Set([...(croatian ? [500, 1300, 2500] : []), ...present])].sort((a, b) => a - b);
      const pct = (bp: number) => `${(bp / 100).toLocaleString(locale === 'en' ? 'en' : locale)} %`;
      const formExempt: ReportLabel[] = [
        'ira.reverseCharge',
        'ira.goodsOtherMs',
        'ira.goodsEu',
        'ira.servicesEu',
        'ira.nonResident',
        'ira.installation',
        'ira.newVehicles',
        'ira.domestic',
        'ira.export',
        'ira.other',
        'ira.zeroRate',
      ];
      return {
        title: reportLabel(locale, 'title.book'),
        columns: [
          col('seq', 'integer'),
          col('number', 'text'),
          col('date', 'date'),
          col('customer', 'text'),
          col('buyerAddress', 'text'),
          col('taxId', 'text'),
          col('grossWithVat', 'money', 'gross'),
          ...(croatian ? formExempt.map((k) => col(k, 'money')) : [col('exempt', 'money')]),
          ...rates.flatMap((bp) => [
            { key: `base${bp}`, label: `${reportLabel(locale, 'base')} ${pct(bp)}`, type: 'money' as const },
            { key: `tax${bp}`, label: `${reportLabel(locale, 'tax')} ${pct(bp)}`, type: 'money' as const },
          ]),
          col('kind', 'text'),
        ],
        rows: input.report.entries.map((e) => {
          const row: Record<string, Cell> = {
            seq: e.seq,
            date: e.date,
            number: e.invoiceNumber ?? e.number,
            kind: kind(e.kind),
            customer: e.customerName,
            buyerAddress: e.customerAddress,
            taxId: e.customerTaxId,
            gross: e.gross,
          };
          if (croatian) for (const k of formExempt) row[k] = k === 'ira.domestic' ? e.exempt : null;
          else row.exempt = e.exempt;
          for (const bp of rates) {
            const r = e.rates.find((x) => x.rateBp === bp);
            row[`base${bp}`] = r ? r.base : null;
            row[`tax${bp}`] = r ? r.tax : null;
          }
          return row;
        }),
      };
    }
    case 'payments':
      return {
        title: reportLabel(locale, 'title.payments'),
        columns: [
          col('period', input.report.groupBy === 'day' ? 'date' : 'text'),
          col('method', 'text'),
          col('operator', 'text'),
          col('count', 'integer'),
          col('received', 'money'),
          col('voided', 'money'),
          // Received less voided: not a tax base ("Osnovica" misled), so its own heading (issue 34).
          col('netReceived', 'money', 'net'),
        ],
        rows: input.report.rows.map((r) => ({
          period: r.period,
          method: input.methodLabel(r.method),
          operator: r.user,
          count: r.count,
          received: r.received,
          voided: r.voided,
          net: r.net,
        })),
      };
    case 'receivables':
      return {
        title: reportLabel(locale, 'title.receivables'),
        columns: [
          col('customer', 'text'),
          col('taxId', 'text'),
          col('number', 'text'),
          col('issued', 'date'),
          col('due', 'date'),
          col('daysOverdue', 'integer'),
          col('d0', 'money'),
          col('d31', 'money'),
          col('d61', 'money'),
          col('d91', 'money'),
          col('balance', 'money'),
        ],
        rows: input.report.invoices.map((i) => ({
          customer: i.customerName,
          taxId: i.customerTaxId,
          number: i.invoiceNumber ?? i.number,
          issued: i.issuedOn,
          due: i.dueDate,
          daysOverdue: i.daysOverdue,
          d0: i.age === '0-30' ? i.balance : null,
          d31: i.age === '31-60' ? i.balance : null,
          d61: i.age === '61-90' ? i.balance : null,
          d91: i.age === '90+' ? i.balance : null,
          balance: i.balance,
        })),
      };
  }
}
