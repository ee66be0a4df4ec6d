// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import { createPrivateKey } from 'node:crypto';
import { DEMO_OIB, fiscalDocument, fiscalRig, issue, until, type FakeCis } from '../../support/fiscal-helpers.ts';
import { fiscalCertificate, p12Base64, type Issued } from '../../support/fiscal-certs.ts';
import { hubPostHeaders, userOfRole } from '../../support/http-helpers.ts';
import { computeZki } from '../../../src/modules/fiscal/zki.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const run = promisify(execFile);
const XSD = path.resolve(import.meta.dirname, '../../fixtures/fiscal-hr/FiskalizacijaSchema.xsd');

/**
 * CIS's answers are believed only when CIS signed them (specification v2.6 chapter 7): a forged,
 * tampered or unsigned answer leaves the receipt pending and it goes again. A payment in another
 * method recorded on a fiscalised receipt the same day reaches CIS as PromijeniPodatkeRacuna
 * (§2.1.5, WSDL v1.9 `promijeniPodatkeRacuna`), signed and valid against the official XSD; after
 * midnight nothing is sent (the receipt is cancelled and issued anew).
 */
describe('CIS answers verified; payment method changes reported', () => {
  let t: TestApp;
  let cis: FakeCis;
  let d: DemoCompany;
  let dir: string;
  let certificate: Issued;

  before(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'cis-changes-'));
    const rig = await fiscalRig(dir);
    cis = rig.cis;
    t = await createTestApp(
      { ...rig.env, FISCAL_WAIT_MS: '2000', FISCAL_RETRY_DELAYS_MS: '100' },
      { startWorkers: true },
    );
    d = await createTenant(t.c, { passwords: true });
    // Uploaded here rather than by the helper: the ZKI test needs the key.
    certificate = fiscalCertificate(rig.ca, DEMO_OIB);
    const uploaded = await adminCall(t.app, d.adminToken, 'PUT', '/fiscal/certificate', {
      p12: p12Base64(certificate, 'fiskal-lozinka', rig.ca),
      password: 'fiskal-lozinka',
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);
  });
  after(async () => {
    await t.close();
    await cis.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  for (const how of ['foreign', 'tampered', 'unsigned'] as const)
    test(`${how === 'unsigned' ? 'an' : 'a'} ${how} answer is refused: no JIR taken from it, the receipt goes again`, async () => {
      cis.mode = { kind: 'forge', how };
      const doc = fiscalDocument(d.companyId, { paymentMethod: 'cash' });
      const before = cis.received.length;
      const { delivered } = await issue(t.c, doc);
      assert.equal(delivered?.status, 'pending', JSON.stringify(delivered));
      assert.equal(delivered?.receipt, null, 'no JIR from a forged answer');
      assert.ok(cis.received.length > before, 'CIS was reached');
      const [row] = await t.c.store.repos.fiscal.listRequests(d.companyId, [doc.documentId]);
      assert.match(row!.last_error ?? '', /CIS answer refused: /, row!.last_error ?? '');
      const expected = { foreign: /untrusted certificate/, tampered: /does not verify/, unsigned: /not signed/ }[how];
      assert.match(row!.last_error!, expected);
      cis.mode = { kind: 'ok' };
      await until('the JIR from a genuine answer', async () => {
        const s = (await t.c.fiscaliser.statusOf(d.companyId, [doc.documentId])).get(doc.documentId);
        return s?.status === 'fiscalised' && s.receipt;
      });
    });

  test('a same-day payment in another method reaches CIS as PromijeniPodatkeRacuna, signed and schema-valid', async () => {
    cis.mode = { kind: 'ok' };
    const q = await newQuotation(t.app, d);
    await assignCustomer(t.app, d, 'quotations', q.id);
    const converted = await adminCall(t.app, d.adminToken, 'POST', `/quotations/${q.id}/convert`, {
      paymentMethod: 'bank_transfer',
    });
    assert.equal(converted.statusCode, 201, converted.body);
    const sale = converted.json().data;
    assert.equal(sale.fiscal.status, 'fiscalised', JSON.stringify(sale.fiscal));
    assert.equal(cis.received.at(-1)!.payment, 'T');

    // Paid by card at the shop the same day: CIS is told the method changed, T → K.
    const paid = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'card',
      amount: sale.totals.withTax,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const change = await until('the change message', async () =>
      cis.received.find((r) => r.operation === 'promijeniPodatkeRacuna' && r.zki === sale.fiscal.zki),
    );
    assert.equal(change.changedPayment, 'K');
    assert.equal(change.payment, 'T', 'the receipt as first sent');
    assert.match(change.answer, /<tns:SifraPoruke>p005</, change.answer);

    // The request element, signature included, against the official XSD (v1.9).
    const element = /<tns:PromijeniPodatkeRacunaZahtjev [\s\S]*<\/tns:PromijeniPodatkeRacunaZahtjev>/.exec(
      change.xml,
    )![0];
    assert.match(element, /<Signature xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">/);
    assert.match(element, /<Reference URI="#PromijeniPodatkeRacunaZahtjev">/);
    const file = path.join(dir, 'change.xml');
    await fs.writeFile(file, `<?xml version="1.0" encoding="UTF-8"?>${element}`);
    const { stderr } = await run('xmllint', ['--noout', '--schema', XSD, file]);
    assert.match(stderr, /validates/);

    const row = await until('the change settled', async () => {
      const r = await t.c.store.repos.fiscal.latestChange(d.companyId, sale.id);
      return r?.status === 'fiscalised' ? r : null;
    });
    assert.equal(row.kind, 'payment_change');

    // The hub's sale page says the change went to CIS.
    const admin = userOfRole(d, 'admin');
    const headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
    const page = await t.app.inject({
      method: 'GET',
      url: `/hub/sales/${sale.id}`,
      headers: { cookie: headers.cookie! },
    });
    assert.match(page.body, /role="note">[^<]*promijeniPodatkeRacuna/);

    // Paid the same way again: nothing new to tell.
    const sent = cis.received.length;
    const outcome = await t.c.store.unitOfWork((repos) =>
      t.c.fiscaliser.changePayment!(repos, {
        companyId: d.companyId,
        documentId: sale.id,
        paymentMethod: 'card',
        at: new Date(),
      }),
    );
    assert.equal(outcome, 'unchanged');
    assert.equal(cis.received.length, sent);
  });

  test('after midnight of the day of issue nothing is queued: the receipt is cancelled and issued anew', async () => {
    cis.mode = { kind: 'ok' };
    const doc = fiscalDocument(d.companyId, {
      paymentMethod: 'cash',
      issuedAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    await issue(t.c, doc);
    const outcome = await t.c.store.unitOfWork((repos) =>
      t.c.fiscaliser.changePayment!(repos, {
        companyId: d.companyId,
        documentId: doc.documentId,
        paymentMethod: 'card',
        at: new Date(),
      }),
    );
    assert.equal(outcome, 'too_late');
    assert.equal(await t.c.store.repos.fiscal.latestChange(d.companyId, doc.documentId), undefined);
  });

  test('the receipt request itself is valid against the official XSD', async () => {
    cis.mode = { kind: 'ok' };
    const doc = fiscalDocument(d.companyId, { paymentMethod: 'card', buyerTaxId: '69435151530' });
    await issue(t.c, doc);
    const sent = cis.received.at(-1)!;
    const element = /<tns:RacunZahtjev [\s\S]*<\/tns:RacunZahtjev>/.exec(sent.xml)![0];
    const file = path.join(dir, 'racun.xml');
    await fs.writeFile(file, `<?xml version="1.0" encoding="UTF-8"?>${element}`);
    const { stderr } = await run('xmllint', ['--noout', '--schema', XSD, file]);
    assert.match(stderr, /validates/);
  });

  test('the ZKI setting: SHA-256 under the signature once the company says so, SHA-1 before', async () => {
    cis.mode = { kind: 'ok' };
    const key = createPrivateKey(certificate.keyPem);
    const zkiOf = async (hash: 'sha1' | 'sha256') => {
      const p = d.products[0]!;
      const res = await adminCall(t.app, d.adminToken, 'POST', '/counter-sales', {
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }],
        paymentMethod: 'card',
      });
      assert.equal(res.statusCode, 201, res.body);
      const sale = res.json().data;
      const sent = cis.received.find((r) => r.zki === sale.fiscal.zki)!;
      const el = (name: string) => new RegExp(`<tns:${name}>([^<]*)<`).exec(sent.xml)![1]!;
      const expected = computeZki(
        key,
        {
          oib: el('Oib'),
          issuedAt: el('DatVrijeme').replace('T', ' '),
          sequence: el('BrOznRac'),
          premises: el('OznPosPr'),
          device: el('OznNapUr'),
          total: el('IznosUkupno'),
        },
        hash,
      );
      assert.equal(sale.fiscal.zki, expected, hash);
    };
    await zkiOf('sha1');
    const set = await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { fiscal: { zkiHash: 'sha256' } });
    assert.equal(set.statusCode, 200, set.body);
    assert.equal(set.json().data.fiscal.zkiHash, 'sha256');
    await zkiOf('sha256');
    const bad = await adminCall(t.app, d.adminToken, 'PATCH', '/settings', { fiscal: { zkiHash: 'md5' } });
    assert.equal(bad.statusCode, 400);
  });
});
