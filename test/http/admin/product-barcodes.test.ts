// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem, csrfOf } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Products carry a barcode (a GTIN with a valid check digit, one product per code in a company):
 * set and refused through the admin API, found by the catalog search and the desk's combobox,
 * read from the catalog CSV.
 */
const ADMIN = '/api/v1/admin';
// Published codes (see src/modules/catalog/gtin.test.ts): STABILO BOSS, a UPC-A, GS1's EAN-13 example.
const EAN13 = '4006381333931';
const UPC_A = '036000291452';
const EAN13_GS1 = '5901234123457';

function call(t: TestApp, d: DemoCompany, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  return t.app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: bearer(d.adminToken),
    ...(payload ? { payload } : {}),
  });
}

async function newProduct(t: TestApp, d: DemoCompany, fields: Record<string, unknown>) {
  const rates = (await call(t, d, 'GET', '/tax-rates')).json().data as Array<{ id: string }>;
  return call(t, d, 'POST', '/products', {
    name: 'Kist plosnati 50 mm',
    taxRateId: rates[0]!.id,
    units: [{ name: 'kom', price: '4.20' }],
    ...fields,
  });
}

describe('product barcodes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('set as typed (separators dropped), shown, changed and cleared; a wrong check digit is refused naming the field', async () => {
    const d = await createTenant(t.c);
    const made = await newProduct(t, d, { sku: 'KIST-50', barcode: '4 006381 333931' });
    assert.equal(made.statusCode, 201, made.body);
    const id = made.json().data.id;
    assert.equal((await call(t, d, 'GET', `/products/${id}`)).json().data.barcode, EAN13);

    const typo = await call(t, d, 'PATCH', `/products/${id}`, { barcode: '4006381333932' });
    const details = assertProblem(typo, 400, 'validation_failed').details;
    assert.deepEqual(details.barcode, ['Is not a valid barcode: the check digit does not match (should be 1).']);
    assert.deepEqual(typo.json().detailKeys.barcode, [
      { key: 'error.product.barcodeCheck', params: { expected: '1' } },
    ]);
    assert.ok(
      assertProblem(await newProduct(t, d, { barcode: '12345' }), 400, 'validation_failed').details.barcode[0].includes(
        'EAN-13',
      ),
    );
    assert.equal((await call(t, d, 'GET', `/products/${id}`)).json().data.barcode, EAN13, 'nothing changed');

    const changed = await call(t, d, 'PATCH', `/products/${id}`, { barcode: UPC_A });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.equal(changed.json().data.barcode, UPC_A);
    const cleared = await call(t, d, 'PATCH', `/products/${id}`, { barcode: null });
    assert.equal(cleared.json().data.barcode, null);
    assert.equal((await call(t, d, 'PATCH', `/products/${id}`, { barcode: '' })).json().data.barcode, null);
  });

  test('a barcode names one product of a company: a second one is refused (409 naming barcode), in any spelling; another company may use it', async () => {
    const d = await createTenant(t.c);
    const first = await newProduct(t, d, { sku: 'A-1', barcode: UPC_A });
    assert.equal(first.statusCode, 201, first.body);

    const twin = await newProduct(t, d, { sku: 'A-2', barcode: UPC_A });
    const problem = assertProblem(twin, 409, 'conflict');
    assert.deepEqual(problem.details.barcode, [
      'Another product of this company has this barcode (Kist plosnati 50 mm).',
    ]);
    // The EAN-13 a European scanner reads off the same UPC-A bars is the same GTIN.
    assertProblem(await newProduct(t, d, { sku: 'A-3', barcode: `0${UPC_A}` }), 409, 'conflict');
    const other = (await newProduct(t, d, { sku: 'A-4' })).json().data.id;
    assertProblem(await call(t, d, 'PATCH', `/products/${other}`, { barcode: UPC_A }), 409, 'conflict');
    const own = await call(t, d, 'PATCH', `/products/${first.json().data.id}`, { barcode: UPC_A, name: 'Kist 50' });
    assert.equal(own.statusCode, 200, 'a product keeps its own barcode when changed');

    const elsewhere = await createTenant(t.c);
    assert.equal((await newProduct(t, elsewhere, { barcode: UPC_A })).statusCode, 201, 'unique per company only');

    // Two requests racing for one code: the unique index lets one through and the other is the same 409.
    const racing = await Promise.all(['R-1', 'R-2', 'R-3'].map((sku) => newProduct(t, d, { sku, barcode: EAN13_GS1 })));
    assert.deepEqual(racing.map((r) => r.statusCode).sort(), [201, 409, 409], racing.map((r) => r.body).join('\n'));
    for (const r of racing.filter((r) => r.statusCode === 409)) assert.ok(r.json().details.barcode);
  });

  test('the catalog search finds a product by its barcode: the admin list, the service, and the desk combobox ranks it first', async () => {
    const d = await createTenant(t.c, { passwords: true });
    const lak = d.products[1]!;
    assert.equal((await call(t, d, 'PATCH', `/products/${lak.id}`, { barcode: UPC_A })).statusCode, 200);

    const listed = (await call(t, d, 'GET', `/products?q=${UPC_A}`)).json().data as Array<{ id: string }>;
    assert.deepEqual(
      listed.map((p) => p.id),
      [lak.id],
    );
    assert.equal((await t.c.catalogAdmin.findByBarcode(d.companyId, UPC_A))?.id, lak.id);
    assert.equal((await t.c.catalogAdmin.findByBarcode(d.companyId, `0${UPC_A}`))?.id, lak.id, 'the EAN-13 spelling');
    assert.equal(await t.c.catalogAdmin.findByBarcode(d.companyId, EAN13), undefined);
    assert.equal(await t.c.catalogAdmin.findByBarcode(d.companyId, 'LAK'), undefined, 'not a GTIN: no lookup');
    const elsewhere = await createTenant(t.c);
    assert.equal(await t.c.catalogAdmin.findByBarcode(elsewhere.companyId, UPC_A), undefined, 'tenant first');

    // What the combobox asks when a scanner types the code and Enter: the product is the first option.
    const admin = d.users.find((u) => u.role === 'admin')!;
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const options = async (q: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/hub/desk/product-options?q=${encodeURIComponent(q)}`,
        headers: { cookie: `portico_session=${token}` },
      });
      assert.equal(res.statusCode, 200, res.body);
      return [...res.body.matchAll(/<li role="option" id="opt-([^"]+)"/g)].map((m) => m[1]);
    };
    assert.deepEqual(await options(UPC_A), [lak.id]);
    assert.deepEqual(await options(`0${UPC_A}`), [lak.id], 'the EAN-13 a scanner may send for UPC-A bars');
    // A product whose SKU is the scanned digits does not push the barcode's product down.
    const rates = (await call(t, d, 'GET', '/tax-rates')).json().data as Array<{ id: string }>;
    await call(t, d, 'POST', '/products', {
      name: 'Aaa proizvod',
      sku: `0${UPC_A}`,
      taxRateId: rates[0]!.id,
      units: [{ name: 'kom', price: '1.00' }],
    });
    assert.equal((await options(`0${UPC_A}`))[0], lak.id);
    assert.ok((await options('Lak za parket')).includes(lak.id), 'names still match');
  });

  test("the hub's product form: the barcode field, its refusals said at the field in the reader's language", async () => {
    const d = await createTenant(t.c, { passwords: true });
    const [lak, vijci] = [d.products[1]!, d.products[4]!];
    const admin = d.users.find((u) => u.role === 'admin')!;
    const session = `portico_session=${(await t.c.accounts.signIn(admin.email, admin.password!)).token}`;
    const shown = await t.app.inject({
      method: 'GET',
      url: `/hub/catalog/products/${lak.id}`,
      headers: { cookie: session },
    });
    assert.equal(shown.statusCode, 200);
    const lakBarcode = (await call(t, d, 'GET', `/products/${lak.id}`)).json().data.barcode as string;
    assert.match(shown.body, /<label for="product-barcode">Barkod \(EAN-8, UPC-A, EAN-13 ili GTIN-14\)<\/label>/);
    assert.match(shown.body, new RegExp(`id="product-barcode"[^>]*value="${lakBarcode}"`));
    const csrf = csrfOf(shown);
    const product = (await call(t, d, 'GET', `/products/${vijci.id}`)).json().data;
    const post = (barcode: string) =>
      t.app.inject({
        method: 'POST',
        url: `/hub/catalog/products/${vijci.id}`,
        headers: {
          cookie: `${session}; ${csrf.cookie}`,
          origin: 'http://localhost:80',
          'x-csrf-token': csrf.token,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams({
          name: product.name,
          sku: product.sku,
          barcode,
          taxRateId: product.taxRateId,
          classificationCode: product.classificationCode,
        }).toString(),
      });
    const typo = await post('4006381333932');
    assert.equal(typo.statusCode, 400);
    assert.match(typo.body, /Barkod nije ispravan: kontrolna znamenka ne odgovara \(trebala bi biti 1\)\./);
    const taken = await post(lakBarcode);
    assert.equal(taken.statusCode, 400);
    assert.ok(taken.body.includes(`Drugi proizvod ove tvrtke ima taj barkod (${lak.name}).`), 'named at the field');
    const saved = await post('4006381333931');
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal((await call(t, d, 'GET', `/products/${vijci.id}`)).json().data.barcode, EAN13);
  });

  test('the catalog CSV reads a barcode column: checked, one product per code, kept on update', async () => {
    const d = await createTenant(t.c);
    const header = 'sku,name,tax_rate,unit,price,barcode';
    const bad = await t.c.catalogImport.importText(
      d.companyId,
      [
        header,
        `VIJ-9,Vijci 4x40,25,pak,6.49,${EAN13.slice(0, -1)}0`,
        `VIJ-8,Vijci 4x30,25,pak,5.49,${EAN13}`,
        `VIJ-7,Vijci 4x20,25,pak,4.49,${EAN13}`,
      ].join('\n'),
    );
    assert.deepEqual(
      bad.errors.map((e) => [e.row, e.field]),
      [
        [2, 'barcode'],
        [4, 'barcode'],
      ],
    );
    assert.match(bad.errors[0]!.message, /check digit/);
    assert.equal(bad.imported, 0);

    const good = await t.c.catalogImport.importText(
      d.companyId,
      [header, `VIJ-8,Vijci 4x30,25,pak,5.49,${EAN13}`, `VIJ-8,Vijci 4x30,25,kutija,49.00,${EAN13}`].join('\n'),
    );
    assert.deepEqual(good.errors, []);
    const found = await t.c.catalogAdmin.findByBarcode(d.companyId, EAN13);
    assert.equal(found?.sku, 'VIJ-8');
    assert.equal(found?.units.length, 2);

    // A code another product of the catalog has is refused; re-importing a product's own code is not.
    const taken = await t.c.catalogImport.importText(
      d.companyId,
      [header, `VIJ-6,Vijci 3x20,25,pak,3.49,${EAN13}`].join('\n'),
    );
    assert.deepEqual(
      taken.errors.map((e) => [e.row, e.field]),
      [[2, 'barcode']],
    );
    const again = await t.c.catalogImport.importText(
      d.companyId,
      [header, `VIJ-8,Vijci 4x30 mm,25,pak,5.49,${EAN13}`].join('\n'),
    );
    assert.deepEqual(again.errors, []);
    // A file without the column leaves the barcode; an empty cell clears it.
    await t.c.catalogImport.importText(d.companyId, 'sku,name,tax_rate,unit,price\nVIJ-8,Vijci,25,pak,5.49');
    assert.equal((await t.c.catalogAdmin.findByBarcode(d.companyId, EAN13))?.sku, 'VIJ-8');
    await t.c.catalogImport.importText(d.companyId, `${header}\nVIJ-8,Vijci,25,pak,5.49,`);
    assert.equal(await t.c.catalogAdmin.findByBarcode(d.companyId, EAN13), undefined);
  });
});

describe('the catalog CSV export', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('carries the import columns with the barcode; imported back it changes nothing; the hub serves the same file', async () => {
    const d = await createTenant(t.c, { passwords: true });
    // Text a spreadsheet would run: neutralised in the file, read back as it was.
    const formula = await newProduct(t, d, {
      sku: 'AKC-20',
      name: '-20 % Akcija kistovi',
      description: '=HYPERLINK("http://127.0.0.1/x","klik")',
    });
    assert.equal(formula.statusCode, 201, formula.body);
    const res = await call(t, d, 'GET', '/products.csv');
    const akc = res.body.split('\r\n').find((r) => r.startsWith('AKC-20,'));
    assert.ok(akc?.startsWith("AKC-20,'-20 % Akcija kistovi,"), akc);
    assert.ok(akc?.includes(',"\'=HYPERLINK(""http://127.0.0.1/x"",""klik"")",'), akc);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/csv/);
    assert.match(String(res.headers['content-disposition']), /attachment; filename="catalog.csv"/);
    const [header, ...rows] = res.body.trimEnd().split('\r\n');
    assert.equal(
      header,
      'sku,name,category,parent_category,model,tax_rate,unit,price,description,classification,unit_code,barcode',
    );
    const lak = rows.filter((r) => r.startsWith('LAK-25-ZC,'));
    assert.equal(lak.length, 2, 'one row per unit');
    assert.ok(lak[0]!.endsWith(',3859991002503'), lak[0]);
    assert.ok(lak[0]!.startsWith('LAK-25-ZC,"Lak za parket Žuti čvor, 2,5 L",'), 'a name with commas is quoted');
    assert.ok(lak[1]!.includes(',karton (6 kom),199.00,'), 'a unit and its price with a decimal point');

    const before = await t.c.catalogAdmin.listProducts(d.companyId, { limit: 100 });
    const report = await t.c.catalogImport.importText(d.companyId, res.body);
    assert.deepEqual(report.errors, []);
    assert.equal(report.created, 0, 'every row is a product the catalog has');
    const afterImport = await t.c.catalogAdmin.listProducts(d.companyId, { limit: 100 });
    const facts = (list: typeof before) => list.data.map(({ updatedAt: _u, ...p }) => p);
    assert.deepEqual(
      facts(afterImport),
      facts(before),
      'names, categories, models, rates, units, prices and barcodes as they were',
    );
    assert.equal((await call(t, d, 'GET', '/products.csv')).body, res.body);

    const support = d.users.find((u) => u.role === 'support')!;
    const { token } = await t.c.accounts.signIn(support.email, support.password!);
    const hub = await t.app.inject({
      method: 'GET',
      url: '/hub/catalog/export.csv',
      headers: { cookie: `portico_session=${token}` },
    });
    assert.equal(hub.statusCode, 200);
    assert.equal(hub.body, res.body);
  });
});
