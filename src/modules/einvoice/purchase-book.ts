import type { PurchaseInvoiceView } from './purchase-invoices.service.ts';
import type { ReadTax } from './einvoice-reader.ts';
import { parseScaled, MONEY_SCALE } from '../../lib/money.ts';

/**
 * The book of received invoices (knjiga primljenih računa, Obrazac U-RA of the Pravilnik o porezu
 * na dodanu vrijednost; the electronic form is ePorezna's `ObrazacURA`, elements R1–R18). The
 * first eighteen columns are the form's, in its order (README "The book of received invoices
 * (U-RA)" says where they were read and what is not verified); Portico's own facts follow them
 * (exempt base, other VAT, due date, currency, paid, status). As a plain table (the reports' CSV
 * and XLSX writers read this shape); money in cents.
 */
type Language = 'hr' | 'de' | 'en';
const KEYS = [
  'no',
  'number',
  'issueDate',
  'supplier',
  'supplierAddress',
  'idKind',
  'supplierId',
  'base5',
  'base13',
  'base25',
  'grossTaxable',
  'vatTotal',
  'vat5',
  'vat5Nd',
  'vat13',
  'vat13Nd',
  'vat25',
  'vat25Nd',
  'exempt',
  'vatOther',
  'total',
  'dueDate',
  'currency',
  'paid',
  'status',
] as const;
type Key = (typeof KEYS)[number];
const LABELS: Record<Language, Record<'title' | Key, string>> = {
  hr: {
    title: 'Knjiga primljenih računa (U-RA)',
    no: 'Redni broj',
    number: 'Broj računa',
    issueDate: 'Datum računa',
    supplier: 'Naziv dobavljača',
    supplierAddress: 'Sjedište dobavljača',
    idKind: 'Vrsta poreznog broja',
    supplierId: 'OIB / PDV ID dobavljača',
    base5: 'Osnovica 5 %',
    base13: 'Osnovica 13 %',
    base25: 'Osnovica 25 %',
    grossTaxable: 'Ukupni iznos s PDV-om',
    vatTotal: 'Ukupni pretporez',
    vat5: 'Pretporez 5 % (može se odbiti)',
    vat5Nd: 'Pretporez 5 % (ne može se odbiti)',
    vat13: 'Pretporez 13 % (može se odbiti)',
    vat13Nd: 'Pretporez 13 % (ne može se odbiti)',
    vat25: 'Pretporez 25 % (može se odbiti)',
    vat25Nd: 'Pretporez 25 % (ne može se odbiti)',
    exempt: 'Oslobođeno / neoporezivo',
    vatOther: 'PDV ostalo',
    total: 'Iznos računa',
    dueDate: 'Datum dospijeća',
    currency: 'Valuta',
    paid: 'Plaćeno',
    status: 'Status',
  },
  de: {
    title: 'Buch der Eingangsrechnungen (U-RA)',
    no: 'Lfd. Nr.',
    number: 'Rechnungsnummer',
    issueDate: 'Rechnungsdatum',
    supplier: 'Lieferant',
    supplierAddress: 'Sitz des Lieferanten',
    idKind: 'Art der Steuernummer',
    supplierId: 'OIB / USt-IdNr. des Lieferanten',
    base5: 'Bemessungsgrundlage 5 %',
    base13: 'Bemessungsgrundlage 13 %',
    base25: 'Bemessungsgrundlage 25 %',
    grossTaxable: 'Gesamtbetrag mit USt.',
    vatTotal: 'Vorsteuer gesamt',
    vat5: 'Vorsteuer 5 % (abziehbar)',
    vat5Nd: 'Vorsteuer 5 % (nicht abziehbar)',
    vat13: 'Vorsteuer 13 % (abziehbar)',
    vat13Nd: 'Vorsteuer 13 % (nicht abziehbar)',
    vat25: 'Vorsteuer 25 % (abziehbar)',
    vat25Nd: 'Vorsteuer 25 % (nicht abziehbar)',
    exempt: 'Steuerfrei / nicht steuerbar',
    vatOther: 'USt. sonstige',
    total: 'Rechnungsbetrag',
    dueDate: 'Fälligkeit',
    currency: 'Währung',
    paid: 'Bezahlt',
    status: 'Status',
  },
  en: {
    title: 'Book of received invoices (U-RA)',
    no: 'No.',
    number: 'Invoice number',
    issueDate: 'Invoice date',
    supplier: 'Supplier',
    supplierAddress: "Supplier's seat",
    idKind: 'Kind of tax number',
    supplierId: "Supplier's OIB / VAT id",
    base5: 'Base 5 %',
    base13: 'Base 13 %',
    base25: 'Base 25 %',
    grossTaxable: 'Total with VAT',
    vatTotal: 'Input VAT total',
    vat5: 'Input VAT 5 % (deductible)',
    vat5Nd: 'Input VAT 5 % (not deductible)',
    vat13: 'Input VAT 13 % (deductible)',
    vat13Nd: 'Input VAT 13 % (not deductible)',
    vat25: 'Input VAT 25 % (deductible)',
    vat25Nd: 'Input VAT 25 % (not deductible)',
    exempt: 'Exempt / outside scope',
    vatOther: 'VAT other',
    total: 'Invoice total',
    dueDate: 'Due date',
    currency: 'Currency',
    paid: 'Paid',
    status: 'Status',
  },
};

