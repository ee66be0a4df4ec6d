// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import { fiscalCertificate, opensslP12Base64, p12Base64, type Issued } from '../../support/fiscal-certs.ts';
import { DEMO_OIB, fiscalRig, type FakeCis } from '../../support/fiscal-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const CERTIFICATE = '/api/v1/admin/fiscal/certificate';
const FISCAL = '/api/v1/admin/fiscal';

describe('fiscal settings: the FINA certificate and the echo', () => {
  let t: TestApp;
  let cis: FakeCis;
  let ca: Issued;
  let dir: string;

  before(async () => {
    dir = fs.mkdtempSync(`${(await import('node:os')).tmpdir()}/fiscal-admin-`);
    const rig = await fiscalRig(dir);
    cis = rig.cis;
    ca = rig.ca;
    t = await createTestApp(rig.env);
  });
  after(async () => {
    await t.close();
    await cis.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const put = (d: DemoCompany, payload: object) =>
    t.app.inject({ method: 'PUT', url: CERTIFICATE, headers: bearer(d.adminToken), payload });
  const get = async (d: DemoCompany) =>
    (await t.app.inject({ method: 'GET', url: FISCAL, headers: bearer(d.adminToken) })).json().data;

  test('a good certificate is stored sealed; the answer and the settings show subject, OIB and expiry, never the key', async () => {
    const d = await createTenant(t.c);
    assert.equal((await get(d)).configured, false);
    const res = await put(d, { p12: p12Base64(fiscalCertificate(ca, DEMO_OIB), 'tajna', ca), password: 'tajna' });
    assert.equal(res.statusCode, 200, res.body);
    const info = res.json().data;
    assert.equal(info.oib, DEMO_OIB);
    assert.match(info.subject, /CN=FISKAL 1/);
    assert.ok(Date.parse(info.expiresAt) > Date.now() + 300 * 86_400_000);
    const settings = await get(d);
    assert.deepEqual(settings.certificate, info);
    assert.equal(settings.configured, true);
    assert.equal(settings.warning, null);
    assert.deepEqual(settings.unfiscalised, []);
    const stored = await t.c.database.db.selectFrom('fiscal_certificates').selectAll().execute();
    assert.ok(stored.length >= 1);
    for (const row of stored) assert.doesNotMatch(JSON.stringify(row), /PRIVATE KEY|BEGIN CERTIFICATE/);
    // Another company sees nothing of it.
    assert.equal((await get(await createTenant(t.c))).configured, false);
  });

  test("today's openssl PKCS#12 (AES-256, PBKDF2, SHA-256 MAC) is read too", async () => {
    const d = await createTenant(t.c);
    const res = await put(d, {
      p12: opensslP12Base64(fiscalCertificate(ca, DEMO_OIB), 'tajna', dir),
      password: 'tajna',
    });
    assert.equal(res.statusCode, 200, res.body);
  });

  test('a wrong password is a 400 naming password', async () => {
    const d = await createTenant(t.c);
    const body = assertProblem(
      await put(d, { p12: p12Base64(fiscalCertificate(ca, DEMO_OIB), 'tajna'), password: 'kriva' }),
      400,
      'validation_failed',
    );
    assert.deepEqual(Object.keys(body.details), ['password']);
  });

  test('a certificate for another OIB is a 400 naming p12, with both OIBs', async () => {
    const d = await createTenant(t.c);
    const body = assertProblem(
      await put(d, { p12: p12Base64(fiscalCertificate(ca, '98765432106'), 'tajna'), password: 'tajna' }),
      400,
    );
    assert.deepEqual(Object.keys(body.details), ['p12']);
    assert.match(body.details.p12[0], /98765432106.*12345678903/);
  });

  test('an expired certificate is a 400 naming p12; one expiring within 30 days is stored with a warning', async () => {
    const d = await createTenant(t.c);
    const expired = assertProblem(
      await put(d, {
        p12: p12Base64(fiscalCertificate(ca, DEMO_OIB, { fromDays: -400, toDays: -1 }), 'tajna'),
        password: 'tajna',
      }),
      400,
    );
    assert.match(expired.details.p12[0], /expired/);
    const soon = await put(d, {
      p12: p12Base64(fiscalCertificate(ca, DEMO_OIB, { toDays: 10 }), 'tajna'),
      password: 'tajna',
    });
    assert.equal(soon.statusCode, 200, soon.body);
    assert.match((await get(d)).warning, /expires on/);
  });

  test('not a PKCS#12 file, or not base64, is a 400 naming p12', async () => {
    const d = await createTenant(t.c);
    for (const p12 of ['not base64!', Buffer.from('hello world').toString('base64')]) {
      const body = assertProblem(await put(d, { p12, password: 'x' }), 400);
      assert.deepEqual(Object.keys(body.details), ['p12'], p12);
    }
  });

  test("test connection runs the specification's echo against CIS", async () => {
    const d = await createTenant(t.c);
    const res = await t.app.inject({ method: 'POST', url: `${FISCAL}/check`, headers: bearer(d.adminToken) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.ok, true, res.body);
    assert.equal(cis.echoes, 1);
    await cis.down();
    const down = (await t.app.inject({ method: 'POST', url: `${FISCAL}/check`, headers: bearer(d.adminToken) })).json()
      .data;
    assert.equal(down.ok, false);
    assert.match(down.message, /unreachable/);
    await cis.up();
  });
});
