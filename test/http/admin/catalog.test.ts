// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { buildSampleDatasheet } from '../../../src/modules/printing/index.ts';

const ADMIN = '/api/v1/admin';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

function call(t: TestApp, d: DemoCompany, method: Method, url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: bearer(d.adminToken),
    ...(payload ? { payload } : {}),
  });
}

/** A problem response with this status and code; returns its `details`. */
function problem(res: LightMyRequestResponse, status: number, code: string): Record<string, string[]> {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.code, code);
  return body.details ?? {};
}

describe('catalog administration', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('categories: list, rename, move, no cycles, delete only when empty', async () => {
    const d = await createTenant(t.c);
    const [paint, woodPaint, tools] = [d.categories[0]!, d.categories[1]!, d.categories[2]!];
    const list = await call(t, d, 'GET', '/categories');
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      new Set(list.json().data.map((c: { id: string }) => c.id)),
      new Set(d.categories.map((c) => c.id)),
    );

    const renamed = await call(t, d, 'PATCH', `/categories/${tools.id}`, { name: 'Ručni alati' });
    assert.equal(renamed.statusCode, 200, renamed.body);
    assert.deepEqual(renamed.json().data, { id: tools.id, name: 'Ručni alati', parentId: null });

    const moved = await call(t, d, 'PATCH', `/categories/${tools.id}`, { parentId: paint.id });
    assert.deepEqual(moved.json().data, { id: tools.id, name: 'Ručni alati', parentId: paint.id });
    assert.deepEqual(
      (await call(t, d, 'PATCH', `/categories/${tools.id}`, { parentId: null })).json().data.parentId,
      null,
    );

    // Under its own child, or under itself: the tree would become a loop.
    assert.ok(
      problem(
        await call(t, d, 'PATCH', `/categories/${paint.id}`, { parentId: woodPaint.id }),
        400,
        'validation_failed',
      ).parentId,
    );
    assert.ok(
      problem(await call(t, d, 'PATCH', `/categories/${paint.id}`, { parentId: paint.id }), 400, 'validation_failed')
        .parentId,
    );
    assert.ok(
      problem(await call(t, d, 'PATCH', `/categories/${paint.id}`, { parentId: 'cat_nope' }), 400, 'validation_failed')
        .parentId,
    );
    assert.ok(
      problem(
        await call(t, d, 'PATCH', `/categories/${paint.id}`, { name: '  ', colour: 'red' }),
        400,
        'validation_failed',
      ).colour,
    );

    problem(await call(t, d, 'DELETE', `/categories/${woodPaint.id}`), 409, 'conflict'); // holds a product
    const empty = (await call(t, d, 'POST', '/categories', { name: 'Prazno', parentId: woodPaint.id })).json().data;
    problem(await call(t, d, 'DELETE', `/categories/${woodPaint.id}`), 409, 'conflict'); // and now a sub-category
    assert.equal((await call(t, d, 'DELETE', `/categories/${empty.id}`)).statusCode, 204);
    assert.ok(!(await call(t, d, 'GET', '/categories')).json().data.some((c: { id: string }) => c.id === empty.id));
    problem(await call(t, d, 'DELETE', `/categories/${empty.id}`), 404, 'not_found');
  });

  test('models: list, rename, delete only when unused', async () => {
    const d = await createTenant(t.c);
    const chromos = d.models[0]!;
    assert.equal((await call(t, d, 'GET', '/models')).json().data.length, 3);
    assert.deepEqual((await call(t, d, 'PATCH', `/models/${chromos.id}`, { name: 'Chromos Ekol Plus' })).json().data, {
      id: chromos.id,
      name: 'Chromos Ekol Plus',
    });
    assert.ok(problem(await call(t, d, 'PATCH', `/models/${chromos.id}`, {}), 400, 'validation_failed').name);
    problem(await call(t, d, 'DELETE', `/models/${chromos.id}`), 409, 'conflict');
    const unused = (await call(t, d, 'POST', '/models', { name: 'Makita' })).json().data;
    assert.equal((await call(t, d, 'DELETE', `/models/${unused.id}`)).statusCode, 204);
    assert.equal((await call(t, d, 'GET', '/models')).json().data.length, 3);
  });

  test('tax rates: list and change; a bad rate names the field', async () => {
    const d = await createTenant(t.c);
    const rates = (await call(t, d, 'GET', '/tax-rates')).json().data as Array<{
      id: string;
      name: string;
      rate: string;
    }>;
    assert.deepEqual(
      rates.map((r) => r.rate),
      ['5', '25'],
    );
    const reduced = rates[0]!;
    const changed = await call(t, d, 'PATCH', `/tax-rates/${reduced.id}`, { name: 'PDV 13 %', rate: '13' });
    // Issue 20: a rate also carries its VAT-exemption reason (null unless a 0 % rate is given one).
    assert.deepEqual(changed.json().data, { id: reduced.id, name: 'PDV 13 %', rate: '13', exemptionReason: null });
    assert.ok(
      problem(await call(t, d, 'PATCH', `/tax-rates/${reduced.id}`, { rate: '12,5' }), 400, 'validation_failed').rate,
    );
    assert.ok(
      problem(await call(t, d, 'PATCH', `/tax-rates/${reduced.id}`, { rate: '101' }), 400, 'validation_failed').rate,
    );
  });

  test('products: pages by name with a cursor, inactive ones included', async () => {
    const d = await createTenant(t.c);
    await call(t, d, 'DELETE', `/products/${d.products[4]!.id}`);
    const everything = (await call(t, d, 'GET', '/products?limit=100')).json();
    assert.equal(everything.data.length, 7);
    assert.equal(everything.nextCursor, null);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(t, d, 'GET', `/products?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.statusCode, 200, res.body);
      const page = res.json();
      assert.ok(page.data.length <= 3);
      paged.push(...page.data.map((p: { id: string }) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.deepEqual(
      paged,
      everything.data.map((p: { id: string }) => p.id),
      'pages join into the one ordered list',
    );

    const inactive = (await call(t, d, 'GET', '/products?active=false')).json().data;
    assert.deepEqual(
      inactive.map((p: { id: string }) => p.id),
      [d.products[4]!.id],
    );
    assert.equal((await call(t, d, 'GET', '/products?active=true')).json().data.length, 6);
    const bySku = (await call(t, d, 'GET', '/products?q=lak-25')).json().data;
    assert.deepEqual(
      bySku.map((p: { id: string }) => p.id),
      [d.products[1]!.id],
    );
    const inPaint = (await call(t, d, 'GET', `/products?categoryId=${d.categories[0]!.id}`)).json().data;
    assert.equal(inPaint.length, 4, 'a category includes its sub-categories');
    assert.ok(problem(await call(t, d, 'GET', '/products?cursor=garbage'), 400, 'validation_failed').cursor);
  });

  test('products: read with units, change fields, deactivate and reactivate', async () => {
    const d = await createTenant(t.c);
    const lak = d.products[1]!;
    const read = await call(t, d, 'GET', `/products/${lak.id}`);
    assert.equal(read.statusCode, 200, read.body);
    const product = read.json().data;
    assert.equal(product.name, lak.name);
    assert.equal(product.taxRate, '25');
    assert.equal(product.active, true);
    assert.deepEqual(
      product.units,
      lak.units.map((u, i) => ({ ...u, unitCode: ['H87', 'XCT'][i] })),
      'Rec 20 codes: derived from "kom", set on the carton',
    );
    assert.equal(product.classificationCode, '20.30.12');

    const reduced = (await call(t, d, 'GET', '/tax-rates')).json().data.find((r: { rate: string }) => r.rate === '5');
    const res = await call(t, d, 'PATCH', `/products/${lak.id}`, {
      name: 'Lak za parket Žuti čvor, 2,5 L — mat',
      sku: 'LAK-25-ZC-M',
      description: 'Vodeni lak, mat.',
      categoryId: d.categories[1]!.id,
      modelId: null,
      taxRateId: reduced.id,
    });
    assert.equal(res.statusCode, 200, res.body);
    const changed = res.json().data;
    assert.equal(changed.name, 'Lak za parket Žuti čvor, 2,5 L — mat');
    assert.equal(changed.sku, 'LAK-25-ZC-M');
    assert.equal(changed.description, 'Vodeni lak, mat.');
    assert.equal(changed.categoryId, d.categories[1]!.id);
    assert.equal(changed.modelId, null);
    assert.equal(changed.taxRate, '5');
    assert.ok(changed.updatedAt >= product.updatedAt);

    const bad = problem(
      await call(t, d, 'PATCH', `/products/${lak.id}`, { name: '', categoryId: 'cat_nope', price: '1.00' }),
      400,
      'validation_failed',
    );
    assert.ok(bad.name && bad.price);
    assert.ok(
      problem(
        await call(t, d, 'PATCH', `/products/${lak.id}`, { categoryId: 'cat_nope', taxRateId: 'txr_nope' }),
        400,
        'validation_failed',
      ).taxRateId,
    );

    assert.equal((await call(t, d, 'DELETE', `/products/${lak.id}`)).statusCode, 204);
    assert.equal((await call(t, d, 'GET', `/products/${lak.id}`)).json().data.active, false, 'kept, only inactive');
    const key = d.locations[0]!.apiKey;
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/v1/public/products/${lak.id}`, headers: bearer(key) }))
        .statusCode,
      404,
    );
    assert.equal((await call(t, d, 'PATCH', `/products/${lak.id}`, { active: true })).json().data.active, true);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/v1/public/products/${lak.id}`, headers: bearer(key) }))
        .statusCode,
      200,
    );
  });

  test('units: add, rename, reprice, remove; never the last one', async () => {
    const d = await createTenant(t.c);
    const stain = d.products[0]!;
    const added = await call(t, d, 'POST', `/products/${stain.id}/units`, { name: 'karton (6 kom)', price: '70.00' });
    assert.equal(added.statusCode, 201, added.body);
    const unit = added.json().data;
    assert.deepEqual(unit, { id: unit.id, name: 'karton (6 kom)', price: '70.00', unitCode: 'C62' });
    assert.ok(
      problem(
        await call(t, d, 'POST', `/products/${stain.id}/units`, { name: 'kom', price: '1.00' }),
        400,
        'validation_failed',
      ).name,
    );
    assert.ok(
      problem(
        await call(t, d, 'POST', `/products/${stain.id}/units`, { name: 'L', price: '12,40' }),
        400,
        'validation_failed',
      ).price,
    );
    assert.ok(
      problem(
        await call(t, d, 'POST', `/products/${stain.id}/units`, { name: 'L', price: '-1.00' }),
        400,
        'validation_failed',
      ).price,
    );
    const taxRateId = (await call(t, d, 'GET', '/tax-rates')).json().data[0].id;
    const twins = await call(t, d, 'POST', '/products', {
      name: 'X',
      taxRateId,
      units: [
        { name: 'kom', price: '1.00' },
        { name: 'kom', price: '2.00' },
      ],
    });
    assert.ok(problem(twins, 400, 'validation_failed')['units[1].name']);

    const changed = await call(t, d, 'PATCH', `/units/${unit.id}`, { name: 'karton', price: '69.90', unitCode: 'xct' });
    assert.deepEqual(changed.json().data, { id: unit.id, name: 'karton', price: '69.90', unitCode: 'XCT' });
    assert.ok(
      problem(await call(t, d, 'PATCH', `/units/${unit.id}`, { unitCode: 'K-G' }), 400, 'validation_failed').unitCode,
    );
    assert.ok(problem(await call(t, d, 'PATCH', `/units/${unit.id}`, { name: 'kom' }), 400, 'validation_failed').name);
    const units = (await call(t, d, 'GET', `/products/${stain.id}`)).json().data.units;
    assert.deepEqual(
      units.map((u: { name: string }) => u.name),
      ['kom', 'karton'],
    );

    assert.equal((await call(t, d, 'DELETE', `/units/${stain.units[0]!.id}`)).statusCode, 204);
    problem(await call(t, d, 'DELETE', `/units/${unit.id}`), 409, 'conflict');
    assert.deepEqual((await call(t, d, 'GET', `/products/${stain.id}`)).json().data.units, [
      { id: unit.id, name: 'karton', price: '69.90', unitCode: 'XCT' },
    ]);
  });

  test('a new unit price reaches new quotations only', async () => {
    const d = await createTenant(t.c);
    const bosch = d.products[3]!;
    const unit = bosch.units[0]!;
    const key = d.locations[0]!.apiKey;
    const quote = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: bearer(key),
        payload: {
          format: 'json',
          customer: { name: 'Željko Šimić' },
          lines: [{ productId: bosch.id, unitId: unit.id, quantity: 2 }],
        },
      });
    const old = await quote();
    assert.equal(old.statusCode, 201, old.body);
    const oldQuote = old.json().data;
    assert.equal(oldQuote.lines[0].unitPrice, '149.99');

    assert.equal((await call(t, d, 'PATCH', `/units/${unit.id}`, { price: '129.00', name: 'komad' })).statusCode, 200);
    await call(t, d, 'PATCH', `/products/${bosch.id}`, { name: 'GSB 18V-55 (novo)' });

    const again = await t.app.inject({
      method: 'GET',
      url: `/api/v1/public/quotes/${oldQuote.id}`,
      headers: bearer(key),
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(again.json().data.lines, oldQuote.lines, 'the stored quotation keeps its price and names');
    assert.deepEqual(again.json().data.totals, oldQuote.totals);
    const fresh = (await quote()).json().data;
    assert.equal(fresh.lines[0].unitPrice, '129.00');
    assert.equal(fresh.lines[0].unitName, 'komad');
  });

  test("another company's ids are not found, and not usable as references", async () => {
    const mine = await createTenant(t.c);
    const theirs = await createTenant(t.c);
    const product = theirs.products[0]!;
    const unit = product.units[0]!;
    const attempts: Array<[Method, string, object?]> = [
      ['PATCH', `/categories/${theirs.categories[2]!.id}`, { name: 'x' }],
      ['DELETE', `/categories/${theirs.categories[2]!.id}`],
      ['PATCH', `/models/${theirs.models[2]!.id}`, { name: 'x' }],
      ['DELETE', `/models/${theirs.models[2]!.id}`],
      ['GET', `/products/${product.id}`],
      ['PATCH', `/products/${product.id}`, { name: 'x' }],
      ['DELETE', `/products/${product.id}`],
      ['POST', `/products/${product.id}/units`, { name: 'x', price: '1.00' }],
      ['PATCH', `/units/${unit.id}`, { price: '0.01' }],
      ['DELETE', `/units/${unit.id}`],
    ];
    const theirRates = (await call(t, theirs, 'GET', '/tax-rates')).json().data;
    attempts.push(['PATCH', `/tax-rates/${theirRates[0].id}`, { rate: '0' }]);
    for (const [method, url, body] of attempts) problem(await call(t, mine, method, url, body), 404, 'not_found');

    const bad = problem(
      await call(t, mine, 'PATCH', `/products/${mine.products[0]!.id}`, {
        categoryId: theirs.categories[0]!.id,
        modelId: theirs.models[0]!.id,
        taxRateId: theirRates[0].id,
      }),
      400,
      'validation_failed',
    );
    assert.deepEqual(Object.keys(bad).sort(), ['categoryId', 'modelId', 'taxRateId']);
    assert.ok(
      problem(
        await call(t, mine, 'PATCH', `/categories/${mine.categories[2]!.id}`, { parentId: theirs.categories[0]!.id }),
        400,
        'validation_failed',
      ).parentId,
    );

    // Nothing of theirs changed.
    const after = (await call(t, theirs, 'GET', `/products/${product.id}`)).json().data;
    assert.equal(after.name, product.name);
    assert.equal(after.active, true);
    assert.deepEqual(
      after.units.map(({ unitCode: _code, ...u }: { unitCode: string }) => u),
      product.units,
    );
    assert.deepEqual((await call(t, theirs, 'GET', '/tax-rates')).json().data, theirRates);
  });

  test('only admins manage the catalog', async () => {
    const d = await createTenant(t.c);
    const support = d.users.find((u) => u.role === 'support')!;
    const { token } = await t.c.apiKeys.createAdminToken(d.companyId, { userId: support.id, name: 'support' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${ADMIN}/models/${d.models[0]!.id}`,
      headers: bearer(token),
      payload: { name: 'x' },
    });
    problem(res, 403, 'forbidden');
    problem(
      await t.app.inject({ method: 'GET', url: `${ADMIN}/products`, headers: bearer(d.locations[0]!.apiKey) }),
      403,
      'forbidden',
    );
  });
});

