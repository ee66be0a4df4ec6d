// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const SETTINGS = '/api/v1/admin/settings';

describe('company settings: profile, bank account, locale, print template', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const get = (d: DemoCompany) => t.app.inject({ method: 'GET', url: SETTINGS, headers: bearer(d.adminToken) });
  const patch = (d: DemoCompany, payload: object) =>
    t.app.inject({ method: 'PATCH', url: SETTINGS, headers: bearer(d.adminToken), payload });

  test('the demo company has its whole profile; a PATCH changes only what it sends, normalised', async () => {
    const d = await createTenant(t.c);
    const before = (await get(d)).json().data;
    assert.deepEqual(
      {
        address: before.address,
        country: before.country,
        taxId: before.taxId,
        locale: before.locale,
        bankAccount: before.bankAccount,
      },
      {
        address: { street: 'Ilica 242', postalCode: '10000', city: 'Zagreb' },
        country: 'HR',
        taxId: 'HR12345678903',
        locale: 'hr-HR',
        bankAccount: { iban: 'HR1210010051863000160', bic: 'ZABAHR2X', holder: 'Boje i željezarija Šišić d.o.o.' },
      },
    );
    assert.match(before.printTemplate.paymentInstructions, /poziv na broj: \{reference\}/);

    const res = await patch(d, {
      name: 'Šišić Boje d.o.o.',
      address: { street: 'Savska cesta 41', postalCode: '10000', city: 'Zagreb' },
      country: 'de',
      locale: 'de-at',
      taxId: 'DE 136 695 976',
      bankAccount: { iban: 'de89 3704 0044 0532 0130 00', holder: 'Šišić Boje' },
      printTemplate: { footer: 'Angebot {number} für {customerName}: {total} bis {dueDate}' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const after = (await get(d)).json().data;
    assert.equal(after.name, 'Šišić Boje d.o.o.');
    assert.equal(after.country, 'DE');
    assert.equal(after.locale, 'de-AT');
    assert.equal(after.taxId, 'DE136695976');
    assert.deepEqual(after.bankAccount, { iban: 'DE89370400440532013000', bic: null, holder: 'Šišić Boje' });
    assert.equal(after.printTemplate.footer, 'Angebot {number} für {customerName}: {total} bis {dueDate}');
    assert.equal(
      after.printTemplate.paymentInstructions,
      before.printTemplate.paymentInstructions,
      'unsent fields stay',
    );
    assert.deepEqual(res.json().data, after);

    const cleared = await patch(d, { bankAccount: null, address: null, country: null, taxId: null });
    assert.equal(cleared.statusCode, 200, cleared.body);
    const data = cleared.json().data;
    assert.deepEqual([data.bankAccount, data.address, data.country, data.taxId], [null, null, null, null]);
  });

  test('bad IBAN, BIC, tax id, locale, country and an unknown placeholder: a 400 naming every field, and nothing changes', async () => {
    const d = await createTenant(t.c);
    const before = (await get(d)).json().data;
    const res = await patch(d, {
      name: 'Changed',
      bankAccount: { iban: 'HR1210010051863000161', bic: 'ZABA', holder: ' ' },
      taxId: '12345678900',
      locale: 'fr-FR',
      country: 'XX',
      printTemplate: { paymentInstructions: 'Poziv na broj {number}, IBAN {iban}', header: 'Za {customer}' },
    });
    const problem = assertProblem(res, 400, 'validation_failed');
    const details = problem.details as Record<string, string[]>;
    for (const field of [
      'bankAccount.iban',
      'bankAccount.bic',
      'bankAccount.holder',
      'taxId',
      'locale',
      'country',
      'printTemplate.paymentInstructions',
      'printTemplate.header',
    ]) {
      assert.ok(details[field]?.length, `${field} in ${JSON.stringify(details)}`);
    }
    assert.match(details['bankAccount.iban']![0]!, /check digits/);
    assert.match(details['printTemplate.paymentInstructions']![0]!, /\{iban\}/);
    assert.doesNotMatch(details['printTemplate.paymentInstructions']![0]!, /Unknown placeholder \{number\}/);
    assert.match(details.locale![0]!, /hr, de, en/);
    assert.deepEqual((await get(d)).json().data, before, 'nothing was saved');

    const malformed = assertProblem(await patch(d, { locale: 'not a tag!' }), 400, 'validation_failed');
    assert.ok(malformed.details.locale);
    // The German tax id's check digit is checked too; a Croatian OIB under country HR.
    assert.ok(assertProblem(await patch(d, { taxId: 'DE136695977' }), 400).details.taxId);
    assert.ok(assertProblem(await patch(d, { country: 'HR', taxId: '12345678900' }), 400).details.taxId);
    assert.ok(
      assertProblem(await patch(d, { bankAccount: { iban: 'HR12100100518630001600', holder: 'X' } }), 400).details[
        'bankAccount.iban'
      ],
    );
    assert.ok(assertProblem(await patch(d, { unknown: 1 }), 400));
  });

  test("tenancy: one company's settings never touch another's", async () => {
    const [a, b] = [await createTenant(t.c), await createTenant(t.c)];
    const bBefore = (await get(b)).json().data;
    assert.equal((await patch(a, { locale: 'en-GB', bankAccount: null })).statusCode, 200);
    assert.deepEqual((await get(b)).json().data, bBefore);
  });
});
