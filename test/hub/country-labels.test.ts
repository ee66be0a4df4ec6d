// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp } from '../support/test-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';

/**
 * A label that depends on the country says what the country calls the thing (issue 25): a
 * Croatian shop's hub in German calls a Croatian tax id "OIB", never "USt-IdNr.", on the sale
 * page, the assignment page's matches and the customer list.
 */
test('a Croatian shop read in German: OIB on the sale page, the assignment page and the customer list; days and decimals the German way', async () => {
  const t = await createTestApp();
  try {
    const d = await createTenant(t.c, { passwords: true });
    const settings = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/admin/settings',
      headers: bearer(d.adminToken),
      payload: { locale: 'de-AT' },
    });
    assert.equal(settings.statusCode, 200, settings.body);
    const admin = d.users.find((u) => u.role === 'admin')!;
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const page = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: `portico_session=${token}` } });
      assert.equal(res.statusCode, 200, url);
      assert.match(res.body, /<html lang="de/);
      return res.body;
    };

    const q = await newQuotation(t.app, d);
    const customerId = await assignCustomer(t.app, d, 'quotations', q.id, { address: null, name: 'Kovač obrt' });
    const customer = (await adminCall(t.app, d.adminToken, 'GET', `/customers/${customerId}`)).json().data;
    const sale = (await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;

    const salePage = await page(`/hub/sales/${sale.id}`);
    assert.ok(salePage.includes(`OIB: ${customer.taxId}`), 'the buyer’s id is an OIB on the sale page');
    assert.ok(!salePage.includes(`USt-IdNr.: ${customer.taxId}`));
    // Numbers and days the German way on the same page: the due day, the balance typed in, a quantity.
    const due = new Intl.DateTimeFormat('de-AT', { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${sale.dueDate}T12:00:00Z`),
    );
    assert.ok(salePage.includes(`<dd>${due}</dd>`), `due ${due}`);
    assert.ok(!salePage.includes(`<dd>${sale.dueDate}</dd>`), 'no ISO day');
    assert.ok(salePage.includes(`value="${sale.balance.replace('.', ',')}"`), 'the balance typed with a comma');
    assert.match(salePage, /\(höchstens 1,5 [^)]+\)<\/label>/, 'a credit quantity with a decimal comma');

    const other = await newQuotation(t.app, d);
    const assign = await page(`/hub/quotations/${other.id}/customer?find=${encodeURIComponent('Kovač')}`);
    assert.match(assign, /<th scope="col">OIB<\/th>/);
    assert.ok(!assign.includes('<th scope="col">USt-IdNr.</th>'));

    const list = await page('/hub/customers');
    assert.match(list, /<th scope="col">OIB<\/th>/);
    const detail = await page(`/hub/customers/${customerId}`);
    assert.match(
      detail,
      /<label for="customer-taxId">OIB<\/label>/,
      'a customer without an address: the company’s country names the id',
    );
  } finally {
    await t.close();
  }
});
