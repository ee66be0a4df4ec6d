// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { QUOTES, getJson, isPdf, line, postQuote, problemOf, seq, yearInZagreb } from '../../support/quote-helpers.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/index.ts';

describe('quotes json', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const DAY = 86_400_000;

  test('format json: 201, Location, headers and exact money (prices exclude tax); GET returns the same; numbers per location', async () => {
    const d = await createTenant(t.c);
    const [zg, st] = [d.locations[0]!, d.locations[1]!];
    const before = Date.now();
    const res = await postQuote(t.app, zg.apiKey, {
      format: 'json',
      note: 'Dostava u petak',
      customer: { name: 'Željko Šimić', email: 'zeljko@example.com', phone: '+385 91 234 5678' },
      lines: [
        line(d, 3, 1.5, { note: 'Pakiranje s koferom' }), // 149.99 × 1.5 = 224.985 → 224.99; 25 % = 56.2475 → 56.25; 281.24
        line(d, 6, 0.333, { lineNote: 'legacy alias' }), // 18.00 × 0.333 = 5.994 → 5.99; 5 % = 0.2995 → 0.30; 6.29
        line(d, 5, '0.333'), // a decimal string, as the API takes every quantity: 4.75 × 0.333 = 1.58175 → 1.58; 25 % = 0.395 → 0.40; 1.98
        line(d, 2, 1.5, { note: 'Colour: RAL 9010 - Reinweiß', lineNote: 'ignored' }, 1), // 6.20 × 1.5 = 9.30; 25 % = 2.325 → 2.33; 11.63
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const { data } = res.json();
    const year = yearInZagreb();
    assert.match(data.id, /^qt_/);
    assert.equal(data.number, `Q-ZG1-${year}-00001`);
    assert.equal(res.headers.location, `/api/v1/public/quotes/${data.id}`);
    assert.equal(res.headers['x-quotation-id'], data.id);
    assert.equal(res.headers['x-quotation-number'], data.number);
    assert.equal(data.status, 'approved');
    assert.equal(data.locationId, zg.id);
    assert.equal(data.currency, 'EUR');
    assert.equal(data.note, 'Dostava u petak');
    assert.deepEqual(data.customer, { name: 'Željko Šimić', email: 'zeljko@example.com', phone: '+385 91 234 5678' });
    assert.match(data.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const created = Date.parse(data.createdAt);
    assert.ok(created >= before - 1000 && created <= Date.now() + 1000, 'createdAt is now');
    assert.equal(data.expiresAt, new Date(created + 30 * DAY).toISOString(), 'default validity: 30 days');

    const p = d.products;
    const pick = (l: Record<string, unknown>) => ({
      productId: l.productId,
      unitId: l.unitId,
      productName: l.productName,
      unitName: l.unitName,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      taxRate: l.taxRate,
      net: l.net,
      tax: l.tax,
      total: l.total,
      note: l.note,
    });
    assert.deepEqual(data.lines.map(pick), [
      {
        productId: p[3]!.id,
        unitId: p[3]!.units[0]!.id,
        productName: p[3]!.name,
        unitName: 'kom',
        quantity: '1.5',
        unitPrice: '149.99',
        taxRate: '25',
        net: '224.99',
        tax: '56.25',
        total: '281.24',
        note: 'Pakiranje s koferom',
      },
      {
        productId: p[6]!.id,
        unitId: p[6]!.units[0]!.id,
        productName: p[6]!.name,
        unitName: 'kom',
        quantity: '0.333',
        unitPrice: '18.00',
        taxRate: '5',
        net: '5.99',
        tax: '0.30',
        total: '6.29',
        note: 'legacy alias',
      },
      {
        productId: p[5]!.id,
        unitId: p[5]!.units[0]!.id,
        productName: p[5]!.name,
        unitName: 'kom',
        quantity: '0.333',
        unitPrice: '4.75',
        taxRate: '25',
        net: '1.58',
        tax: '0.40',
        total: '1.98',
        note: null,
      },
      {
        productId: p[2]!.id,
        unitId: p[2]!.units[1]!.id,
        productName: p[2]!.name,
        unitName: 'L',
        quantity: '1.5',
        unitPrice: '6.20',
        taxRate: '25',
        net: '9.30',
        tax: '2.32',
        total: '11.62',
        note: 'Colour: RAL 9010 - Reinweiß',
      },
    ]);
    // 25 %: base 224.99 + 1.58 + 9.30 = 235.87, tax once on it: 58.9675 → 58.97 (rounding each line's
    // tax would give 56.25 + 0.40 + 2.33 = 58.98). Shared over the lines: exact shares 56.2475, 0.395
    // and 2.325 rounded down (58.95), the two cents left to the largest remainders (.75, then the
    // earlier of the two .5), so the lines add up: 56.25 + 0.40 + 2.32. 5 %: 5.99 / 0.30.
    // net 241.86, tax 59.27, with tax 301.13 (= 281.24 + 6.29 + 1.98 + 11.62).
    assert.deepEqual(data.totals, {
      net: '241.86',
      tax: '59.27',
      withTax: '301.13',
      taxes: [
        { rate: '25', base: '235.87', tax: '58.97' },
        { rate: '5', base: '5.99', tax: '0.30' },
      ],
    });
    assert.ok(
      data.lines.every((l: object) => !('datasheetUrl' in l)),
      'no datasheetUrl unless includeDatasheets',
    );

    // GET: the same JSON by default; the PDF on request.
    const read = await getJson(t.app, zg.apiKey, `${QUOTES}/${data.id}`);
    assert.equal(read.statusCode, 200);
    assert.deepEqual(read.json().data, data);
    const viaQuery = await getJson(t.app, zg.apiKey, `${QUOTES}/${data.id}?format=pdf`);
    const viaAccept = await t.app.inject({
      method: 'GET',
      url: `${QUOTES}/${data.id}`,
      headers: { ...bearer(zg.apiKey), accept: 'application/pdf' },
    });
    for (const pdf of [viaQuery, viaAccept]) {
      assert.equal(pdf.statusCode, 200);
      assert.equal(pdf.headers['content-type'], 'application/pdf');
      assert.equal(pdf.headers['x-quotation-number'], data.number);
      assert.ok(isPdf(pdf.rawPayload));
    }
    assert.ok(viaQuery.rawPayload.equals(viaAccept.rawPayload), 'one stored quotation, one print');

    // Another company's key: the quotation does not exist for it.
    const other = await createTenant(t.c);
    const foreign = await getJson(t.app, other.locations[0]!.apiKey, `${QUOTES}/${data.id}`);
    assert.equal(foreign.statusCode, 404);
    assert.equal((await getJson(t.app, other.locations[0]!.apiKey, `${QUOTES}/${data.id}?format=pdf`)).statusCode, 404);

    // Numbers run per location: ST1 starts its own series; ZG1 continues.
    const split = await postQuote(t.app, st.apiKey, {
      format: 'json',
      customer: { name: 'Ivo' },
      lines: [line(d, 4, 1)],
    });
    assert.equal(split.statusCode, 201, split.body);
    assert.equal(split.json().data.number, `Q-ST1-${year}-00001`);
    assert.equal(split.json().data.locationId, st.id);
    const second = await postQuote(t.app, zg.apiKey, {
      format: 'json',
      customer: { name: 'Ivo' },
      lines: [line(d, 4, 1)],
    });
    assert.equal(second.json().data.number, `Q-ZG1-${year}-00002`);
  });

  test('format json: exact money when company prices include tax; explicit expiresAt kept; company validity used', async () => {
    const c = t.c;
    const company = await c.companies.createCompany({
      name: 'Bruto d.o.o.',
      currency: 'EUR',
      locale: 'hr-HR',
      timezone: 'Europe/Zagreb',
      pricesIncludeTax: true,
      quotationValidityDays: 14,
    });
    const location = await c.companies.createLocation(company.id, { name: 'Web', code: 'WEB' });
    const { key } = await c.apiKeys.createApiKey(company.id, { locationId: location.id, name: 'site' });
    const r25 = await c.catalogAdmin.createTaxRate(company.id, { name: 'PDV 25', rate: '25' });
    const r13 = await c.catalogAdmin.createTaxRate(company.id, { name: 'PDV 13', rate: '13' });
    const a = await c.catalogAdmin.createProduct(company.id, {
      name: 'Ulje za teak',
      taxRateId: r25.id,
      units: [{ name: 'kom', price: '12.50' }],
    });
    const b = await c.catalogAdmin.createProduct(company.id, {
      name: 'Vodič kroz boje',
      taxRateId: r13.id,
      units: [{ name: 'kom', price: '9.99' }],
    });
    const cc = await c.catalogAdmin.createProduct(company.id, {
      name: 'Kist 50 mm',
      taxRateId: r25.id,
      units: [{ name: 'kom', price: '19.99' }],
    });

    const expiresAt = '2099-01-02T03:04:05Z';
    const res = await postQuote(t.app, key, {
      format: 'json',
      expiresAt,
      customer: { name: 'Kupac' },
      lines: [
        { productId: a.id, unitId: a.unitIds[0], quantity: 1.5 }, // gross 12.50 × 1.5 = 18.75; net 18.75 / 1.25 = 15.00; tax 3.75
        { productId: b.id, unitId: b.unitIds[0], quantity: 0.333 }, // gross 9.99 × 0.333 = 3.32667 → 3.33; net 3.33 / 1.13 = 2.9469 → 2.95; tax 0.38
        { productId: cc.id, unitId: cc.unitIds[0], quantity: 1.5 }, // gross 19.99 × 1.5 = 29.985 → 29.99; net 29.99 / 1.25 = 23.992 → 23.99; tax 6.00
      ],
    });
    assert.equal(res.statusCode, 201, res.body);
    const { data } = res.json();
    assert.equal(data.number, `Q-WEB-${yearInZagreb()}-00001`);
    assert.equal(data.expiresAt, '2099-01-02T03:04:05.000Z');
    assert.deepEqual(
      data.lines.map((l: Record<string, string>) => [l.unitPrice, l.taxRate, l.net, l.tax, l.total]),
      [
        ['12.50', '25', '15.00', '3.75', '18.75'],
        ['9.99', '13', '2.95', '0.38', '3.33'],
        ['19.99', '25', '23.99', '6.00', '29.99'],
      ],
    );
    // 25 %: base 15.00 + 23.99 = 38.99, tax 3.75 + 6.00 = 9.75; 13 %: 2.95 / 0.38. Sum of gross lines 52.07.
    assert.deepEqual(data.totals, {
      net: '41.94',
      tax: '10.13',
      withTax: '52.07',
      taxes: [
        { rate: '25', base: '38.99', tax: '9.75' },
        { rate: '13', base: '2.95', tax: '0.38' },
      ],
    });

    const dflt = await postQuote(t.app, key, {
      format: 'json',
      customer: { name: 'Kupac' },
      lines: [{ productId: a.id, unitId: a.unitIds[0], quantity: 1 }],
    });
    const q2 = dflt.json().data;
    assert.equal(q2.number, `Q-WEB-${yearInZagreb()}-00002`);
    assert.equal(
      q2.expiresAt,
      new Date(Date.parse(q2.createdAt) + 14 * DAY).toISOString(),
      "the company's own validity period",
    );
  });

  test('invalid requests: 400 naming the field path; nothing is created or numbered', async () => {
    const d = await createTenant(t.c);
    const key = d.locations[0]!.apiKey;
    const good = () => [line(d, 0, 1), line(d, 1, 2), line(d, 2, 1)];
    const withQuantity = (quantity: unknown) => {
      const lines: Array<Record<string, unknown>> = good();
      lines[2] = line(d, 2, quantity);
      return lines;
    };
    const body = (patch: Record<string, unknown>) => ({
      format: 'json',
      customer: { name: 'Ana' },
      lines: good(),
      ...patch,
    });
    const tooMany = Array.from({ length: 501 }, () => line(d, 4, 1));

    const cases: Array<[string, unknown, string]> = [
      ['quantity 0', body({ lines: withQuantity(0) }), 'lines[2].quantity'],
      ['negative quantity', body({ lines: withQuantity(-1) }), 'lines[2].quantity'],
      ['4 decimals (0.0001)', body({ lines: withQuantity(0.0001) }), 'lines[2].quantity'],
      ['4 decimals (1.2345)', body({ lines: withQuantity(1.2345) }), 'lines[2].quantity'],
      ['a decimal comma', body({ lines: withQuantity('1,5') }), 'lines[2].quantity'],
      ['4 decimals as a string', body({ lines: withQuantity('1.2345') }), 'lines[2].quantity'],
      ['exponent as a string', body({ lines: withQuantity('1e3') }), 'lines[2].quantity'],
      ['zero as a string', body({ lines: withQuantity('0') }), 'lines[2].quantity'],
      ['quantity true', body({ lines: withQuantity(true) }), 'lines[2].quantity'],
      ['missing customer.name', body({ customer: { email: 'ana@example.com' } }), 'customer.name'],
      ['bad customer.email', body({ customer: { name: 'Ana', email: 'not-an-e-mail' } }), 'customer.email'],
      ['no lines', body({ lines: [] }), 'lines'],
      ['501 lines', body({ lines: tooMany }), 'lines'],
      ['unknown top-level field', body({ colour: 'red' }), 'colour'],
      ['unknown line field', body({ lines: [line(d, 0, 1, { colour: 'red' })] }), 'lines[0].colour'],
      ['format xml', body({ format: 'xml' }), 'format'],
      ['expiresAt in the past', body({ expiresAt: '2020-01-01T00:00:00.000Z' }), 'expiresAt'],
      ['expiresAt not a timestamp', body({ expiresAt: 'tomorrow' }), 'expiresAt'],
    ];
    for (const [name, payload, path] of cases) {
      const res = await postQuote(t.app, key, payload);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      const problem = problemOf(res);
      assert.equal(problem.code, 'validation_failed', name);
      assert.ok(
        problem.details[path]?.length,
        `${name}: details names ${path}; got ${JSON.stringify(problem.details)}`,
      );
      assert.ok(!('x-quotation-id' in res.headers), name);
    }
    // A quantity that is neither a number nor a string is said once, not once per form it may take.
    const neither = problemOf(await postQuote(t.app, key, body({ lines: withQuantity(true) })));
    assert.deepEqual(neither.details['lines[2].quantity'], ['Must be a decimal quantity such as 1.5.']);
    const comma = problemOf(await postQuote(t.app, key, body({ lines: withQuantity('1,5') })));
    assert.deepEqual(comma.details['lines[2].quantity'], ['Must be a decimal quantity such as 1.5.']);
    // A PDF-format request that fails is answered as a problem too, not as a PDF.
    const pdfFail = await postQuote(t.app, key, { customer: { name: 'Ana' }, lines: withQuantity(0) });
    assert.equal(pdfFail.statusCode, 400);
    assert.ok(problemOf(pdfFail).details['lines[2].quantity']);

    assert.equal((await t.c.quotations.list(d.companyId, { limit: 10 })).length, 0, 'no quotation stored');
    const ok = await postQuote(t.app, key, body({}));
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.json().data.number, `Q-ZG1-${yearInZagreb()}-${seq(1)}`, 'no number consumed by the failures');
  });

  describe("tenancy: one company never sees another's quotations", () => {
    const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
    // Every test makes its own two tenants, so no test depends on another's data.
    const tenants = async (): Promise<[DemoCompany, DemoCompany]> => [await createTenant(t.c), await createTenant(t.c)];

    test("quotes: B's key gets 404 for A's quotation", async () => {
      const [a, b] = await tenants();
      const product = a.products[0]!;
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: bearer(a.locations[0]!.apiKey),
        payload: {
          format: 'json',
          customer: { name: 'X' },
          lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const quoteId = created.json().data.id;
      assert.ok(typeof quoteId === 'string' && quoteId.length > 0);

      const own = await get(`/api/v1/public/quotes/${quoteId}`, a.locations[0]!.apiKey);
      assert.equal(
        own.statusCode,
        200,
        "the creating location's key reads it (other locations: location-scope.test.ts)",
      );
      assert.equal(own.json().data.id, quoteId);

      for (const key of b.locations.map((l) => l.apiKey)) {
        for (const url of [`/api/v1/public/quotes/${quoteId}`, `/api/v1/public/quotes/${quoteId}?format=pdf`]) {
          const res = await get(url, key);
          assertProblem(res, 404, 'not_found');
          assert.equal(res.headers['x-quotation-id'], undefined);
          assert.equal(res.headers['x-quotation-number'], undefined);
        }
      }
      assertProblem(await get(`/api/v1/admin/quotations/${quoteId}`, b.adminToken), 404, 'not_found');
    });
  });
});
