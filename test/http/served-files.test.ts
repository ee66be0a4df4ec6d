// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { bearer, createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { userOfRole } from '../support/http-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { buildSampleDatasheet } from '../../src/modules/printing/index.ts';

/** Files Portico serves: under names it makes, never sniffed, never run, uploads always downloaded. */
describe('served files', () => {
  let t: TestApp;
  let d: DemoCompany;
  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c, { passwords: true });
  });
  after(() => t.close());

  const upload = (productId: string, body: Buffer, filename: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/products/${productId}/datasheet?filename=${encodeURIComponent(filename)}`,
      headers: { ...bearer(d.adminToken), 'content-type': 'application/pdf' },
      payload: body,
    });

  test('a datasheet is served as {product}.pdf, an attachment, nosniff, sandboxed: never under its uploaded name', async () => {
    const product = d.products[1]!;
    const pdf = await buildSampleDatasheet('Sheet', ['One line.']);
    assert.equal((await upload(product.id, pdf, '../../../../../tmp/x.html')).statusCode, 204);
    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v1/public/products/${product.id}/datasheet`,
      headers: bearer(d.locations[0]!.apiKey),
    });
    assert.equal(got.statusCode, 200);
    const sku = (await t.c.catalogAdmin.getDatasheet(d.companyId, product.id)).name;
    assert.match(sku, /^[A-Za-z0-9._-]+\.pdf$/);
    assert.doesNotMatch(sku, /x\.html|\.\./);
    assert.equal(got.headers['content-disposition'], `attachment; filename="${sku}"`);
    assert.equal(got.headers['x-content-type-options'], 'nosniff');
    assert.match(String(got.headers['content-security-policy']), /default-src 'none'.*sandbox/);
  });

  test('a PDF with JavaScript, page actions or embedded files is a 400 naming the field, and nothing is stored', async () => {
    const product = d.products[2]!;
    const withJs = await PDFDocument.create();
    withJs.addPage([100, 100]);
    withJs.catalog.set(
      PDFName.of('OpenAction'),
      withJs.context.obj({ S: 'JavaScript', JS: PDFString.of('app.alert("hi")') }),
    );
    const attached = await PDFDocument.create();
    attached.addPage([100, 100]);
    await attached.attach(Buffer.from('MZ'), 'setup.exe', { mimeType: 'application/octet-stream' });
    for (const [doc, what] of [
      [withJs, /JavaScript/],
      [attached, /embedded files/],
    ] as const) {
      const res = await upload(product.id, Buffer.from(await doc.save()), 'sheet.pdf');
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().details.file[0], what);
    }
    assert.equal((await t.c.catalogAdmin.getDatasheet(d.companyId, product.id).catch(() => null)) ?? null, null);
  });

  test("a quotation PDF (one of ours) is inline, nosniff and framed only by Portico's own pages", async () => {
    const product = d.products[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: { ...bearer(d.locations[0]!.apiKey), 'content-type': 'application/json' },
      payload: {
        format: 'pdf',
        customer: { name: 'Ana' },
        lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.match(String(res.headers['content-disposition']), /^inline; filename="Q-/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'; frame-ancestors 'self'");
  });

  test("a datasheet opened in the hub keeps its own sandboxing policy, not the hub pages' one", async () => {
    const product = d.products[3]!;
    assert.equal((await upload(product.id, await buildSampleDatasheet('Hub', ['A line.']), 'hub.pdf')).statusCode, 204);
    const admin = userOfRole(d, 'admin');
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const got = await t.app.inject({
      method: 'GET',
      url: `/hub/catalog/products/${product.id}/datasheet`,
      headers: { cookie: `portico_session=${token}` },
    });
    assert.equal(got.statusCode, 200, got.body.slice(0, 300));
    assert.equal(got.headers['content-security-policy'], "default-src 'none'; sandbox");
    assert.match(String(got.headers['content-disposition']), /^attachment;/);
    assert.equal(got.headers['x-content-type-options'], 'nosniff');
  });
});
