// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { mulDivRound } from '../../lib/money.ts';
import { priceLine, totalsView, type DocumentLineRow } from '../documents/index.ts';
import { apportionLines } from '../documents/tax-summary.ts';
import { buildEInvoice, type DocumentKind, type EInvoiceSource } from './einvoice-model.ts';
import { toUbl } from './ubl.ts';
import { toCii } from './cii.ts';

/**
 * Issue 21's property: over a few hundred random documents (net and gross prices, several rates,
 * exempt lines, invoices, stornos and credit notes, part-paid), the XML's totals are the print's
 * (totalsView, what the PDF prints) and obey EN 16931's calculation rules, checked here on the
 * written XML of both syntaxes: BR-CO-10 … BR-CO-16 and BR-S-08 (and BR-S-09's rate rule, to the
 * cent). The official Schematron runs on a few documents only (test/http/admin/e-invoices.test.ts):
 * it takes seconds per document.
 */

const RATES_BP = [2500, 1300, 500, 0];

const lineArb = fc.record({
  unitPriceMinor: fc.integer({ min: 1, max: 250_000 }),
  quantityMilli: fc.oneof(
    fc.integer({ min: 1, max: 20 }).map((q) => q * 1000),
    fc.integer({ min: 1, max: 50_000 }),
  ),
  taxRateBp: fc.constantFrom(...RATES_BP),
});
const documentArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 40 }),
  pricesIncludeTax: fc.boolean(),
  kind: fc.constantFrom<DocumentKind>('invoice', 'invoice', 'cancellation', 'credit_note'),
  paidShare: fc.constantFrom(0, 0, 0.5, 1),
});

/** Lines priced and apportioned as priceLines does when a document is created, then stored. */
type Doc = {
  lines: Array<{ unitPriceMinor: number; quantityMilli: number; taxRateBp: number }>;
  pricesIncludeTax: boolean;
  kind: DocumentKind;
  paidShare: number;
};

function storedLines(doc: Doc) {
  const priced = doc.lines.map((l) => ({ ...l, ...priceLine(l, doc.pricesIncludeTax) }));
  const shared = apportionLines(priced, doc.pricesIncludeTax);
  const sign = doc.kind === 'invoice' ? 1 : -1;
  return priced.map(
    (l, i): DocumentLineRow => ({
      id: `line_${i}`,
      company_id: 'company_1',
      document_id: 'sale_1',
      position: i + 1,
      product_id: `product_${i}`,
      unit_id: `unit_${i}`,
      product_name: `Proizvod ${i + 1} & <co>`,
      product_code: `SKU-${i}`,
      unit_name: 'kom',
      quantity_milli: sign * l.quantityMilli,
      unit_price_minor: l.unitPriceMinor,
      tax_rate_bp: l.taxRateBp,
      net_minor: sign * shared[i]!.net,
      tax_minor: sign * shared[i]!.tax,
      total_minor: sign * shared[i]!.total,
      note: null,
    }),
  );
}

