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
  // Most lines at list price; the others with a discount from 0.01 % to 100 % (hub and counter).
  discountBp: fc.oneof(
    fc.constant(0),
    fc.constant(0),
    fc.constantFrom(1000, 1250, 5000, 10_000),
    fc.integer({ min: 1, max: 10_000 }),
  ),
});
const documentArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 40 }),
  pricesIncludeTax: fc.boolean(),
  kind: fc.constantFrom<DocumentKind>('invoice', 'invoice', 'cancellation', 'credit_note'),
  paidShare: fc.constantFrom(0, 0, 0.5, 1),
});

/** Lines priced and apportioned as priceLines does when a document is created, then stored. */
type Doc = {
  lines: Array<{ unitPriceMinor: number; quantityMilli: number; taxRateBp: number; discountBp?: number }>;
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
      discount_bp: l.discountBp ?? 0,
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

/**
 * PEPPOL-EN16931-R120 on every line: net (BT-131) = quantity (BT-129) × price (BT-146) ÷ base
 * quantity (BT-149) + line charges − line allowances (BG-27/28), within the rule's 0.02; and R040 on
 * each allowance that states a percent: amount = base × percent ÷ 100, within 0.02. Both syntaxes.
 */
function checkLineArithmetic(xml: string) {
  const ubl = !xml.includes('<rsm:CrossIndustryInvoice');
  const lines = ubl ? each(xml, 'cac:(?:Invoice|CreditNote)Line') : each(xml, 'ram:IncludedSupplyChainTradeLineItem');
  assert.ok(lines.length > 0);
  for (const line of lines) {
    const allowanceCharges = ubl ? each(line, 'cac:AllowanceCharge') : each(line, 'ram:SpecifiedTradeAllowanceCharge');
    let adjust = 0;
    for (const a of allowanceCharges) {
      const isCharge = (ubl ? one(a, 'cbc:ChargeIndicator') : one(a, 'udt:Indicator')) === 'true';
      const amount = Number(one(a, ubl ? 'cbc:Amount' : 'ram:ActualAmount'));
      const base = one(a, ubl ? 'cbc:BaseAmount' : 'ram:BasisAmount');
      const percent = one(a, ubl ? 'cbc:MultiplierFactorNumeric' : 'ram:CalculationPercent');
      if (base !== undefined && percent !== undefined)
        assert.ok(Math.abs(amount - (Number(base) * Number(percent)) / 100) <= 0.02 + 1e-9, `R040: ${a}`);
      assert.equal(one(a, ubl ? 'cbc:AllowanceChargeReasonCode' : 'ram:ReasonCode'), isCharge ? undefined : '95');
      adjust += isCharge ? amount : -amount;
    }
    const quantity = Number(one(line, ubl ? 'cbc:(?:Invoiced|Credited)Quantity' : 'ram:BilledQuantity'));
    const price = Number(
      ubl ? one(line, 'cbc:PriceAmount') : one(each(line, 'ram:NetPriceProductTradePrice')[0]!, 'ram:ChargeAmount'),
    );
    const baseQuantity = Number(one(line, ubl ? 'cbc:BaseQuantity' : 'ram:BasisQuantity') ?? '1');
    const net = Number(ubl ? one(line, 'cbc:LineExtensionAmount') : one(line, 'ram:LineTotalAmount'));
    const expected = quantity * (price / baseQuantity) + adjust;
    assert.ok(Math.abs(net - expected) <= 0.02 + 1e-9, `R120: ${net} vs ${expected}\n${line}`);
  }
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
      // R120 on every line, a discounted line's allowance stated (BG-27), in both syntaxes.
      checkLineArithmetic(ubl);
      checkLineArithmetic(cii);
      // An allowance exactly where the line has a discount that took something off.
      for (const [i, written] of each(ubl, 'cac:(?:Invoice|CreditNote)Line').entries()) {
        const row = lines[i]!;
        const base = priceLine(
          { unitPriceMinor: row.unit_price_minor, quantityMilli: row.quantity_milli, taxRateBp: row.tax_rate_bp },
          doc.pricesIncludeTax,
        ).net;
        assert.equal(written.includes('<cac:AllowanceCharge>'), Boolean(row.discount_bp) && base !== row.net_minor);
      }
      // BR-27: a net price is never negative, whatever the document's sign.
      for (const price of each(ubl, 'cbc:PriceAmount')) assert.ok(Number(price) >= 0);
    }),
    { numRuns: 300, seed: 21 },
  );
});

test('a discounted line: its price before the discount, the discount an allowance (code 95), R120 to the cent', () => {
  // Issue 32's example: 3 × 89.00 at 12.5 % off was written as LineExtensionAmount 233.63 alone.
  const doc = {
    lines: [{ unitPriceMinor: 8900, quantityMilli: 3000, taxRateBp: 2500, discountBp: 1250 }],
    pricesIncludeTax: false,
    kind: 'invoice' as const,
    paidShare: 0,
  };
  const lines = storedLines(doc);
  const model = buildEInvoice(source(doc, lines, 29204));
  const ubl = toUbl(model);
  const line = each(ubl, 'cac:InvoiceLine')[0]!;
  assert.match(
    line,
    /<cbc:LineExtensionAmount currencyID="EUR">233\.63<\/cbc:LineExtensionAmount><cac:AllowanceCharge><cbc:ChargeIndicator>false<\/cbc:ChargeIndicator><cbc:AllowanceChargeReasonCode>95<\/cbc:AllowanceChargeReasonCode><cbc:AllowanceChargeReason>Popust<\/cbc:AllowanceChargeReason><cbc:MultiplierFactorNumeric>12\.5<\/cbc:MultiplierFactorNumeric><cbc:Amount currencyID="EUR">33\.37<\/cbc:Amount><cbc:BaseAmount currencyID="EUR">267\.00<\/cbc:BaseAmount><\/cac:AllowanceCharge>/,
  );
  assert.equal(one(line, 'cbc:PriceAmount'), '89.00');
  const cii = toCii(model);
  assert.match(
    cii,
    /<ram:SpecifiedTradeAllowanceCharge><ram:ChargeIndicator><udt:Indicator>false<\/udt:Indicator><\/ram:ChargeIndicator><ram:CalculationPercent>12\.5<\/ram:CalculationPercent><ram:BasisAmount>267\.00<\/ram:BasisAmount><ram:ActualAmount>33\.37<\/ram:ActualAmount><ram:ReasonCode>95<\/ram:ReasonCode><ram:Reason>Popust<\/ram:Reason><\/ram:SpecifiedTradeAllowanceCharge>/,
  );
  checkLineArithmetic(ubl);
  checkLineArithmetic(cii);
  // Without its allowance the line breaks R120: 3 × 89.00 is not 233.63.
  assert.throws(() => checkLineArithmetic(ubl.replace(/<cac:AllowanceCharge>.*?<\/cac:AllowanceCharge>/, '')), /R120/);
  // A storno: the same figures negative, the price still positive (BR-27).
  const storno = storedLines({ ...doc, kind: 'cancellation' });
  const negative = toUbl(buildEInvoice(source({ ...doc, kind: 'cancellation' }, storno, -29204)));
  assert.match(
    negative,
    /<cbc:Amount currencyID="EUR">-33\.37<\/cbc:Amount><cbc:BaseAmount currencyID="EUR">-267\.00</,
  );
  checkLineArithmetic(negative);
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
