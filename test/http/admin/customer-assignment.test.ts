// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { line } from '../../support/quote-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const ADMIN = '/api/v1/admin';

type Kind = 'quotation' | 'order';
const PATH: Record<Kind, string> = { quotation: 'quotations', order: 'orders' };

function call(t: TestApp, token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url: `${ADMIN}${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function customer(t: TestApp, d: DemoCompany, body: object): Promise<Record<string, any>> {
  const res = await call(t, d.adminToken, 'POST', '/customers', { kind: 'person', ...body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

const PLACEHOLDER = { name: 'Ivan Horvat', email: 'Ivan.Horvat@example.com', phone: '091 234 5678' };

/** A quotation (JSON) or web order created through the public API, as a website would. */
async function document(
  t: TestApp,
  d: DemoCompany,
  kind: Kind,
  placeholder: Record<string, string> = PLACEHOLDER,
): Promise<Record<string, any>> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/public/${kind === 'quotation' ? 'quotes' : 'orders'}`,
    headers: bearer(d.locations[0]!.apiKey),
    payload:
      kind === 'quotation'
        ? { format: 'json', customer: placeholder, lines: [line(d, 0)] }
        : { customer: placeholder, lines: [line(d, 0)] },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

/** Settles a document the way converting or cancelling it will (those routes belong to the sales desk). */
async function setStatus(t: TestApp, kind: Kind, id: string, status: string): Promise<void> {
  await t.c.database.db
    .updateTable(kind === 'quotation' ? 'quotations' : 'orders')
    .set({ status })
    .where('id', '=', id)
    .execute();
}

async function customerCount(t: TestApp, d: DemoCompany): Promise<number> {
  const res = await call(t, d.adminToken, 'GET', '/customers?limit=100');
  return res.json().data.length;
}

describe('assigning a directory customer to quotations and web orders', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  for (const kind of ['quotation', 'order'] as const) {
    test(`${kind}: matches ranked by tax id, e-mail, phone and name, each with reasons; other companies' customers never appear`, async () => {
      const d = await createTenant(t.c);
      const e = await createTenant(t.c);
      const byEmail = await customer(t, d, { name: 'I. H. Obrt', email: 'ivan.horvat@EXAMPLE.com' });
      const byPhone = await customer(t, d, { name: 'Marija Kovač', phone: '+385 91 234 5678' });
      const byName = await customer(t, d, { name: 'Horvat Ivan' });
      const typo = await customer(t, d, { name: 'Ivan Horvath', email: 'other@example.com' });
      await customer(t, d, { name: 'Ana Kovač', email: 'ana@example.com', phone: '01 555 1000' });
      await customer(t, d, { name: 'Ivana Horvatić' });
      await customer(t, e, { name: 'Ivan Horvat', email: 'ivan.horvat@example.com', phone: '091 234 5678' });
      const doc = await document(t, d, kind);

      const res = await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${doc.id}/customer-matches`);
      assert.equal(res.statusCode, 200, res.body);
      const matches = res.json().data as Array<{
        customer: { id: string; name: string };
        score: number;
        reasons: string[];
        nameSimilarity: number;
      }>;
      assert.deepEqual(
        matches.map((m) => [m.customer.id, m.reasons]),
        [
          [byEmail.id, ['same_email']],
          [byPhone.id, ['same_phone']],
          [byName.id, ['similar_name']],
          [typo.id, ['similar_name']],
        ],
      );
      assert.deepEqual(
        matches.map((m) => m.nameSimilarity),
        [0, 0, 1, 1],
      );
      assert.ok(matches[0]!.score > matches[1]!.score && matches[1]!.score > matches[2]!.score);
      assert.deepEqual(matches[0]!.customer, byEmail, 'the whole customer, as GET /customers/{id} shows it');

      // A document with nothing alike has no suggestions.
      const stranger = await document(t, d, kind, {
        name: 'Zoran Zorić',
        email: 'zz@example.net',
        phone: '+49 30 1234567',
      });
      assert.deepEqual(
        (await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${stranger.id}/customer-matches`)).json().data,
        [],
      );
    });

    test(`${kind}: assign an existing customer, then another; the placeholder stays as it arrived; the public API does not show it`, async () => {
      const d = await createTenant(t.c);
      const doc = await document(t, d, kind);
      const first = await customer(t, d, { name: 'Horvat Ivan', email: 'ivan@horvat.example' });
      const second = await customer(t, d, { kind: 'business', name: 'Horvat obrt' });

      const res = await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${doc.id}/customer`, { customerId: first.id });
      assert.equal(res.statusCode, 200, res.body);
      const assigned = res.json().data;
      assert.equal(assigned.id, doc.id);
      assert.deepEqual(assigned.directoryCustomer, { id: first.id, name: 'Horvat Ivan' });
      assert.deepEqual(assigned.customer, doc.customer, 'the placeholder is kept');
      assert.deepEqual((await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${doc.id}`)).json().data, assigned);

      const again = await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${doc.id}/customer`, { customerId: second.id });
      assert.deepEqual(again.json().data.directoryCustomer, { id: second.id, name: 'Horvat obrt' });
      // The name shown is the directory's current one.
      await t.app.inject({
        method: 'PATCH',
        url: `${ADMIN}/customers/${second.id}`,
        headers: bearer(d.adminToken),
        payload: { name: 'Horvat obrt za bojanje' },
      });
      assert.deepEqual((await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${doc.id}`)).json().data.directoryCustomer, {
        id: second.id,
        name: 'Horvat obrt za bojanje',
      });

      const publicUrl = `/api/v1/public/${kind === 'quotation' ? 'quotes' : 'orders'}/${doc.id}`;
      const pub = await t.app.inject({ method: 'GET', url: publicUrl, headers: bearer(d.locations[0]!.apiKey) });
      assert.equal(pub.statusCode, 200, pub.body);
      assert.equal('directoryCustomer' in pub.json().data, false, pub.body);
      assert.deepEqual(pub.json().data.customer, doc.customer);

      if (kind === 'order') {
        const list = (await call(t, d.adminToken, 'GET', '/orders')).json().data as Array<{
          id: string;
          directoryCustomer: unknown;
        }>;
        assert.deepEqual(list.find((o) => o.id === doc.id)!.directoryCustomer, {
          id: second.id,
          name: 'Horvat obrt za bojanje',
        });
      } else {
        const unassigned = await document(t, d, kind);
        assert.equal(
          (await call(t, d.adminToken, 'GET', `/quotations/${unassigned.id}`)).json().data.directoryCustomer,
          null,
        );
      }
    });

    test(`${kind}: a new customer made from the placeholder and linked in one step; a clashing tax id creates and links nothing`, async () => {
      const d = await createTenant(t.c);
      const doc = await document(t, d, kind);
      const res = await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${doc.id}/customer`, { newCustomer: {} });
      assert.equal(res.statusCode, 200, res.body);
      const made = res.json().data.directoryCustomer;
      assert.equal(made.name, 'Ivan Horvat');
      const stored = (await call(t, d.adminToken, 'GET', `/customers/${made.id}`)).json().data;
      assert.deepEqual(
        [stored.kind, stored.name, stored.email, stored.phone, stored.taxId],
        ['person', 'Ivan Horvat', 'Ivan.Horvat@example.com', '091 234 5678', null],
      );

      const business = await document(t, d, kind);
      const overridden = await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${business.id}/customer`, {
        newCustomer: {
          kind: 'business',
          name: 'Horvat d.o.o.',
          taxId: 'HR94843213570',
          phone: null,
          address: { street: 'Ilica 5', postalCode: '10000', city: 'Zagreb', country: 'HR' },
        },
      });
      assert.equal(overridden.statusCode, 200, overridden.body);
      const company = (
        await call(t, d.adminToken, 'GET', `/customers/${overridden.json().data.directoryCustomer.id}`)
      ).json().data;
      assert.deepEqual(
        [company.kind, company.name, company.email, company.phone, company.taxId],
        ['business', 'Horvat d.o.o.', 'Ivan.Horvat@example.com', null, 'HR94843213570'],
      );

      const before = await customerCount(t, d);
      const third = await document(t, d, kind);
      const clash = assertProblem(
        await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${third.id}/customer`, {
          newCustomer: { taxId: '94843213570' },
        }),
        409,
        'conflict',
      );
      assert.ok(clash.details?.['newCustomer.taxId'], JSON.stringify(clash));
      const invalid = assertProblem(
        await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${third.id}/customer`, {
          newCustomer: { taxId: '94843213571' },
        }),
        400,
        'validation_failed',
      );
      assert.ok(invalid.details?.['newCustomer.taxId'], JSON.stringify(invalid));
      assert.equal(await customerCount(t, d), before);
      assert.equal(
        (await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${third.id}`)).json().data.directoryCustomer,
        null,
      );
    });

    test(`${kind}: refusals: no body, both forms, unknown or foreign customer, a settled document, another company's document`, async () => {
      const d = await createTenant(t.c);
      const e = await createTenant(t.c);
      const doc = await document(t, d, kind);
      const mine = await customer(t, d, { name: 'Moj Kupac' });
      const theirs = await customer(t, e, { name: 'Tuđi Kupac', email: 'ivan.horvat@example.com' });
      const url = `/${PATH[kind]}/${doc.id}/customer`;

      assertProblem(await call(t, d.adminToken, 'PUT', url, {}), 400, 'validation_failed');
      assertProblem(
        await call(t, d.adminToken, 'PUT', url, { customerId: mine.id, newCustomer: {} }),
        400,
        'validation_failed',
      );
      assertProblem(
        await call(t, d.adminToken, 'PUT', url, { newCustomer: { kind: 'robot' } }),
        400,
        'validation_failed',
      );
      assert.ok(
        assertProblem(await call(t, d.adminToken, 'PUT', url, { customerId: 'cus_nope' }), 400, 'validation_failed')
          .details?.customerId,
      );
      // Another company's customer id is no customer here.
      assert.ok(
        assertProblem(await call(t, d.adminToken, 'PUT', url, { customerId: theirs.id }), 400, 'validation_failed')
          .details?.customerId,
      );
      assert.equal(
        (await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${doc.id}`)).json().data.directoryCustomer,
        null,
      );

      // Another company's document, or none at all: not found, for reading matches and for assigning.
      const foreign = await document(t, e, kind);
      for (const id of [foreign.id, 'nope_123']) {
        assertProblem(await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${id}/customer-matches`), 404, 'not_found');
        assertProblem(
          await call(t, d.adminToken, 'PUT', `/${PATH[kind]}/${id}/customer`, { customerId: mine.id }),
          404,
          'not_found',
        );
      }
      assert.equal(
        (await call(t, e.adminToken, 'GET', `/${PATH[kind]}/${foreign.id}`)).json().data.directoryCustomer,
        null,
      );

      // Still open in every open state; refused once settled, and a refused newCustomer creates nothing.
      if (kind === 'order') {
        await setStatus(t, kind, doc.id, 'accepted');
        assert.equal((await call(t, d.adminToken, 'PUT', url, { customerId: mine.id })).statusCode, 200);
      }
      const code = kind === 'quotation' ? 'quotation_not_open' : 'order_not_open';
      for (const status of ['converted', 'cancelled']) {
        await setStatus(t, kind, doc.id, status);
        const before = await customerCount(t, d);
        assertProblem(await call(t, d.adminToken, 'PUT', url, { customerId: mine.id }), 409, code);
        assertProblem(await call(t, d.adminToken, 'PUT', url, { newCustomer: {} }), 409, code);
        assert.equal(await customerCount(t, d), before);
      }
      const settled = (await call(t, d.adminToken, 'GET', `/${PATH[kind]}/${doc.id}`)).json().data;
      assert.deepEqual(settled.directoryCustomer, kind === 'order' ? { id: mine.id, name: 'Moj Kupac' } : null);
    });
  }

  test('roles: support reads matches but may not assign; staff assigns', async () => {
    const d = await createTenant(t.c);
    const doc = await document(t, d, 'quotation');
    const someone = await customer(t, d, { name: 'Ivan Horvat' });
    const support = await tokenForRole(t.c, d, 'support');
    const staff = await tokenForRole(t.c, d, 'staff');
    assert.equal((await call(t, support, 'GET', `/quotations/${doc.id}/customer-matches`)).statusCode, 200);
    assertProblem(
      await call(t, support, 'PUT', `/quotations/${doc.id}/customer`, { customerId: someone.id }),
      403,
      'forbidden',
    );
    assert.equal(
      (await call(t, staff, 'PUT', `/quotations/${doc.id}/customer`, { customerId: someone.id })).statusCode,
      200,
    );
  });
});
