// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { fiscalCertificate, p12Base64 } from '../support/fiscal-certs.ts';
import { DEMO_OIB, fiscalDocument, fiscalRig, issue, type FakeCis } from '../support/fiscal-helpers.ts';
import type { Issued } from '../support/fiscal-certs.ts';

/** The hub's fiscalisation: the banner while off, the upload and echo, invoices without JIR on Today. */
describe('hub fiscalisation', () => {
  let t: TestApp;
  let cis: FakeCis;
  let ca: Issued;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-fiscal-'));
    const rig = await fiscalRig(dir);
    ({ cis, ca } = rig);
    t = await createTestApp({ ...rig.env, FISCAL_WAIT_MS: '300' });
  });
  after(async () => {
    await t.close();
    await cis.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function session(role: 'admin' | 'staff') {
    const d = await createTenant(t.c, { passwords: true });
    const user = d.users.find((u) => u.role === role)!;
    return { d, cookie: `portico_session=${(await t.c.accounts.signIn(user.email, user.password!)).token}` };
  }
  const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

  test('off: Today says plainly that invoices are not fiscalised; uploading the .p12 in the hub turns it on', async () => {
    const { d, cookie } = await session('admin');
    const today = await get(cookie, '/hub');
    assert.equal(today.statusCode, 200);
    assert.match(today.body, /id="fiscal-off"[^>]*>Računi ove tvrtke se ne fiskaliziraju/);

    const page = await get(cookie, '/hub/developer/fiscal');
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /Fiskalizacija nije podešena/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    assert.ok(csrf, 'the page carries its CSRF token');
    const csrfCookie = ([page.headers['set-cookie'] ?? []].flat() as string[])
      .map((c) => c.split(';')[0]!.trim())
      .find((c) => c.startsWith('portico_csrf='));
    const boundary = 'portico-test-boundary';
    const p12 = Buffer.from(p12Base64(fiscalCertificate(ca, DEMO_OIB), 'tajna'), 'base64');
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const body = Buffer.concat([
      Buffer.from(part('_csrf', csrf!) + part('password', 'tajna')),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fiskal.p12"\r\nContent-Type: application/x-pkcs12\r\n\r\n`,
      ),
      p12,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const upload = await t.app.inject({
      method: 'POST',
      url: '/hub/developer/fiscal',
      headers: {
        cookie: [cookie, csrfCookie].filter(Boolean).join('; '),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        origin: 'http://localhost:80',
      },
      payload: body,
    });
    assert.equal(upload.statusCode, 303, upload.body.slice(0, 500));
    const after = await get(cookie, '/hub/developer/fiscal');
    assert.match(after.body, /Fiskalizacija je uključena/);
    assert.match(after.body, new RegExp(DEMO_OIB));
    assert.doesNotMatch((await get(cookie, '/hub')).body, /fiscal-off/);

    // An invoice CIS has not confirmed shows on Today until it has its JIR.
    await cis.down();
    await issue(t.c, fiscalDocument(d.companyId));
    assert.match((await get(cookie, '/hub')).body, /Računi bez JIR-a/);
    await cis.up();
  });

  test('staff see the banner but not the settings', async () => {
    const { cookie } = await session('staff');
    assert.match((await get(cookie, '/hub')).body, /id="fiscal-off"/);
    assert.equal((await get(cookie, '/hub/developer/fiscal')).statusCode, 403);
  });
});
