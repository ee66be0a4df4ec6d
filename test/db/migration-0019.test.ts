import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { backfillSaleLineCodes } from '../../src/db/migrations/0019-einvoice-snapshots.ts';

/**
 * 0019: lines issued before it take the catalog's KPD and unit codes once, each from its own
 * company's product and unit (two tenants with the same catalog codes changed apart prove it).
 */
test('0019 fills the KPD and unit codes of lines issued before it from their own company catalog', async () => {
  const t = await createTestApp();
  try {
    const db = t.c.database.db;
    const issue = async () => {
      const d = await createTenant(t.c);
      const q = await newQuotation(t.app, d);
      await assignCustomer(t.app, d, 'quotations', q.id);
      const sale = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
      assert.equal(sale.statusCode, 201, sale.body);
      return { d, sale: sale.json().data };
    };
    const [one, two] = [await issue(), await issue()];
    // Lines as they were before 0019, and the catalogs changed since, differently per company.
    await db.updateTable('sale_lines').set({ classification_code: null, unit_code: null }).execute();
    for (const [x, kpd, unit] of [
      [one, '47.52.02', 'XBX'],
      [two, '20.30.11', 'XPK'],
    ] as const) {
      await adminCall(t.app, x.d.adminToken, 'PATCH', `/products/${x.d.products[0]!.id}`, { classificationCode: kpd });
      await adminCall(t.app, x.d.adminToken, 'PATCH', `/units/${x.d.products[0]!.units[0]!.id}`, { unitCode: unit });
    }
    await backfillSaleLineCodes(db);
    for (const [x, kpd, unit] of [
      [one, '47.52.02', 'XBX'],
      [two, '20.30.11', 'XPK'],
    ] as const) {
      const line = await db
        .selectFrom('sale_lines')
        .select(['classification_code', 'unit_code'])
        .where('company_id', '=', x.d.companyId)
        .where('document_id', '=', x.sale.id)
        .where('position', '=', 1)
        .executeTakeFirstOrThrow();
      assert.deepEqual({ ...line }, { classification_code: kpd, unit_code: unit });
      const xml = (await adminCall(t.app, x.d.adminToken, 'GET', `/sales/${x.sale.id}/e-invoice`)).body;
      assert.match(xml, new RegExp(`<cbc:InvoicedQuantity unitCode="${unit}"`));
      assert.match(xml, new RegExp(`<cbc:ItemClassificationCode listID="CG">${kpd.replaceAll('.', '\\.')}<`));
    }
  } finally {
    await t.close();
  }
});
