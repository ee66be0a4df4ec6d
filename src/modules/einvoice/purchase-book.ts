import type { PurchaseInvoiceView } from './purchase-invoices.service.ts';
import type { ReadTax } from './einvoice-reader.ts';
import { parseScaled, MONEY_SCALE } from '../../lib/money.ts';

/**
 * The book of received invoices (knjiga primljenih računa, form U-RA of the Croatian VAT
 * regulation, Pravilnik o porezu na dodanu vrijednost): one row per received invoice by issue
 * date, the supplier and its OIB, the amount without VAT, the VAT per rate and the total. As a
 * plain table (the reports' CSV and XLSX writers read this shape); money in cents.
 */
type Language = 'hr' | 'de' | 'en';
const LABELS: Record<Language, Record<string, string>> = {
  hr: {
    title: 'Knjiga primljenih računa (U-RA)',
    no: 'Redni broj',
    number: 'Broj računa',
    issueDate: 'Datum računa',
    dueDate: 'Datum dospijeća',
    supplier: 'Dobavljač',
    supplierId: 'OIB / PDV ID dobavljača',
    currency: 'Valuta',
    net: 'Iznos bez PDV-a',
    vat5: 'PDV 5 %',
    vat13: 'PDV 13 %',
    vat25: 'PDV 25 %',
    vatOther: 'PDV ostalo',
    exempt: 'Oslobođeno / neoporezivo',
    total: 'Ukupno s PDV-om',
    paid: 'Plaćeno',
    status: 'Status',
  },
  de: {
    title: 'Buch der Eingangsrechnungen (U-RA)',
    no: 'Lfd. Nr.',
    number: 'Rechnungsnummer',
    issueDate: 'Rechnungsdatum',
    dueDate: 'Fälligkeit',
    supplier: 'Lieferant',
    supplierId: 'OIB / USt-IdNr. des Lieferanten',
    currency: 'Währung',
    net: 'Netto',
    vat5: 'USt. 5 %',
    vat13: 'USt. 13 %',
    vat25: 'USt. 25 %',
    vatOther: 'USt. sonstige',
    exempt: 'Steuerfrei / nicht steuerbar',
    total: 'Brutto',
    paid: 'Bezahlt',
    status: 'Status',
  },
  en: {
    title: 'Book of received invoices (U-RA)',
    no: 'No.',
    number: 'Invoice number',
    issueDate: 'Invoice date',
    dueDate: 'Due date',
    supplier: 'Supplier',
    supplierId: "Supplier's OIB / VAT id",
    currency: 'Currency',
    net: 'Net',
    vat5: 'VAT 5 %',
    vat13: 'VAT 13 %',
    vat25: 'VAT 25 %',
    vatOther: 'VAT other',
    exempt: 'Exempt / outside scope',
    total: 'Total with VAT',
    paid: 'Paid',
    status: 'Status',
  },
};

const cents = (text: string): number => {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.') as [string, string?];
  const value = Number(parseScaled(`${whole}.${fraction.slice(0, MONEY_SCALE).padEnd(MONEY_SCALE, '0')}`, MONEY_SCALE));
  return text.startsWith('-') ? -value : value;
};

export function purchaseBookTable(book: Array<PurchaseInvoiceView & { taxes: ReadTax[] }>, language: Language) {
  const l = LABELS[language];
  const money = (key: string) => ({ key, label: l[key]!, type: 'money' as const });
  const text = (key: string) => ({ key, label: l[key]!, type: 'text' as const });
  return {
    title: l.title!,
    columns: [
      { key: 'no', label: l.no!, type: 'integer' as const },
      text('number'),
      { key: 'issueDate', label: l.issueDate!, type: 'date' as const },
      { key: 'dueDate', label: l.dueDate!, type: 'date' as const },
      text('supplier'),
      text('supplierId'),
      text('currency'),
      money('net'),
      money('vat5'),
      money('vat13'),
      money('vat25'),
      money('vatOther'),
      money('exempt'),
      money('total'),
      money('paid'),
      text('status'),
    ],
    rows: book.map((p, i) => {
      const byRate = (rate: number) =>
        p.taxes.filter((t) => t.category === 'S' && Number(t.rate) === rate).reduce((s, t) => s + cents(t.amount), 0);
      const other = p.taxes
        .filter((t) => t.category !== 'S' || ![5, 13, 25].includes(Number(t.rate)))
        .filter((t) => cents(t.amount) !== 0)
        .reduce((s, t) => s + cents(t.amount), 0);
      const exempt = p.taxes.filter((t) => cents(t.amount) === 0).reduce((s, t) => s + cents(t.base), 0);
      return {
        no: i + 1,
        number: p.number,
        issueDate: p.issueDate,
        dueDate: p.dueDate,
        supplier: p.supplier.name,
        supplierId: p.supplier.oib ?? p.supplier.vatId,
        currency: p.currency,
        net: cents(p.totals.net),
        vat5: byRate(5),
        vat13: byRate(13),
        vat25: byRate(25),
        vatOther: other,
        exempt,
        total: cents(p.totals.total),
        paid: cents(p.totals.paid),
        status: p.status,
      };
    }),
  };
}
