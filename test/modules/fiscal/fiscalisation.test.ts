// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'undici';
import { createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import {
  fiscalDocument,
  fiscalRig,
  issue,
  until,
  uploadCertificate,
  type FakeCis,
} from '../../support/fiscal-helpers.ts';
import type { Issued } from '../../support/fiscal-certs.ts';
import { NOT_REQUIRED } from '../../../src/modules/fiscal/index.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

/**
 * Croatian fiscalisation against a fake CIS over real HTTPS: the signed request verified by the
 * fake, a JIR stored; CIS down or slow heals by the worker with NakDost=true; a refusal is kept
 * with its code and not sent again; admins told past the deadline. SQLite, or PostgreSQL with
 * TEST_DATABASE_URL.
 */
describe('fiscalisation through CIS', () => {
  let t: TestApp;
  let cis: FakeCis;
  let ca: Issued;
  let d: DemoCompany;

  before(async () => {
    const dir = (await import('node:fs')).mkdtempSync(`${(await import('node:os')).tmpdir()}/fiscal-rig-`);
    const rig = await fiscalRig(dir);
    cis = rig.cis;
    ca = rig.ca;
    t = await createTestApp(
      { ...rig.env, FISCAL_WAIT_MS: '700', FISCAL_RETRY_DELAYS_MS: '100' },
      { startWorkers: true },
    );
    d = await createTenant(t.c);
    await uploadCertificate(t.app, d.adminToken, ca);
  });
  after(async () => {
    await t.close();
    await cis.close();
  });

  test('an issued invoice gets its ZKI at once and its JIR within the wait; CIS verified the signature', async () => {
    cis.mode = { kind: 'ok' };
    const doc = fiscalDocument(d.companyId, { paymentMethod: 'cash' });
    const { prepared, delivered } = await issue(t.c, doc);
    assert.equal(prepared.status, 'pending');
    assert.match(prepared.protectionCode!, /^[0-9a-f]{32}$/);
    assert.match(prepared.verifyUrl!, /^https:\/\/porezna\.gov\.hr\/rn\?zki=[0-9a-f]{32}&datv=\d{8}_\d{4}&izn=13630$/);
    assert.equal(delivered?.status, 'fiscalised', JSON.stringify(delivered));
    assert.match(delivered!.receipt!, /^[0-9a-f-]{36}$/);
    assert.equal(delivered!.verifyUrl, prepared.verifyUrl!.replace(/zki=[0-9a-f]+/, `jir=${delivered!.receipt}`));
    const sent = cis.received.at(-1)!;
    assert.match(sent.answer, /<tns:Jir>/, sent.answer);
    assert.deepEqual(
      { zki: sent.zki, late: sent.lateDelivery, total: sent.total, payment: sent.payment, oib: sent.oib },
      { zki: prepared.protectionCode, late: false, total: '136.30', payment: 'G', oib: '12345678903' },
    );
    assert.match(sent.xml, /<tns:Pdv><tns:Porez><tns:Stopa>25\.00<\/tns:Stopa><tns:Osnovica>100\.00<\/tns:Osnovica>/);
    const read = await t.c.fiscaliser.statusOf(d.companyId, [doc.documentId]);
    assert.deepEqual(read.get(doc.documentId), delivered);
  });

  test("the fake CIS's signature check can fail: a signed request altered after signing is refused (s004)", async () => {
    cis.mode = { kind: 'ok' };
    await issue(t.c, fiscalDocument(d.companyId));
    const tampered = cis.received.at(-1)!.xml.replace('<tns:IznosUkupno>136.30<', '<tns:IznosUkupno>1.30<');
    const agent = new Agent({ connect: { ca: ca.certPem } });
    const res = await request(cis.url, { method: 'POST', body: tampered, dispatcher: agent });
    const body = await res.body.text();
    await agent.close();
    assert.match(body, /<tns:SifraGreske>s004<\/tns:SifraGreske>/);
  });

  test("the fake CIS's schema check can fail: a premises label outside [0-9a-zA-Z] is refused (s001)", async () => {
    cis.mode = { kind: 'ok' };
    const { delivered } = await issue(t.c, fiscalDocument(d.companyId, { premises: 'ZG-1' }));
    assert.equal(delivered?.status, 'rejected');
    assert.equal(delivered!.error?.code, 's001');
    assert.match(delivered!.error!.message, /OznPosPr/);
  });

  test('a company without a certificate is not fiscalised: nothing queued', async () => {
    const other = await createTenant(t.c);
    const doc = fiscalDocument(other.companyId);
    const { prepared, delivered } = await issue(t.c, doc);
    assert.deepEqual(prepared, NOT_REQUIRED);
    assert.equal(delivered, undefined);
    assert.equal((await t.c.fiscaliser.statusOf(other.companyId, [doc.documentId])).size, 0);
  });

  test('CIS down: issued at once with its ZKI; the worker delivers it late (NakDost=true) once CIS is back', async () => {
    await cis.down();
    const doc = fiscalDocument(d.companyId);
    const started = Date.now();
    const { delivered } = await issue(t.c, doc);
    assert.ok(Date.now() - started < 1_500, `issue took ${Date.now() - started} ms`);
    assert.equal(delivered?.status, 'pending');
    assert.match(delivered!.protectionCode!, /^[0-9a-f]{32}$/);
    const before = cis.received.length;
    await new Promise((r) => setTimeout(r, 300)); // a few retries meet the refused port
    await cis.up();
    const healed = await until('the JIR', async () => {
      const s = (await t.c.fiscaliser.statusOf(d.companyId, [doc.documentId])).get(doc.documentId);
      return s?.status === 'fiscalised' ? s : null;
    });
    assert.match(healed.receipt!, /^[0-9a-f-]{36}$/);
    const resent = cis.received.slice(before).filter((r) => r.zki === delivered!.protectionCode);
    assert.equal(resent.length, 1);
    assert.equal(resent[0]!.lateDelivery, true);
  });

  test('CIS slow: the invoice does not wait past FISCAL_WAIT_MS; the worker re-sends it late', async () => {
    cis.mode = { kind: 'slow', ms: 1_500 };
    const doc = fiscalDocument(d.companyId);
    const started = Date.now();
    const { delivered } = await issue(t.c, doc);
    const took = Date.now() - started;
    assert.ok(took < 1_400, `issue waited ${took} ms`);
    assert.equal(delivered?.status, 'pending');
    cis.mode = { kind: 'ok' };
    await until('the JIR', async () => {
      const s = (await t.c.fiscaliser.statusOf(d.companyId, [doc.documentId])).get(doc.documentId);
      return s?.status === 'fiscalised';
    });
    const mine = cis.received.filter((r) => r.zki === delivered!.protectionCode);
    assert.ok(
      mine.some((r) => r.lateDelivery && /<tns:Jir>/.test(r.answer)),
      'a late re-send answered',
    );
  });

  test('a refusal is stored with its code and text, admins are told, and it is not sent again', async () => {
    cis.mode = { kind: 'error', code: 's003', message: "Certifikat ne sadrži naziv 'Fiskal'" };
    const doc = fiscalDocument(d.companyId);
    const { delivered } = await issue(t.c, doc);
    assert.equal(delivered?.status, 'rejected');
    assert.deepEqual(delivered!.error, { code: 's003', message: "Certifikat ne sadrži naziv 'Fiskal'" });
    assert.equal(delivered!.receipt, null);
    cis.mode = { kind: 'ok' };
    const count = () => cis.received.filter((r) => r.zki === delivered!.protectionCode).length;
    await new Promise((r) => setTimeout(r, 600)); // several worker rounds
    assert.equal(count(), 1);
    const notes = await t.c.notifications.listForUser(d.companyId, d.users[0]!.id, { unreadOnly: true, limit: 50 });
    assert.ok(notes.some((n) => n.kind === 'fiscal.rejected' && n.subject?.id === doc.documentId));
    const settings = await t.c.fiscalSettings.unfiscalised(d.companyId);
    assert.ok(
      settings.some((u) => u.documentId === doc.documentId && u.status === 'rejected' && /s003/.test(u.error!)),
    );
  });

  test("CIS's system error (s006) is retried, unlike a refusal", async () => {
    cis.mode = { kind: 'error', code: 's006', message: 'Sistemska pogreška prilikom obrade zahtjeva' };
    const doc = fiscalDocument(d.companyId);
    const { delivered } = await issue(t.c, doc);
    assert.equal(delivered?.status, 'pending');
    cis.mode = { kind: 'ok' };
    await until('the JIR', async () => {
      const s = (await t.c.fiscaliser.statusOf(d.companyId, [doc.documentId])).get(doc.documentId);
      return s?.status === 'fiscalised';
    });
  });

  test('an invoice still without JIR past the deadline is told to the admins, once', async () => {
    await cis.down();
    // Two weeks back: past two working days whatever holidays fell in between.
    const doc = fiscalDocument(d.companyId, { issuedAt: new Date(Date.now() - 14 * 86_400_000).toISOString() });
    await issue(t.c, doc);
    const overdue = async () =>
      (await t.c.notifications.listForUser(d.companyId, d.users[0]!.id, { unreadOnly: true, limit: 100 })).filter(
        (n) => n.kind === 'fiscal.overdue' && n.subject?.id === doc.documentId,
      );
    await until('the overdue notice', async () => (await overdue()).length > 0);
    await new Promise((r) => setTimeout(r, 400)); // more failed re-sends
    assert.equal((await overdue()).length, 1);
    await cis.up();
  });
});
