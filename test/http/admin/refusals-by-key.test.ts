// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTenant, createTestApp } from '../../support/test-app.ts';
import { assertProblem, reachOut, tokenForRole, validReachOut } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer, newOrder, newQuotation } from '../../support/sales-helpers.ts';

/**
 * The refusals staff meet at the desk are said by key (issue 25): beside the English `detail`,
 * the API gives `detailKey`, which the hub says in the reader's language.
 */
test('not found, not open, customer required, a reused Idempotency-Key: each refusal names its message key', async () => {
  const t = await createTestApp();
  try {
    const d = await createTenant(t.c);
    const call = (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) =>
      adminCall(t.app, d.adminToken, method, url, body);

    const missing = assertProblem(await call('GET', '/quotations/qt_nothing'), 404, 'not_found');
    assert.deepEqual(missing.detailKey, { key: 'error.notFound.quotation', params: {} });
    assert.equal(missing.detail, 'Quotation not found.');

    const q = await newQuotation(t.app, d);
    const required = assertProblem(await call('POST', `/quotations/${q.id}/convert`, {}), 409, 'customer_required');
    assert.equal(required.detailKey.key, 'error.customer.requiredQuotation');

    await assignCustomer(t.app, d, 'quotations', q.id);
    const sale = await call('POST', `/quotations/${q.id}/convert`, {});
    assert.equal(sale.statusCode, 201, sale.body);
    const twice = assertProblem(await call('POST', `/quotations/${q.id}/convert`, {}), 409, 'quotation_not_open');
    assert.deepEqual(twice.detailKey, {
      key: 'error.quotation.converted',
      params: { number: q.number, saleId: sale.json().data.id },
    });
    const relink = assertProblem(
      await call('PUT', `/quotations/${q.id}/customer`, { customerId: sale.json().data.customer.id }),
      409,
      'quotation_not_open',
    );
    assert.equal(relink.detailKey.key, 'error.quotation.customerLocked');

    const o = await newOrder(t.app, d);
    await assignCustomer(t.app, d, 'orders', o.id);
    const early = assertProblem(await call('POST', `/orders/${o.id}/convert`, {}), 409, 'order_not_open');
    assert.deepEqual(early.detailKey, { key: 'error.order.acceptFirst', params: { number: o.number } });

    const idem = { 'idempotency-key': randomUUID() };
    const key = d.locations[0]!.apiKey;
    assert.equal((await reachOut(t.app, key, validReachOut({ subject: 'A' }), idem)).statusCode, 201);
    const reused = assertProblem(
      await reachOut(t.app, key, validReachOut({ subject: 'B' }), idem),
      422,
      'idempotency_key_reused',
    );
    assert.deepEqual(reused.detailKey, { key: 'error.idempotency.reused', params: {} });
  } finally {
    await t.close();
  }
});

test('a role refused, a line naming another company’s product, a body that is not JSON: each names its key', async () => {
  const t = await createTestApp();
  try {
    const d = await createTenant(t.c);
    const other = await createTenant(t.c);
    const staff = await tokenForRole(t.c, d, 'staff');

    // The role is a word of the catalog, not a parameter: "administrator" in Croatian.
    const role = assertProblem(await adminCall(t.app, staff, 'GET', '/reports/sales'), 403, 'forbidden');
    assert.deepEqual(role.detailKey, { key: 'error.role.admin', params: {} });
    assert.equal(role.detail, 'This needs the admin role.');

    // The catalog's refusal passes through the pricing of lines with its keys, field by field.
    const foreign = other.products[0]!;
    const lines = assertProblem(
      await adminCall(t.app, staff, 'POST', '/quotations', {
        customer: { name: 'Marko Marić' },
        lines: [{ productId: foreign.id, unitId: foreign.units[0]!.id, quantity: 1, discountPercent: 12.345 }],
      }),
      400,
      'validation_failed',
    );
    assert.deepEqual(lines.detailKey, { key: 'error.catalog.unknownLines', params: {} });
    assert.equal(lines.detail, 'Some lines refer to products that do not exist.');
    assert.deepEqual(lines.detailKeys['lines[0].productId'], [{ key: 'error.product.unknown', params: {} }]);
    assert.deepEqual(lines.detailKeys['lines[0].discountPercent'], [{ key: 'error.discount.form', params: {} }]);

    const form = assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/customers',
        headers: { authorization: `Bearer ${d.adminToken}`, 'content-type': 'text/plain' },
        payload: 'name=A',
      }),
      415,
      'unsupported_media_type',
    );
    assert.deepEqual(form.detailKey, { key: 'error.request.mediaType', params: {} });
  } finally {
    await t.close();
  }
});
