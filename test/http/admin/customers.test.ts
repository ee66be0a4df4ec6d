// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import type { AppError } from '../../../src/lib/errors.ts';

const ADMIN = '/api/v1/admin';

function call(t: TestApp, token: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({ method, url: `${ADMIN}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function create(t: TestApp, d: DemoCompany, body: object): Promise<Record<string, any>> {
  const res = await call(t, d.adminToken, 'POST', '/customers', body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

/** Every page of a search, following nextCursor with a small page size. */
async function searchAll(t: TestApp, d: DemoCompany, q: string, limit = 2): Promise<string[]> {
  const names: string[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/customers?q=${encodeURIComponent(q)}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await call(t, d.adminToken, 'GET', url);
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json();
    assert.ok(page.data.length <= limit);
    names.push(...page.data.map((c: { name: string }) => c.name));
    cursor = page.nextCursor;
  } while (cursor);
  return names;
}

describe('customer directory', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('create, read and change a customer; the tax id is checked and normalised, Location names the customer', async () => {
    const d = await createTenant(t.c);
    const res = await call(t, d.adminToken, 'POST', '/customers', {
      kind: 'business',
      name: '  Kovačević d.o.o. ',
      taxId: 'HR 6982940101-2',
      email: 'Ured@Kovacevic.example',
      phone: '091 234 5678',
      address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'hr' },
      note: 'Pays on delivery',
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json().data;
    assert.match(created.id, /^cus_/);
    assert.equal(res.headers.location, `${ADMIN}/customers/${created.id}`);
    assert.deepEqual(
      { ...created, createdAt: undefined, updatedAt: undefined },
      {
        id: created.id,
        kind: 'business',
        name: 'Kovačević d.o.o.',
        taxId: 'HR69829401012',
        email: 'Ured@Kovacevic.example',
        phone: '091 234 5678',
        address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'HR' },
        note: 'Pays on delivery',
        electronicAddress: null,
        buyerReference: null,
        language: null,
        paymentTermsDays: null,
        createdAt: undefined,
        updatedAt: undefined,
      },
    );
    assert.deepEqual((await call(t, d.adminToken, 'GET', `/customers/${created.id}`)).json().data, created);

    // The customer's language: one of the catalogs' (null: the company's), kept until changed.
    const german = await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, { language: 'de' });
    assert.equal(german.statusCode, 200, german.body);
    assert.equal(german.json().data.language, 'de');
    const unknownLanguage = await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, { language: 'fr' });
    assert.equal(unknownLanguage.statusCode, 400, unknownLanguage.body);
    assert.ok(unknownLanguage.json().details.language, unknownLanguage.body);
    await assert.rejects(t.c.customers.update(d.companyId, created.id, { language: 'it' }), (e: AppError) => {
      assert.equal(e.code, 'validation_failed');
      assert.equal(e.detailKeys?.language?.[0]?.key, 'error.customer.language');
      return true;
    });
    assert.equal((await t.c.customers.get(d.companyId, created.id)).language, 'de', 'a refused change changes nothing');
    assert.equal(
      (await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, { language: null })).json().data.language,
      null,
    );

    // Where its e-invoices go and the reference it wants on them (EN 16931 BT-49, BT-10).
    const addressed = await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, {
      electronicAddress: { id: '69829401012', scheme: '9934' },
      buyerReference: 'NAR-2026-17',
    });
    assert.equal(addressed.statusCode, 200, addressed.body);
    assert.deepEqual(addressed.json().data.electronicAddress, { id: '69829401012', scheme: '9934' });
    assert.equal(addressed.json().data.buyerReference, 'NAR-2026-17');
    const badAddress = await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, {
      electronicAddress: { id: 'not-an-email', scheme: 'EM' },
    });
    assert.equal(badAddress.statusCode, 400, badAddress.body);
    assert.ok(badAddress.json().details['electronicAddress.id']);
    const cleared = await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, {
      electronicAddress: null,
      buyerReference: null,
    });
    assert.equal(cleared.json().data.electronicAddress, null);

    const patched = await call(t, d.adminToken, 'PATCH', `/customers/${created.id}`, {
      name: 'Kovačević i sinovi d.o.o.',
      note: null,
      address: null,
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const changed = patched.json().data;
    assert.equal(changed.name, 'Kovačević i sinovi d.o.o.');
    assert.equal(changed.note, null);
    assert.equal(changed.address, null);
    assert.equal(changed.taxId, 'HR69829401012', 'fields left out stay');
    assert.equal(changed.createdAt, created.createdAt);
    assert.deepEqual((await call(t, d.adminToken, 'GET', `/customers/${created.id}`)).json().data, changed);

    // The service's get, as the sales desk uses it.
    const viaService = await t.c.customers.get(d.companyId, created.id);
    assert.equal(viaService.name, 'Kovačević i sinovi d.o.o.');

    const person = await create(t, d, { kind: 'person', name: 'Ana Horvat' });
    assert.deepEqual(
      [person.taxId, person.email, person.phone, person.address, person.note],
      [null, null, null, null, null],
    );
  });

  test('bad input is a 400 naming each field: check digits, formats, kinds, unknown fields', async () => {
    const d = await createTenant(t.c);
    const bad = async (body: object, field: string, method: 'POST' | 'PATCH' = 'POST', url = '/customers') => {
      const problem = assertProblem(await call(t, d.adminToken, method, url, body), 400, 'validation_failed');
      assert.ok(problem.details?.[field], `${field} named in ${JSON.stringify(problem.details)}`);
    };
    await bad({ kind: 'person', name: 'Ana', taxId: '69829401013' }, 'taxId'); // OIB check digit off by one, company in Croatia
    await bad({ kind: 'person', name: 'Ana', taxId: 'HR123' }, 'taxId');
    await bad({ kind: 'business', name: 'Farben GmbH', taxId: 'DE123456789' }, 'taxId'); // German VAT id, wrong check digit
    await bad({ kind: 'person', name: 'Ana', email: 'not-an-address' }, 'email');
    await bad({ kind: 'person', name: 'Ana', phone: 'call me' }, 'phone');
    await bad({ kind: 'robot', name: 'Ana' }, 'kind');
    await bad({ kind: 'person', name: '   ' }, 'name');
    await bad({ kind: 'person' }, 'name');
    await bad({ kind: 'person', name: 'Ana', colour: 'red' }, 'colour');
    await bad(
      {
        kind: 'person',
        name: 'Ana',
        address: { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'Croatia' },
      },
      'address.country',
    );
    await bad(
      { kind: 'person', name: 'Ana', address: { street: 'Ilica 1', city: 'Zagreb', country: 'HR' } },
      'address.postalCode',
    );
    // The same German id with its right check digit passes, and an 11-digit number of a customer abroad is not an OIB.
    assert.equal(
      (await create(t, d, { kind: 'business', name: 'Farben GmbH', taxId: 'DE 123 456 788' })).taxId,
      'DE123456788',
    );
    const abroad = await create(t, d, {
      kind: 'person',
      name: 'Hans',
      taxId: '12345678901',
      address: { street: 'Hauptstr. 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
    });
    assert.equal(abroad.taxId, '12345678901');

    // A customer without an address is taken to be in the company's country: 11 digits are an OIB there.
    const iva = await create(t, d, { kind: 'person', name: 'Iva' });
    await bad({ taxId: '69829401013' }, 'taxId', 'PATCH', `/customers/${iva.id}`);
    await bad({ name: null }, 'name', 'PATCH', `/customers/${iva.id}`);
    await bad({ phone: '12' }, 'phone', 'PATCH', `/customers/${iva.id}`);
    assert.equal(
      (await call(t, d.adminToken, 'GET', `/customers/${iva.id}`)).json().data.taxId,
      null,
      'a refused change changes nothing',
    );
    assertProblem(await call(t, d.adminToken, 'GET', '/customers?limit=0'), 400, 'validation_failed');
    assertProblem(await call(t, d.adminToken, 'GET', '/customers?cursor=garbage'), 400, 'validation_failed');
  });

  test("one company's tax ids are unique, however they are spelled, and another company may hold the same one", async () => {
    const d = await createTenant(t.c);
    const first = await create(t, d, { kind: 'business', name: 'Boje d.o.o.', taxId: '94843213570' });
    const clash = assertProblem(
      await call(t, d.adminToken, 'POST', '/customers', {
        kind: 'business',
        name: 'Boje 2',
        taxId: 'HR 948-432-135-70',
      }),
      409,
      'conflict',
    );
    assert.ok(clash.details?.taxId, JSON.stringify(clash));
    const other = await create(t, d, { kind: 'business', name: 'Lakovi d.o.o.', taxId: '23456789013' });
    const patchClash = assertProblem(
      await call(t, d.adminToken, 'PATCH', `/customers/${other.id}`, { taxId: 'HR94843213570' }),
      409,
      'conflict',
    );
    assert.ok(patchClash.details?.taxId);
    assert.equal(
      (await call(t, d.adminToken, 'GET', `/customers/${other.id}`)).json().data.taxId,
      '23456789013',
      'a refused change changes nothing',
    );
    // Clearing it frees it.
    assert.equal((await call(t, d.adminToken, 'PATCH', `/customers/${first.id}`, { taxId: null })).statusCode, 200);
    assert.equal(
      (await call(t, d.adminToken, 'PATCH', `/customers/${other.id}`, { taxId: 'HR94843213570' })).json().data.taxId,
      'HR94843213570',
    );

    const e = await createTenant(t.c);
    await create(t, e, { kind: 'business', name: 'Boje d.o.o.', taxId: '94843213570' });
  });

  test('two concurrent creates with one tax id: exactly one is created, the other is a 409 naming taxId', async () => {
    const d = await createTenant(t.c);
    for (let round = 0; round < 3; round++) {
      const taxId = ['12345678903', '69829401012', '11111111119'][round]!;
      const results = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          call(t, d.adminToken, 'POST', '/customers', { kind: 'business', name: `Racer ${round}.${i}`, taxId }),
        ),
      );
      const created = results.filter((r) => r.statusCode === 201);
      assert.equal(created.length, 1, results.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
      for (const r of results.filter((x) => x.statusCode !== 201))
        assert.ok(assertProblem(r, 409, 'conflict').details?.taxId);
    }
    assert.equal((await searchAll(t, d, '', 100)).length, 3);
  });

  test('search: name prefix with diacritics and case folded, e-mail, phone in any spelling, tax id; keyset pages in key order', async () => {
    const d = await createTenant(t.c);
    const names = [
      'Kovačević, Ana',
      'Kovač Ivan',
      'kovacs Béla',
      'Horvat Marko',
      'Horvath GmbH',
      'Đurđević Iva',
      'Novak d.o.o.',
    ];
    const customers: Record<string, Record<string, any>> = {};
    for (const [i, name] of names.entries()) {
      customers[name] = await create(t, d, {
        kind: 'person',
        name,
        email: `person${i}@Example.COM`,
        phone: i === 3 ? '+385 91 234 5678' : `01 555 ${String(1000 + i)}`,
        ...(i === 6 ? { kind: 'business', taxId: 'HR 23456789013' } : {}),
      });
    }
    assert.deepEqual(await searchAll(t, d, 'kova'), ['Kovač Ivan', 'Kovačević, Ana', 'kovacs Béla']);
    assert.deepEqual(await searchAll(t, d, 'KOVAČ '), ['Kovač Ivan', 'Kovačević, Ana', 'kovacs Béla']);
    assert.deepEqual(await searchAll(t, d, 'kovacevic a'), ['Kovačević, Ana']);
    assert.deepEqual(await searchAll(t, d, 'durd'), ['Đurđević Iva']);
    assert.deepEqual(await searchAll(t, d, 'horvat'), ['Horvat Marko', 'Horvath GmbH']);
    assert.deepEqual(await searchAll(t, d, 'zzz'), []);
    assert.deepEqual((await searchAll(t, d, '', 3)).length, names.length);
    // E-mail: case ignored, by its start.
    assert.deepEqual(await searchAll(t, d, 'PERSON3@example.com'), ['Horvat Marko']);
    assert.deepEqual((await searchAll(t, d, 'person')).length, 0, 'without an @ it is a name');
    assert.deepEqual(await searchAll(t, d, 'person1@'), ['Kovač Ivan']);
    // Phone: every spelling of the number, and a partly typed one by its start.
    for (const q of ['091 234 5678', '+385912345678', '00385 91 234-5678', '(091) 234 56', '+385 91']) {
      assert.deepEqual(await searchAll(t, d, q), ['Horvat Marko'], q);
    }
    assert.deepEqual((await searchAll(t, d, '01 555')).length, names.length - 1);
    // Tax id: with or without HR, separators ignored, by its start.
    for (const q of ['23456789013', 'HR 2345', '234-567'])
      assert.deepEqual(await searchAll(t, d, q), ['Novak d.o.o.'], q);

    // A cursor of another search is refused rather than misread.
    const page = (await call(t, d.adminToken, 'GET', '/customers?q=kova&limit=1')).json();
    assertProblem(
      await call(t, d.adminToken, 'GET', `/customers?q=person@&limit=1&cursor=${encodeURIComponent(page.nextCursor)}`),
      400,
      'validation_failed',
    );
    assertProblem(
      await call(t, d.adminToken, 'GET', `/customers?q=horvat&limit=1&cursor=${encodeURIComponent(page.nextCursor)}`),
      400,
      'validation_failed',
    );
    // Tax ids page by the key alone.
    const vienna = { street: 'Ring 1', postalCode: '1010', city: 'Wien', country: 'AT' };
    await create(t, d, { kind: 'business', name: 'Prvi', taxId: '23456789', address: vienna });
    await create(t, d, { kind: 'business', name: 'Treći', taxId: '2345678901', address: vienna });
    assert.deepEqual(await searchAll(t, d, '2345', 1), ['Prvi', 'Treći', 'Novak d.o.o.']);
  });

  test('roles: support reads but does not create or change; staff creates and changes', async () => {
    const d = await createTenant(t.c);
    const support = await tokenForRole(t.c, d, 'support');
    const staff = await tokenForRole(t.c, d, 'staff');
    const res = await call(t, staff, 'POST', '/customers', { kind: 'person', name: 'Staff made' });
    assert.equal(res.statusCode, 201);
    const id = res.json().data.id;
    assert.equal((await call(t, staff, 'PATCH', `/customers/${id}`, { note: 'regular' })).statusCode, 200);
    assert.equal((await call(t, support, 'GET', `/customers/${id}`)).json().data.note, 'regular');
    assertProblem(await call(t, support, 'POST', '/customers', { kind: 'person', name: 'Nope' }), 403, 'forbidden');
    assertProblem(await call(t, support, 'PATCH', `/customers/${id}`, { note: 'nope' }), 403, 'forbidden');
  });

  test("tenancy: another company's customer is not found, not listed and cannot be changed", async () => {
    const d = await createTenant(t.c);
    const e = await createTenant(t.c);
    const theirs = await create(t, e, {
      kind: 'person',
      name: 'Tuđi Kupac',
      email: 'tudji@example.com',
      taxId: '12345678903',
    });
    assertProblem(await call(t, d.adminToken, 'GET', `/customers/${theirs.id}`), 404, 'not_found');
    assertProblem(
      await call(t, d.adminToken, 'PATCH', `/customers/${theirs.id}`, { name: 'Mine now' }),
      404,
      'not_found',
    );
    for (const q of ['tudji', 'tudji@example.com', '12345678903', ''])
      assert.deepEqual(await searchAll(t, d, q), [], q);
    assert.equal((await call(t, e.adminToken, 'GET', `/customers/${theirs.id}`)).json().data.name, 'Tuđi Kupac');
    await assert.rejects(t.c.customers.get(d.companyId, theirs.id), /not found/);
  });
});
