// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { assertProblem, validReachOut } from '../support/http-helpers.ts';
import { line } from '../support/quote-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/** Names every plain object inherits: a map of field errors built on `{}` finds them before any field does. */
const BUILT_INS = [
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  '__proto__',
  'propertyIsEnumerable',
  'toLocaleString',
];

const PAGINATED = [
  ['public', '/api/v1/public/products'],
  ['admin', '/api/v1/admin/products'],
  ['admin', '/api/v1/admin/inquiries'],
  ['admin', '/api/v1/admin/notifications'],
  ['admin', '/api/v1/admin/orders'],
] as const;

/** Texts a query coercion could turn into a number outside the schema's reach, or a number nobody meant. */
const BAD_NUMBER_TEXT = [
  'Infinity',
  '-Infinity',
  '+Infinity',
  '1e400',
  '-1e400',
  '9'.repeat(400),
  'NaN',
  '0x10',
  '0b11',
  '1e1',
  ' 5',
  '5 ',
  '1_0',
];

describe('hostile input: built-in names, non-finite numbers, empty ids, error floods, enum messages', () => {
  let t: TestApp;
  let d: DemoCompany;
  let key: string;
  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c);
    key = d.locations[0]!.apiKey;
  });
  after(() => t.close());

  const tokenFor = (api: 'public' | 'admin') => (api === 'public' ? key : d.adminToken);

  test('a body field named like an Object built-in is a 400 naming it, on bodies and query strings', async () => {
    for (const name of BUILT_INS) {
      // Written as text: an object literal's `__proto__` would set its prototype instead of a field.
      const body = `{"topic":"x",${JSON.stringify(name)}:1}`;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/reach-out',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: body,
      });
      const problem = assertProblem(res, 400, 'validation_failed');
      assert.deepEqual(problem.details[name], ['Is not a known field.'], `${name}: ${res.body}`);
      // The JSON parser refuses `__proto__` before validation, so only it is named; any other is judged with the rest.
      if (name !== '__proto__') assert.deepEqual(problem.details.subject, ['Is required.']);

      const query = await t.app.inject({
        method: 'GET',
        url: `/api/v1/public/products?${encodeURIComponent(name)}=1`,
        headers: bearer(key),
      });
      assert.deepEqual(
        assertProblem(query, 400, 'validation_failed').details[name],
        ['Is not a known field.'],
        `?${name}: ${query.body}`,
      );

      const nested = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: { ...bearer(key), 'content-type': 'application/json' },
        payload: `{"format":"json","customer":{"name":"Ana",${JSON.stringify(name)}:1},"lines":[${JSON.stringify(line(d, 0)).slice(0, -1)},${JSON.stringify(name)}:2}]}`,
      });
      const nestedDetails = assertProblem(nested, 400, 'validation_failed').details;
      assert.deepEqual(nestedDetails[`customer.${name}`], ['Is not a known field.'], nested.body);
      if (name !== '__proto__')
        assert.deepEqual(nestedDetails[`lines[0].${name}`], ['Is not a known field.'], nested.body);
    }
  });

  test('limit=Infinity, 1e400, 400 nines and other non-decimal numbers are a 400 naming limit on every paginated route', async () => {
    for (const [api, url] of PAGINATED) {
      for (const text of BAD_NUMBER_TEXT) {
        const res = await t.app.inject({
          method: 'GET',
          url: `${url}?limit=${encodeURIComponent(text)}`,
          headers: bearer(tokenFor(api)),
        });
        const problem = assertProblem(res, 400, 'validation_failed');
        assert.ok(problem.details.limit?.length, `${url}?limit=${text.slice(0, 12)}: ${res.body}`);
      }
      for (const text of ['0', '-0', '-1', '101', '9007199254740993', '1.5']) {
        const res = await t.app.inject({ method: 'GET', url: `${url}?limit=${text}`, headers: bearer(tokenFor(api)) });
        assert.ok(
          assertProblem(res, 400, 'validation_failed').details.limit?.length,
          `${url}?limit=${text}: ${res.body}`,
        );
      }
      for (const text of ['1', '100', '007']) {
        const res = await t.app.inject({ method: 'GET', url: `${url}?limit=${text}`, headers: bearer(tokenFor(api)) });
        assert.equal(res.statusCode, 200, `${url}?limit=${text}: ${res.body}`);
      }
    }
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/webhooks',
      headers: bearer(d.adminToken),
      payload: { kind: 'http', url: 'https://hooks.example.com/in' },
    });
    assert.equal(webhook.statusCode, 201, webhook.body);
    const deliveries = `/api/v1/admin/webhooks/${webhook.json().data.id}/deliveries`;
    for (const text of BAD_NUMBER_TEXT) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${deliveries}?limit=${encodeURIComponent(text)}`,
        headers: bearer(d.adminToken),
      });
      assert.ok(
        assertProblem(res, 400, 'validation_failed').details.limit?.length,
        `deliveries?limit=${text.slice(0, 12)}: ${res.body}`,
      );
    }
  });

  test('numbers in bodies: non-finite, -0, beyond 2^53 and exponents are judged, never a 500', async () => {
    const json = { ...bearer(key), 'content-type': 'application/json' };
    const quoteWith = (quantity: string) =>
      `{"format":"json","customer":{"name":"Ana"},"lines":[{"productId":"${d.products[0]!.id}","unitId":"${d.products[0]!.units[0]!.id}","quantity":${quantity}}]}`;
    for (const quantity of ['1e400', '-1e400', '-0', '0', '9007199254740993', '1e-7', '1e10', '0.0001']) {
      for (const url of ['/api/v1/public/quotes', '/api/v1/public/orders']) {
        const body = url.endsWith('quotes')
          ? quoteWith(quantity)
          : quoteWith(quantity).replace(
              '"format":"json","customer":{"name":"Ana"}',
              '"customer":{"name":"Ana","email":"ana@example.com","phone":"+385 1 234 5678"}',
            );
        const res = await t.app.inject({ method: 'POST', url, headers: json, payload: body });
        const problem = assertProblem(res, 400, 'validation_failed');
        assert.ok(problem.details['lines[0].quantity']?.length, `${url} quantity ${quantity}: ${res.body}`);
      }
    }
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: json,
      payload: quoteWith('1e1'),
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().data.lines[0].quantity, '10');

    for (const days of ['1e400', '-0', '0', '9007199254740993', '1.5']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/v1/admin/settings',
        headers: { ...bearer(d.adminToken), 'content-type': 'application/json' },
        payload: `{"quotationValidityDays":${days}}`,
      });
      assert.ok(
        assertProblem(res, 400, 'validation_failed').details.quotationValidityDays?.length,
        `days ${days}: ${res.body}`,
      );
    }
  });

  test('an empty-string id is a 400 naming the field, never a foreign-key 500', async () => {
    const admin = { headers: bearer(d.adminToken) };
    const product = d.products[0]!;
    for (const field of ['modelId', 'categoryId', 'taxRateId']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/admin/products/${product.id}`,
        ...admin,
        payload: { [field]: '' },
      });
      assert.ok(
        assertProblem(res, 400, 'validation_failed').details[field]?.length,
        `PATCH product ${field}: ${res.body}`,
      );
    }
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/products',
      ...admin,
      payload: { name: 'Kist', modelId: '', categoryId: '', taxRateId: '', units: [{ name: 'kom', price: '1.00' }] },
    });
    const details = assertProblem(created, 400, 'validation_failed').details;
    for (const field of ['modelId', 'categoryId', 'taxRateId'])
      assert.ok(details[field]?.length, `POST product ${field}: ${created.body}`);

    const category = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/categories',
      ...admin,
      payload: { name: 'Nova', parentId: '' },
    });
    assert.ok(assertProblem(category, 400, 'validation_failed').details.parentId?.length, category.body);
    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/categories/${d.categories[0]!.id}`,
      ...admin,
      payload: { parentId: '' },
    });
    assert.ok(assertProblem(moved, 400, 'validation_failed').details.parentId?.length, moved.body);

    // Null still means "none": clearing a reference is not an empty id.
    const cleared = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/products/${product.id}`,
      ...admin,
      payload: { modelId: null, categoryId: null },
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    assert.equal(cleared.json().data.modelId, null);
    const unchanged = await t.app.inject({ method: 'GET', url: `/api/v1/admin/products/${product.id}`, ...admin });
    assert.equal(unchanged.json().data.taxRateId.length > 0, true);
  });

  test('60,000 unknown fields get the first 50 named and a count of the rest, not megabytes of errors', async () => {
    const body: Record<string, number> = {};
    for (let i = 0; i < 60_000; i++) body[`field${i}`] = 1;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/reach-out',
      headers: bearer(key),
      payload: body,
    });
    const problem = assertProblem(res, 400, 'validation_failed');
    const named = Object.keys(problem.details);
    assert.equal(named.length, 50);
    // The required fields come first: a developer sees what is missing before what is extra.
    for (const field of ['topic', 'subject', 'message']) assert.deepEqual(problem.details[field], ['Is required.']);
    assert.match(problem.detail, /and 59,955 more/);
    assert.ok(res.body.length < 10_000, `${res.body.length} bytes`);

    const few = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/reach-out',
      headers: bearer(key),
      payload: validReachOut({ extra: 1 }),
    });
    const fewProblem = assertProblem(few, 400, 'validation_failed');
    assert.equal(fewProblem.detail, 'The request is invalid.');
    assert.deepEqual(fewProblem.details, { extra: ['Is not a known field.'] });
  });

  test('a mistake in a fixed list of values says which values are allowed', async () => {
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(key),
      payload: { format: 'xml', customer: { name: 'Ana' }, lines: [line(d, 0)] },
    });
    assert.deepEqual(assertProblem(quote, 400, 'validation_failed').details, {
      format: ['Must be one of: pdf, json.'],
    });
    const quoteNumber = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(key),
      payload: { format: 7, customer: { name: 'Ana' }, lines: [line(d, 0)] },
    });
    assert.deepEqual(assertProblem(quoteNumber, 400, 'validation_failed').details, {
      format: ['Must be one of: pdf, json.'],
    });

    const scope = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/catalog-scope',
      headers: bearer(d.adminToken),
      payload: { kind: 'everything' },
    });
    assert.deepEqual(assertProblem(scope, 400, 'validation_failed').details, {
      kind: ['Must be one of: all, products, categories, models.'],
    });

    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/webhooks',
      headers: bearer(d.adminToken),
      payload: { kind: 'smtp', url: 'https://hooks.example.com/in' },
    });
    assert.deepEqual(assertProblem(webhook, 400, 'validation_failed').details, {
      kind: ['Must be one of: http, telegram.'],
    });

    // A nullable field says what is wrong with the value, not that it is not null.
    const sku = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/products/${d.products[0]!.id}`,
      headers: bearer(d.adminToken),
      payload: { sku: 'x'.repeat(500) },
    });
    assert.deepEqual(assertProblem(sku, 400, 'validation_failed').details, {
      sku: ['Must be at most 100 characters.'],
    });
  });
});
