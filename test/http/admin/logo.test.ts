// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/** A real PNG, `width` × `height`, RGB, every pixel the same colour. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x3a)]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** How many images a PDF draws (poppler's pdfimages). */
function imagesIn(pdf: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logo-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf);
    const list = execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' }).trim().split('\n');
    return list.length - 2; // two heading lines
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The print template's logo (issue 34, item 9): printed on what is issued from then on, never on what was issued before. */
describe('admin: the logo of the print template', () => {
  let t: TestApp;
  let demo: DemoCompany;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c);
  });
  after(async () => {
    await t.close();
  });

  const sell = async () => {
    const p = demo.products[0]!;
    const res = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
      paymentMethod: 'card',
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as string;
  };
  const pdf = async (id: string, layout = 'a4') =>
    (await adminCall(t.app, demo.adminToken, 'GET', `/sales/${id}?format=pdf&layout=${layout}`)).rawPayload;
  const put = (body: Buffer | string, type: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/settings/logo',
      headers: { ...bearer(demo.adminToken), 'content-type': type },
      payload: body,
    });

  test('set, printed on documents issued after, not on those issued before; removed', async () => {
    const before = await sell();
    assert.equal((await put(png(120, 40), 'image/png')).statusCode, 204);
    const after = await sell();
    const first = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${after}?format=pdf`);
    assert.equal(first.statusCode, 200, first.body.slice(0, 500));
    assert.equal(imagesIn(await pdf(before)), 0, 'issued before: as issued, without the logo');
    assert.equal(imagesIn(await pdf(after)), 1, 'issued after: with the logo');
    assert.equal(imagesIn(await pdf(after, 'receipt')), 1, 'on the 80 mm receipt too');

    // Not an image: 400 naming `logo`; JSON: 415; too large: 413.
    const bad = await put(Buffer.from('GIF89a not a png'), 'image/png');
    assert.ok(assertProblem(bad, 400, 'validation_failed').details.logo, bad.body);
    assertProblem(
      await t.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/settings/logo',
        headers: bearer(demo.adminToken),
        payload: { logo: 'x' },
      }),
      415,
    );
    assert.equal((await put(Buffer.alloc(300 * 1024, 1), 'image/png')).statusCode, 413);

    const removed = await adminCall(t.app, demo.adminToken, 'DELETE', '/settings/logo');
    assert.equal(removed.statusCode, 204);
    const later = await sell();
    assert.equal(imagesIn(await pdf(later)), 0, 'no logo after it was removed');
    assert.equal(imagesIn(await pdf(after)), 1, 'the document issued with it keeps it');
  });
});
