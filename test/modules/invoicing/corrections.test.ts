// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createGrossTenant, createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { adminCall, staffInvoice } from '../../support/sales-helpers.ts';
import { priceLine } from '../../../src/modules/documents/index.ts';
import type { SaleLineRow } from '../../../src/modules/sales/index.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * The lines of a correction as stored, column for column, against the invoice's lines they
 * correct: a storno negates every line (same position, same everything but the signs and its
 * own ids); a credit note takes the quantities asked, in the order asked, priced as the invoice
 * charged them (the line's discount included: Directive 2006/112/EC art. 79(b) and 90(1), the
 * taxable amount was the discounted price and is reduced by what was charged), and the last of
 * a line credits exactly what the line still holds. On a company with net prices and one whose
 * prices include VAT.
 */
describe('correction lines', () => {
  let t: TestApp;
  let net: DemoCompany;
  let gross: DemoCompany;

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date('2026-05-04T08:00:00.000Z') } });
    net = await createTenant(t.c);
    // The same shop with prices that include VAT.
    gross = await createGrossTenant(t.c);
  });
  after(async () => {
    await t.close();
  });

  const invoice = (d: DemoCompany, lines: Array<[number, number, number?]>) =>
    staffInvoice(t.app, d, lines) as Promise<{ id: string; lines: Array<{ id: string }> }>;

  const stored = async (d: DemoCompany, id: string) =>
    (await t.c.store.repos.sales.listSaleLines(d.companyId, [id])).sort((a, b) => a.position - b.position);

  /** Every column of `line` but the ones a correction sets itself. */
  const kept = ({
    id: _id,
    document_id: _doc,
    position: _pos,
    quantity_milli: _q,
    net_minor: _n,
    tax_minor: _t,
    total_minor: _tt,
    corrects_line_id: _c,
    ...rest
  }: SaleLineRow) => rest;

  async function credit(d: DemoCompany, saleId: string, lines: Array<{ lineId: string; quantity: string }>) {
    const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${saleId}/credit-notes`, {
      lines,
      reason: 'Povrat robe.',
    });
    assert.equal(res.statusCode, 201, res.body);
    return stored(d, res.json().data.id);
  }

  for (const which of ['net', 'gross'] as const)
    test(`a storno negates every line as stored, position and all (${which} prices)`, async () => {
      const d = which === 'net' ? net : gross;
      const sale = await invoice(d, [
        [2, 3, 12.5],
        [0, 2],
        [4, 7, 33.33],
      ]);
      const original = await stored(d, sale.id);
      const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'Krivo.' });
      assert.equal(res.statusCode, 201, res.body);
      const storno = await stored(d, res.json().data.id);
      assert.equal(storno.length, original.length);
      storno.forEach((s, i) => {
        const o = original[i]!;
        assert.deepEqual(kept(s), kept(o));
        assert.notEqual(s.id, o.id);
        assert.equal(s.document_id, res.json().data.id);
        assert.equal(s.corrects_line_id, o.id);
        assert.deepEqual(
          [s.position, s.quantity_milli, s.net_minor, s.tax_minor, s.total_minor],
          [o.position, -o.quantity_milli, -o.net_minor, -o.tax_minor, -o.total_minor],
        );
      });
    });

  for (const which of ['net', 'gross'] as const)
    test(`a credit note: the quantities asked in the order asked, priced as invoiced; the last of a line is exactly the rest (${which} prices)`, async () => {
      const d = which === 'net' ? net : gross;
      const include = which === 'gross';
      const sale = await invoice(d, [
        [0, 3],
        [4, 1.5],
        [1, 7],
      ]);
      const original = await stored(d, sale.id);
      // Asked out of order: the note numbers its lines 1, 2 as asked.
      const first = await credit(d, sale.id, [
        { lineId: original[2]!.id, quantity: '2' },
        { lineId: original[0]!.id, quantity: '1' },
      ]);
      assert.deepEqual(
        first.map((l) => [l.position, l.corrects_line_id]),
        [
          [1, original[2]!.id],
          [2, original[0]!.id],
        ],
      );
      for (const [line, of, quantity] of [
        [first[0]!, original[2]!, 2000],
        [first[1]!, original[0]!, 1000],
      ] as const) {
        assert.deepEqual(kept(line), kept(of));
        const priced = priceLine(
          {
            unitPriceMinor: of.unit_price_minor,
            quantityMilli: quantity,
            taxRateBp: of.tax_rate_bp,
            discountBp: of.discount_bp ?? 0,
          },
          include,
        );
        assert.deepEqual(
          [line.quantity_milli, line.net_minor, line.tax_minor, line.total_minor],
          [-quantity, -priced.net, -priced.tax, -priced.total],
        );
      }
      // The rest of line 3 (5 of 7) and of line 1 (2 of 3): exactly what the line still holds.
      const rest = await credit(d, sale.id, [
        { lineId: original[2]!.id, quantity: '5' },
        { lineId: original[0]!.id, quantity: '2' },
      ]);
      for (const [i, of] of [
        [2, 0],
        [0, 1],
      ] as const) {
        const o = original[i]!;
        const sum = (k: 'quantity_milli' | 'net_minor' | 'tax_minor' | 'total_minor') => first[of]![k] + rest[of]![k];
        assert.deepEqual(
          [sum('quantity_milli'), sum('net_minor'), sum('tax_minor'), sum('total_minor')],
          [-o.quantity_milli, -o.net_minor, -o.tax_minor, -o.total_minor],
        );
      }
    });
  test("a discounted line credited in part takes back what was charged, not the list price (issue 32's 3 × 89.00 at 12.5 % off)", async () => {
    const sale = await invoice(net, [[2, 3, 12.5]]);
    const [line] = await stored(net, sale.id);
    assert.deepEqual([line!.unit_price_minor, line!.discount_bp, line!.net_minor], [8900, 1250, 23363]);
    // One of three: 89.00 less 12.5 % is 77.875, 77.88 to the cent; not 89.00.
    const [one] = await credit(net, sale.id, [{ lineId: line!.id, quantity: '1' }]);
    assert.deepEqual(
      [one!.quantity_milli, one!.net_minor, one!.tax_minor, one!.total_minor],
      [-1000, -7788, -1947, -9735],
    );
    assert.equal(one!.discount_bp, 1250, 'the credit states the discount it carries');
    const [two] = await credit(net, sale.id, [{ lineId: line!.id, quantity: '1' }]);
    assert.equal(two!.net_minor, -7788);
    // The last takes the rest: the three credits add up to the line, as charged.
    const [three] = await credit(net, sale.id, [{ lineId: line!.id, quantity: '1' }]);
    assert.equal(three!.net_minor, -7787);
    assert.equal(one!.net_minor + two!.net_minor + three!.net_minor, -line!.net_minor);
    assert.equal(one!.total_minor + two!.total_minor + three!.total_minor, -line!.total_minor);
    // Its e-invoice: the price before the discount, the discount as the line's allowance (BG-27), R120.
    const notes = await t.c.store.repos.sales.listCorrections(net.companyId, sale.id);
    const res = await adminCall(t.app, net.adminToken, 'GET', `/sales/${notes[0]!.id}/e-invoice?syntax=ubl`);
    assert.equal(res.statusCode, 200, res.body);
    const xml = res.body.replace(/>\s+</g, '><');
    assert.match(
      xml,
      /<cbc:CreditedQuantity unitCode="[^"]+">1<\/cbc:CreditedQuantity><cbc:LineExtensionAmount currencyID="EUR">77.88</,
    );
    assert.match(xml, /<cbc:Amount currencyID="EUR">11.12<\/cbc:Amount>/);
    assert.match(xml, /<cbc:PriceAmount currencyID="EUR">89.00<\/cbc:PriceAmount>/);
  });
});
