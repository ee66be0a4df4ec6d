// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import forge from 'node-forge';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { assertProblem } from '../../support/http-helpers.ts';
import { DEMO_OIB } from '../../support/fiscal-helpers.ts';
import { fiscalCertificate, testCa, type Issued } from '../../support/fiscal-certs.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Issue 37, item 7: a PKCS#12 of 2 000 000 iterations held the event loop 6.5–9.3 s while
 * node-forge derived its MAC key, even with a wrong password. Its iteration counts are now read
 * before any key is derived (refused past the bound, naming p12), and a file within the bound is
 * opened on a worker thread: the event loop keeps ticking meanwhile.
 */
describe('certificate uploads cannot stall the server', () => {
  let t: TestApp;
  let d: DemoCompany;
  let ca: Issued;
  let issued: Issued;

  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c);
    ca = testCa();
    issued = fiscalCertificate(ca, DEMO_OIB);
    // The route's first request compiles its schemas: not what is measured here.
    await upload('not base64!', 'x');
  });
  after(() => t.close());

  /** The .p12 as forge writes it with `count` iterations for its MAC and its encrypted parts. */
  function p12Asn1(count: number, password: string): forge.asn1.Asn1 {
    return forge.pkcs12.toPkcs12Asn1(
      forge.pki.privateKeyFromPem(issued.keyPem),
      [forge.pki.certificateFromPem(issued.certPem)],
      password,
      { algorithm: '3des', count },
    );
  }
  const base64Of = (asn1: forge.asn1.Asn1) =>
    Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary').toString('base64');

  /** Uploads, and the longest the event loop was held meanwhile (ms). */
  async function upload(p12: string, password: string) {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    // The histogram measures from its first tick on: let it tick before the upload.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/admin/fiscal/certificate',
      headers: bearer(d.adminToken),
      payload: { p12, password },
    });
    // A block ending with the response is recorded when the loop's timers run next: let them.
    await new Promise((resolve) => setTimeout(resolve, 50));
    delay.disable();
    return { res, heldMs: delay.max / 1e6 };
  }

  test('2 000 000 MAC iterations with a wrong password: 400 naming p12 at once, the loop never held', async () => {
    const asn1 = p12Asn1(2048, 'tajna');
    // PFX ::= SEQUENCE { version, authSafe, macData SEQUENCE { mac, macSalt, iterations } }
    const macData = (asn1.value as forge.asn1.Asn1[])[2]!;
    (macData.value as forge.asn1.Asn1[])[2]!.value = forge.asn1.integerToDer(2_000_000).getBytes();
    const started = performance.now();
    const { res, heldMs } = await upload(base64Of(asn1), 'pogrešna');
    assert.ok(heldMs < 500, `the event loop was held ${heldMs.toFixed(0)} ms`);
    const problem = assertProblem(res, 400, 'validation_failed');
    assert.deepEqual(Object.keys(problem.details), ['p12']);
    assert.match(problem.details.p12[0], /2000000 key-derivation iterations; at most 100000/);
    assert.ok(performance.now() - started < 2000, 'refused without deriving a key');
    assert.equal((await t.c.fiscalSettings.get(d.companyId)).configured, false);
  });

  test('a file at the bound (100 000 iterations) is opened on a worker thread while the loop keeps ticking', async () => {
    const { res, heldMs } = await upload(base64Of(p12Asn1(100_000, 'tajna')), 'tajna');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.oib, DEMO_OIB);
    assert.ok(heldMs < 500, `the event loop was held ${heldMs.toFixed(0)} ms`);
  });

  test('a wrong password names password; a file over 64 KiB names p12', async () => {
    const wrong = await upload(base64Of(p12Asn1(2048, 'tajna')), 'pogrešna');
    assert.deepEqual(Object.keys(assertProblem(wrong.res, 400, 'validation_failed').details), ['password']);
    const big = await upload(Buffer.alloc(70_000, 0x30).toString('base64'), 'tajna');
    const problem = assertProblem(big.res, 400, 'validation_failed');
    assert.match(problem.details.p12[0], /at most 65536 bytes/);
  });
});
