// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { adminCall } from '../support/sales-helpers.ts';
import { pdfText } from '../support/quote-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/**
 * Zakon o fiskalizaciji (NN 89/2025) čl. 7 st. 1 t. 2 and čl. 8: a receipt states the operator's
 * label; the operator's OIB is linked to it in the shop's internal act and sent to CIS, never
 * printed. Read back from the PDFs (A4 and 80 mm) with pdftotext.
 */
describe("the operator's label on receipts, never the personal OIB", () => {
  let t: TestApp;
  let d: DemoCompany;

  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c);
  });
  after(() => t.close());

  test('a counter sale prints the label set for the user, not the OIB', async () => {
    const admin = d.users[0]!;
    const set = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${admin.id}`, {
      operatorLabel: 'Blagajna 1 – AK',
    });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().data.operatorLabel, 'Blagajna 1 – AK');
    assert.equal(set.json().data.operatorOib, '11111111119', 'the OIB is kept for CIS');
    const tooLong = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${admin.id}`, {
      operatorLabel: 'x'.repeat(41),
    });
    assert.equal(tooLong.statusCode, 400);

    const p = d.products[0]!;
    const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      paymentMethod: 'card',
    });
    assert.equal(res.statusCode, 201, res.body);
    const sale = res.json().data;
    for (const layout of ['receipt', 'a4']) {
      const pdf = await adminCall(t.app, d.adminToken, 'GET', `/sales/${sale.id}?format=pdf&layout=${layout}`);
      assert.equal(pdf.statusCode, 200, pdf.body);
      const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
      assert.match(text, /Operater:? Blagajna 1 – AK/, `${layout} prints the label:\n${text}`);
      assert.ok(!text.includes('11111111119'), `${layout} does not print the operator's OIB:\n${text}`);
      assert.ok(!/OIB operatera/.test(text), layout);
    }
  });

  test("without a label the user's name is printed", async () => {
    const admin = d.users[0]!;
    const cleared = await adminCall(t.app, d.adminToken, 'PATCH', `/users/${admin.id}`, { operatorLabel: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    const p = d.products[0]!;
    const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      paymentMethod: 'cash',
    });
    assert.equal(res.statusCode, 201, res.body);
    const pdf = await adminCall(t.app, d.adminToken, 'GET', `/sales/${res.json().data.id}?format=pdf&layout=receipt`);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    assert.match(text, /Operater:? Ana Kovač/, text);
    assert.ok(!text.includes('11111111119'));
  });
});
