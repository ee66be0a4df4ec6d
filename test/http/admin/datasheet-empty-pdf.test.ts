// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, hubPostHeaders } from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Issue 37 (LOW): a 15-byte PDF with a header and nothing else answered 500 on the admin API and in
 * the hub, both engines (the active-content check read a catalog pdf-lib had not found). A file
 * with no page is no datasheet: a 400 naming `file`, and nothing stored.
 */
const EMPTY_PDF = Buffer.from('%PDF-1.4\n%%EOF\n');
const CATALOG_WITHOUT_PAGES = Buffer.from(
  '%PDF-1.4\n1 0 obj <</Type/Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n',
);

describe('a PDF with no page as a datasheet', () => {
  let t: TestApp;
  let d: DemoCompany;
  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c, { passwords: true });
  });
  after(() => t.close());

  const hasDatasheet = async (productId: string) =>
    (
      await t.app.inject({ method: 'GET', url: `/api/v1/admin/products/${productId}`, headers: bearer(d.adminToken) })
    ).json().data.hasDatasheet;

  test('admin API: 400 naming file, nothing stored', async () => {
    assert.equal(EMPTY_PDF.length, 15);
    const product = d.products[1]!;
    for (const bytes of [EMPTY_PDF, CATALOG_WITHOUT_PAGES]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/admin/products/${product.id}/datasheet?filename=x.pdf`,
        headers: { ...bearer(d.adminToken), 'content-type': 'application/pdf' },
        payload: bytes,
      });
      const problem = assertProblem(res, 400, 'validation_failed');
      assert.match(problem.details.file[0], /no pages/);
    }
    assert.equal(await hasDatasheet(product.id), false);
  });

  test('hub: 400 with the refusal beside the file field, nothing stored', async () => {
    const admin = d.users.find((u) => u.role === 'admin')!;
    const headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
    const product = d.products[2]!;
    const boundary = 'portico-empty-pdf';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${headers['x-csrf-token']}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      EMPTY_PDF,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/hub/catalog/products/${product.id}/datasheet`,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: body,
    });
    assert.equal(res.statusCode, 400, res.body.slice(0, 300));
    assert.match(res.body, /id="datasheet-file-error">PDF nema nijednu stranicu/);
    assert.equal(await hasDatasheet(product.id), false);
  });
});