function source(doc: Doc, lines: DocumentLineRow[], total: number): EInvoiceSource {
  return {
    kind: doc.kind,
    number: '12/ZG1/1',
    issuedAt: '2026-05-04T08:00:00.000Z',
    dueDate: doc.kind === 'invoice' ? '2026-05-19' : null,
    deliveryDate: '2026-05-04',
    currency: 'EUR',
    pricesIncludeTax: doc.pricesIncludeTax,
    paymentMethod: 'bank_transfer',
    paymentReference: 'HR00 12',
    paidMinor: doc.kind === 'invoice' ? Math.floor(total * doc.paidShare) : 0,
    note: null,
    correctionReason: doc.kind === 'invoice' ? null : 'Povrat',
    exemptionReason: 'Oslobođeno prema čl. 39.',
    operator: { name: 'Ana Kovač', oib: '12345678903' },
    preceding: doc.kind === 'invoice' ? null : { number: '11/ZG1/1', issuedAt: '2026-05-01T08:00:00.000Z' },
    company: {
      name: 'Šišić d.o.o.',
      country: 'HR',
      taxId: 'HR12345678903',
      vatRegistered: true,
      timezone: 'Europe/Zagreb',
      address: { street: 'Ilica 242', postalCode: '10000', city: 'Zagreb' },
      bankAccount: { iban: 'HR1210010051863000160', bic: null, holder: 'Šišić d.o.o.' },
      contact: { name: null, phone: null, email: null },
    },
    buyer: {
      kind: 'business',
      name: 'Kupac d.o.o.',
      taxId: 'HR69829401012',
      email: null,
      address: { street: 'Savska 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
      endpoint: null,
      buyerReference: null,
    },
    lines,
    classifications: new Map(lines.map((l) => [l.id, '20.30.12'])),
    unitCodes: new Map(lines.map((l) => [l.id, 'H87'])),
  };
}

const cents = (text: string | undefined) => {
  assert.ok(text !== undefined, 'element missing');
  return Math.round(Number(text) * 100);
};
const one = (xml: string, name: string) => xml.match(new RegExp(`<${name}\\b[^>]*>([^<]*)</${name}>`))?.[1];
const each = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<${name}\\b[^>]*>(.*?)</${name}>`, 'gs'))].map((m) => m[1]!);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** BR-CO-10 … BR-CO-16, BR-S-08, BR-S-09 on a UBL document; returns the figures for comparison. */
function checkUbl(xml: string) {
  const totals = each(xml, 'cac:LegalMonetaryTotal')[0]!;
  const lineNet = cents(one(totals, 'cbc:LineExtensionAmount'));
  const taxExclusive = cents(one(totals, 'cbc:TaxExclusiveAmount'));
  const taxInclusive = cents(one(totals, 'cbc:TaxInclusiveAmount'));
  const prepaid = cents(one(totals, 'cbc:PrepaidAmount') ?? '0');
  const payable = cents(one(totals, 'cbc:PayableAmount'));
  const allowances = cents(one(totals, 'cbc:AllowanceTotalAmount') ?? '0');
  const charges = cents(one(totals, 'cbc:ChargeTotalAmount') ?? '0');
  const lines = each(xml, 'cac:(?:Invoice|CreditNote)Line').map((l) => ({
    net: cents(one(l, 'cbc:LineExtensionAmount')),
    category: one(each(l, 'cac:ClassifiedTaxCategory')[0]!, 'cbc:ID'),
    percent: one(each(l, 'cac:ClassifiedTaxCategory')[0]!, 'cbc:Percent'),
  }));
  const taxTotal = each(xml, 'cac:TaxTotal')[0]!;
  const taxAmount = cents(taxTotal.match(/^<cbc:TaxAmount[^>]*>([^<]*)</)?.[1]);
  const subtotals = each(taxTotal, 'cac:TaxSubtotal').map((s) => ({
    base: cents(one(s, 'cbc:TaxableAmount')),
    tax: cents(one(s, 'cbc:TaxAmount')),
    category: one(s, 'cbc:ID'),
    percent: one(s, 'cbc:Percent')!,
  }));
  assert.equal(lineNet, sum(lines.map((l) => l.net)), 'BR-CO-10');
  assert.equal(allowances, 0, 'BR-CO-11 (no document allowances)');
  assert.equal(charges, 0, 'BR-CO-12 (no document charges)');
  assert.equal(taxExclusive, lineNet - allowances + charges, 'BR-CO-13');
  assert.equal(taxAmount, sum(subtotals.map((s) => s.tax)), 'BR-CO-14');
  assert.equal(taxInclusive, taxExclusive + taxAmount, 'BR-CO-15');
  assert.equal(payable, taxInclusive - prepaid, 'BR-CO-16');
  for (const s of subtotals.filter((s) => s.category === 'S')) {
    const base = sum(lines.filter((l) => l.category === 'S' && l.percent === s.percent).map((l) => l.net));
    assert.equal(s.base, base, `BR-S-08 at ${s.percent} %`);
    const exact = Number(mulDivRound(BigInt(s.base), BigInt(Math.round(Number(s.percent) * 100)), 10_000n));
    assert.ok(Math.abs(s.tax - exact) <= 1, `BR-S-09 at ${s.percent} %: ${s.tax} vs ${exact}`);
  }
  return { lineNet, taxAmount, taxInclusive, payable, subtotals };
}

test('BR-CO-10 … BR-CO-16 and BR-S-08 over random documents; the XML totals are the print', () => {
  fc.assert(
    fc.property(documentArb, (doc) => {
      const lines = storedLines(doc);
      const printed = totalsView(lines);
      const total = cents(printed.withTax);
      const model = buildEInvoice(source(doc, lines, total));
      const ubl = toUbl(model);
      const figures = checkUbl(ubl);
      // The print: a credit note's amounts are stored negative, written positive.
      const sign = doc.kind === 'credit_note' ? -1 : 1;
      const signed = (text: string) => sign * cents(text) + 0; // + 0: never -0
      assert.equal(figures.lineNet, signed(printed.net));
      assert.equal(figures.taxAmount, signed(printed.tax));
      assert.equal(figures.taxInclusive, signed(printed.withTax));
      assert.deepEqual(
        figures.subtotals.map((s) => [s.base, s.tax]),
        printed.taxes.map((t) => [signed(t.base), signed(t.tax)]),
      );
      // CII carries the same figures (BT-106, BT-110, BT-112, BT-115).
      const cii = toCii(model);
      const header = cii.slice(cii.indexOf('<ram:ApplicableHeaderTradeSettlement>'));
      const ciiLines = each(cii, 'ram:SpecifiedTradeSettlementLineMonetarySummation');
      assert.equal(
        cents(one(header, 'ram:LineTotalAmount')),
        sum(ciiLines.map((l) => cents(one(l, 'ram:LineTotalAmount')))),
        'BR-CO-10 (CII)',
      );
      assert.equal(cents(one(header, 'ram:LineTotalAmount')), figures.lineNet);
      assert.equal(cents(one(header, 'ram:TaxTotalAmount')), figures.taxAmount);
      assert.equal(cents(one(header, 'ram:GrandTotalAmount')), figures.taxInclusive);
      assert.equal(cents(one(header, 'ram:DuePayableAmount')), figures.payable);
      assert.deepEqual(
        each(header, 'ram:ApplicableTradeTax').map((t) => [
          cents(one(t, 'ram:BasisAmount')),
          cents(one(t, 'ram:CalculatedAmount')),
        ]),
        figures.subtotals.map((s) => [s.base, s.tax]),
      );
      // BR-27: a net price is never negative, whatever the document's sign.
      for (const price of each(ubl, 'cbc:PriceAmount')) assert.ok(Number(price) >= 0);
    }),
    { numRuns: 300, seed: 21 },
  );
});

test('the rules can fail: a line amount off by a cent breaks BR-CO-10', () => {
  const doc = {
    lines: [{ unitPriceMinor: 1240, quantityMilli: 2000, taxRateBp: 2500 }],
    pricesIncludeTax: false,
    kind: 'invoice' as const,
    paidShare: 0,
  };
  const lines = storedLines(doc);
  const ubl = toUbl(buildEInvoice(source(doc, lines, 3100)));
  const broken = ubl.replace(/(<cac:InvoiceLine>.*?<cbc:LineExtensionAmount currencyID="EUR">)24\.80</s, '$124.81<');
  assert.notEqual(broken, ubl);
  assert.throws(() => checkUbl(broken), /BR-CO-10/);
});