describe('datasheet upload', () => {
  let t: TestApp;
  let d: DemoCompany;
  let pdf: Buffer;
  before(async () => {
    t = await createTestApp({ DATASHEET_MAX_BYTES: '2048' });
    d = await createTenant(t.c);
    pdf = await buildSampleDatasheet('Lak za parket Žuti čvor', ['Two coats.', 'Dries in 4 h.']);
    assert.ok(pdf.length < 2048, 'the sample fits under the test limit');
  });
  after(() => t.close());

  const put = (productId: string, body: Buffer | string, contentType: string, token = d.adminToken) =>
    t.app.inject({
      method: 'PUT',
      url: `${ADMIN}/products/${productId}/datasheet?filename=lak.pdf`,
      headers: { ...bearer(token), 'content-type': contentType },
      payload: body,
    });

  test('a real PDF is stored and served back byte for byte', async () => {
    const product = d.products[1]!;
    const res = await put(product.id, pdf, 'application/pdf');
    assert.equal(res.statusCode, 204, res.body);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v1/public/products/${product.id}/datasheet`,
      headers: bearer(d.locations[0]!.apiKey),
    });
    assert.equal(got.statusCode, 200, got.body);
    assert.match(String(got.headers['content-type']), /^application\/pdf/);
    assert.ok(got.rawPayload.equals(pdf));
    assert.equal((await call(t, d, 'GET', `/products/${product.id}`)).json().data.hasDatasheet, true);
  });

  test('bytes that are not a PDF: 400 on file', async () => {
    const details = problem(
      await put(d.products[2]!.id, Buffer.from('GIF89a not a pdf at all'), 'application/pdf'),
      400,
      'validation_failed',
    );
    assert.ok(details.file);
  });

  test('over DATASHEET_MAX_BYTES: 413', async () => {
    problem(
      await put(d.products[2]!.id, Buffer.concat([pdf, Buffer.alloc(2048, 0x20)]), 'application/pdf'),
      413,
      'payload_too_large',
    );
  });

  test('another content type: 415', async () => {
    problem(await put(d.products[2]!.id, pdf, 'image/png'), 415, 'unsupported_media_type');
    problem(await put(d.products[2]!.id, '{"file":"x"}', 'application/json'), 415, 'unsupported_media_type');
  });

  test("another company's product: 404", async () => {
    const other = await createTenant(t.c);
    problem(await put(other.products[1]!.id, pdf, 'application/pdf'), 404, 'not_found');
    assert.equal((await call(t, other, 'GET', `/products/${other.products[1]!.id}`)).json().data.hasDatasheet, false);
  });
});