const TYPES: Partial<Record<Key, 'integer' | 'date' | 'text'>> = {
  no: 'integer',
  issueDate: 'date',
  dueDate: 'date',
  number: 'text',
  supplier: 'text',
  supplierAddress: 'text',
  idKind: 'text',
  supplierId: 'text',
  currency: 'text',
  status: 'text',
};

const cents = (text: string): number => {
  const [whole, fraction = ''] = text.replace(/^-/, '').split('.') as [string, string?];
  const value = Number(parseScaled(`${whole}.${fraction.slice(0, MONEY_SCALE).padEnd(MONEY_SCALE, '0')}`, MONEY_SCALE));
  return text.startsWith('-') ? -value : value;
};

export function purchaseBookTable(
  book: Array<PurchaseInvoiceView & { taxes: ReadTax[]; supplierAddress: string | null }>,
  language: Language,
) {
  const l = LABELS[language];
  return {
    title: l.title,
    columns: KEYS.map((key) => ({ key, label: l[key], type: TYPES[key] ?? ('money' as const) })),
    rows: book.map((p, i) => {
      const standard = (rate: number) => p.taxes.filter((t) => t.category === 'S' && Number(t.rate) === rate);
      const sum = (taxes: ReadTax[], of: 'base' | 'amount') => taxes.reduce((s, t) => s + cents(t[of]), 0);
      const other = p.taxes
        .filter((t) => t.category !== 'S' || ![5, 13, 25].includes(Number(t.rate)))
        .filter((t) => cents(t.amount) !== 0)
        .reduce((s, t) => s + cents(t.amount), 0);
      const exempt = p.taxes.filter((t) => cents(t.amount) === 0).reduce((s, t) => s + cents(t.base), 0);
      // Whether input VAT may be deducted is the buyer's own judgement (Zakon o PDV-u čl. 57–61);
      // Portico knows one case: a rejected invoice, whose reported rejection declares that no
      // input VAT is claimed on it (Zakon o fiskalizaciji art. 52(3)). Everything else is entered
      // as deductible, for the accountant to move.
      const deductible = p.status !== 'rejected';
      const row: Record<Key, string | number | null> = {
        no: i + 1,
        number: p.number,
        issueDate: p.issueDate,
        supplier: p.supplier.name,
        supplierAddress: p.supplierAddress,
        // R6: 1 OIB, 2 VAT id, 3 other (the code list as ePorezna's form software uses it; U).
        idKind: p.supplier.oib ? '1' : p.supplier.vatId ? '2' : '3',
        supplierId: p.supplier.oib ?? p.supplier.vatId,
        base5: 0,
        base13: 0,
        base25: 0,
        grossTaxable: 0,
        vatTotal: 0,
        vat5: 0,
        vat5Nd: 0,
        vat13: 0,
        vat13Nd: 0,
        vat25: 0,
        vat25Nd: 0,
        exempt,
        vatOther: other,
        total: cents(p.totals.total),
        dueDate: p.dueDate,
        currency: p.currency,
        paid: cents(p.totals.paid),
        status: p.status,
      };
      let bases = 0;
      let vat = 0;
      for (const rate of [5, 13, 25] as const) {
        const base = sum(standard(rate), 'base');
        const tax = sum(standard(rate), 'amount');
        row[`base${rate}`] = base;
        row[deductible ? (`vat${rate}` as const) : (`vat${rate}Nd` as const)] = tax;
        bases += base;
        vat += tax;
      }
      // R11 is the taxable part with its VAT: what is not taxable is not on the form, so R11 need
      // not equal the invoice's total (kept in its own column).
      row.grossTaxable = bases + vat;
      row.vatTotal = vat;
      return row;
    }),
  };
}
