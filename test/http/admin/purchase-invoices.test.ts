// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readWorkbook } from '../../support/xlsx.ts';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { sql } from 'kysely';
import { createTestApp, createTenant, bearer, provisionDatabase, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import { adminCall } from '../../support/sales-helpers.ts';
import { until } from '../../support/fiscal-helpers.ts';
import { exchangeSettings, startFakeEracun, type FakeEracun } from '../../support/fake-eracun.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { enqueueExchangeCall } from '../../../src/modules/einvoice/index.ts';

const FIXTURES = new URL('../../fixtures/purchase/', import.meta.url);
const HR_UBL = fs.readFileSync(new URL('hr-cius-eracun-pdv25.xml', FIXTURES));
const CII = fs.readFileSync(new URL('cii-business-example-01.xml', FIXTURES));
const XRECHNUNG = fs.readFileSync(new URL('xrechnung-01.01a-invoice-cii.xml', FIXTURES));

/** The HR sample under another number: a second, distinct document. */
const numbered = (n: string) =>
  Buffer.from(HR_UBL.toString('utf8').replace('<cbc:ID>1-P1-1</cbc:ID>', `<cbc:ID>${n}</cbc:ID>`));

function upload(t: TestApp, token: string, bytes: Buffer, type = 'application/xml') {
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/purchase-invoices',
    headers: { ...bearer(token), 'content-type': type },
    payload: bytes,
  });
}

describe('the e-invoice exchange: settings sealed, checked against a fake moj-eRačun over HTTPS', () => {
  let t: TestApp;
  let fake: FakeEracun;
  let d: DemoCompany;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-eracun-'));
  before(async () => {
    fake = await startFakeEracun({ dir });
    t = await createTestApp({ EINVOICE_EXCHANGE_CA: fake.caFile });
    d = await createTenant(t.c);
  });
  after(async () => {
    await t.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('bad settings are a 400 naming each field; nothing is stored', async () => {
    const res = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', {
      ...exchangeSettings(fake),
      password: '',
      companyId: '1234',
      baseUrl: 'http://127.0.0.1:1',
    });
    const problem = assertProblem(res, 400, 'validation_failed');
    assert.deepEqual(Object.keys(problem.details).sort(), ['baseUrl', 'companyId', 'password']);
    const read = await adminCall(t.app, d.adminToken, 'GET', '/einvoice/exchange');
    assert.equal(read.json().data.configured, false);
  });

  test('stored sealed, never returned; the check proves TLS and credentials; a wrong password says so; delete forgets', async () => {
    const put = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(put.json().data.baseUrl, fake.url);
    assert.doesNotMatch(put.body, new RegExp(fake.credentials.password));
    const row = await t.c.database.db
      .selectFrom('einvoice_exchanges')
      .selectAll()
      .where('company_id', '=', d.companyId)
      .executeTakeFirstOrThrow();
    assert.doesNotMatch(JSON.stringify(row), new RegExp(fake.credentials.password), 'the password is sealed');

    const check = await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check');
    assert.equal(check.statusCode, 200, check.body);
    assert.equal(check.json().data.ok, true, check.body);
    assert.equal(fake.calls.at(-1)!.path, '/apis/v2/queryInbox');
    assert.equal(fake.calls.at(-1)!.body.CompanyId, fake.credentials.companyId);

    // Without the password the stored one is kept; with a wrong one the check fails, saying why.
    const keep = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', {
      ...exchangeSettings(fake),
      password: undefined,
      businessUnit: 'PJ1',
    });
    assert.equal(keep.statusCode, 200, keep.body);
    assert.equal((await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check')).json().data.ok, true);
    assert.equal(fake.calls.at(-1)!.body.CompanyBu, 'PJ1');
    await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', { ...exchangeSettings(fake), password: 'kriva' });
    const wrong = (await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check')).json().data;
    assert.equal(wrong.ok, false);
    assert.match(wrong.message, /credentials|401/);

    // Slow, refusing, then well again: the check says what the intermediary did.
    await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
    fake.mode = { kind: 'slow', ms: 400 };
    const slow = (await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check')).json().data;
    assert.equal(slow.ok, true);
    assert.ok(slow.millis >= 400, String(slow.millis));
    fake.mode = { kind: 'refuse', status: 503, message: 'Održavanje sustava.' };
    const down = (await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check')).json().data;
    assert.deepEqual([down.ok, /HTTP 503/.test(down.message)], [false, true]);
    fake.mode = { kind: 'refuse', status: 400, message: 'Neispravan zahtjev.' };
    const refused = (await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check')).json().data;
    assert.deepEqual([refused.ok, /refused .*Neispravan zahtjev/.test(refused.message)], [false, true]);
    fake.mode = { kind: 'ok' };

    // Staff and another company see nothing of it.
    assertProblem(
      await adminCall(t.app, await tokenForRole(t.c, d, 'staff'), 'GET', '/einvoice/exchange'),
      403,
      'forbidden',
    );
    const other = await createTenant(t.c);
    assert.equal((await adminCall(t.app, other.adminToken, 'GET', '/einvoice/exchange')).json().data.configured, false);

    const del = await adminCall(t.app, d.adminToken, 'DELETE', '/einvoice/exchange');
    assert.equal(del.statusCode, 204);
    assert.equal((await adminCall(t.app, d.adminToken, 'GET', '/einvoice/exchange')).json().data.configured, false);
    assertProblem(await adminCall(t.app, d.adminToken, 'DELETE', '/einvoice/exchange'), 404, 'not_found');
    assertProblem(await adminCall(t.app, d.adminToken, 'POST', '/einvoice/exchange/check'), 409, 'conflict');
  });
});

describe('received invoices: polled from the exchange, kept byte for byte, accepted or rejected (reported), paid', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-purchases-'));
  const secretsKey = randomBytes(32).toString('base64');
  let fake: FakeEracun;
  let database: { url: string; drop(): Promise<void> };
  let t: TestApp;
  let d: DemoCompany;
  const env = () => ({
    DATABASE_URL: database.url,
    SECRETS_KEY: secretsKey,
    EINVOICE_EXCHANGE_CA: fake.caFile,
    EINVOICE_POLL_SECONDS: '1',
    EINVOICE_RETRY_DELAYS_MS: '200',
  });
  before(async () => {
    fake = await startFakeEracun({ dir });
    database = await provisionDatabase(dir);
    t = await createTestApp(env(), { startWorkers: true });
    d = await createTenant(t.c);
    const put = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
    assert.equal(put.statusCode, 200, put.body);
  });
  after(async () => {
    await t.close();
    await fake.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const list = async (query = '') =>
    (await adminCall(t.app, d.adminToken, 'GET', `/purchase-invoices${query}`)).json().data;

  test('a document in the inbox is downloaded once, filed with its event, its original bytes served as they came', async () => {
    const electronicId = fake.deliver(HR_UBL, { number: '1-P1-1', oib: '12345678901', name: 'TVRTKA A d.o.o.' });
    const [filed] = await until('the inbox poll', async () => {
      const rows = await list();
      return rows.length > 0 ? rows : null;
    });
    assert.equal(filed.exchangeDocumentId, String(electronicId));
    assert.equal(filed.number, '1-P1-1');
    assert.deepEqual(filed.supplier, { name: 'TVRTKA A d.o.o.', oib: '12345678901', vatId: 'HR12345678901' });
    assert.deepEqual(filed.totals, {
      net: '100.00',
      tax: '25.00',
      total: '125.00',
      payable: '125.00',
      paid: '0.00',
      due: '125.00',
    });
    assert.equal(filed.dueDate, '2025-12-31');
    assert.equal(filed.status, 'received');

    const xml = await adminCall(t.app, d.adminToken, 'GET', `/purchase-invoices/${filed.id}?format=xml`);
    assert.equal(xml.statusCode, 200);
    assert.match(String(xml.headers['content-type']), /^application\/xml/);
    assert.ok(xml.rawPayload.equals(HR_UBL), 'the original bytes, unchanged');

    const detail = (await adminCall(t.app, d.adminToken, 'GET', `/purchase-invoices/${filed.id}`)).json().data;
    assert.equal(detail.document.lines[0].kpd, '62.20.20');
    assert.match(detail.document.lines[0].kpdName, /\w/);
    assert.deepEqual(detail.document.taxes, [
      { category: 'S', rate: '25', base: '100.00', amount: '25.00', exemptionReason: null },
    ]);
    assert.equal(detail.iban, 'HRXXXXXXXXXXXXXXXX');
    assert.equal(detail.paymentReference, 'HR00 123456');

    const events = await t.c.database.db
      .selectFrom('webhook_events')
      .select(['type', 'location_id', 'payload'])
      .where('company_id', '=', d.companyId)
      .where('type', '=', 'purchase_invoice.received')
      .execute();
    assert.equal(events.length, 1);
    assert.equal(events[0]!.location_id, null);
    assert.equal(JSON.parse(events[0]!.payload).data.purchaseInvoiceId, filed.id);

    // Polled again and again: still one.
    const polls = fake.calls.filter((c) => c.path === '/apis/v2/queryInbox').length;
    await until(
      'two more polls',
      async () => fake.calls.filter((c) => c.path === '/apis/v2/queryInbox').length >= polls + 2,
    );
    assert.equal((await list()).length, 1);
    assert.equal(fake.calls.filter((c) => c.path === '/apis/v2/receive').length, 1);
  });

  test('the original XML is guarded by the database itself: an update of its bytes is refused', async () => {
    const [filed] = await list();
    await assert.rejects(
      sql`update purchase_invoices set original_xml = ${Buffer.from('<x/>')} where id = ${filed.id}`.execute(
        t.c.database.db,
      ),
      /never changed/,
    );
    await assert.rejects(
      sql`update purchase_invoices set xml_sha256 = 'x' where id = ${filed.id}`.execute(t.c.database.db),
      /never changed/,
    );
    // Other columns still change (a decision, a payment).
    await sql`update purchase_invoices set paid_minor = paid_minor where id = ${filed.id}`.execute(t.c.database.db);
  });

  test('a rejection with a reason is reported through the exchange from the outbox; the view shows the report', async () => {
    const [filed] = await list();
    const staff = await tokenForRole(t.c, d, 'staff');
    assert.equal(
      (await adminCall(t.app, staff, 'GET', `/purchase-invoices/${filed.id}`)).statusCode,
      200,
      'staff read',
    );
    assertProblem(
      await adminCall(t.app, staff, 'POST', `/purchase-invoices/${filed.id}/payments`, {
        amount: '1.00',
        date: '2026-01-05',
        method: 'T',
      }),
      403,
      'forbidden',
    );
    const bad = assertProblem(
      await adminCall(t.app, d.adminToken, 'POST', `/purchase-invoices/${filed.id}/reject`, { type: 'X', reason: '' }),
      400,
    );
    assert.ok(
      Object.keys(bad.details).some((k) => k.includes('type')),
      JSON.stringify(bad),
    );

    // Staff decide on a received invoice (issue 33); admins record what is paid.
    const res = await adminCall(t.app, staff, 'POST', `/purchase-invoices/${filed.id}/reject`, {
      type: 'U',
      reason: 'Pogrešna cijena na stavci 1.',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, 'rejected');
    const reported = await until('the rejection reported', async () => {
      const v = (await adminCall(t.app, d.adminToken, 'GET', `/purchase-invoices/${filed.id}`)).json().data;
      return v.rejection.report?.status === 'done' ? v : null;
    });
    assert.equal(reported.rejection.type, 'U');
    assert.deepEqual(
      fake.rejections.map((r) => ({ id: r.electronicId, type: r.type, reason: r.reason })),
      [{ id: Number(filed.exchangeDocumentId), type: 'U', reason: 'Pogrešna cijena na stavci 1.' }],
    );
    assertProblem(
      await adminCall(t.app, d.adminToken, 'POST', `/purchase-invoices/${filed.id}/accept`),
      409,
      'conflict',
    );
    assertProblem(
      await adminCall(t.app, d.adminToken, 'POST', `/purchase-invoices/${filed.id}/payments`, {
        amount: '1.00',
        date: '2026-01-05',
        method: 'bank_transfer',
      }),
      409,
      'conflict',
    );
  });

  test('an exchange outage heals by itself: the poll and a rejection wait, then go through', async () => {
    await fake.down();
    const before = (await list()).length;
    const second = fake.deliver(numbered('2-P1-1'));
    // A document uploaded by hand meanwhile can be accepted; rejecting one from the exchange waits for it.
    await until('a failed poll recorded', async () => {
      const s = (await adminCall(t.app, d.adminToken, 'GET', '/einvoice/exchange')).json().data;
      return s.inbox.error ? s : null;
    });
    await fake.up();
    const filed = await until('the second document filed', async () =>
      (await list()).find((p: { exchangeDocumentId: string }) => p.exchangeDocumentId === String(second)),
    );
    assert.equal((await list()).length, before + 1);
    await fake.down();
    const rejected = await adminCall(t.app, d.adminToken, 'POST', `/purchase-invoices/${filed.id}/reject`, {
      type: 'N',
      reason: 'Nije naručeno.',
    });
    assert.equal(rejected.statusCode, 200, rejected.body);
    const waiting = await until('a failed attempt', async () => {
      const v = (await adminCall(t.app, d.adminToken, 'GET', `/purchase-invoices/${filed.id}`)).json().data;
      return v.rejection.report?.attempts >= 1 ? v : null;
    });
    assert.equal(waiting.rejection.report.status, 'pending');
    assert.ok(waiting.rejection.report.lastError);
    await fake.up();
    await until('the rejection reported after the outage', async () =>
      fake.rejections.some((r) => r.electronicId === second),
    );
    const s = (await adminCall(t.app, d.adminToken, 'GET', '/einvoice/exchange')).json().data;
    await until('a good poll after the outage', async () => {
      const now = (await adminCall(t.app, d.adminToken, 'GET', '/einvoice/exchange')).json().data;
      return now.inbox.error === null && now.inbox.checkedAt !== s.inbox.checkedAt;
    });
  });

  test('a restarted worker polls at once and files what arrived while it was away, nothing twice', async () => {
    await t.close();
    const third = fake.deliver(numbered('3-P1-1'));
    const receivesBefore = fake.calls.filter((c) => c.path === '/apis/v2/receive').length;
    // An hour between polls: only the poll at start can file it within the test.
    t = await createTestApp({ ...env(), EINVOICE_POLL_SECONDS: '3600' }, { startWorkers: true });
    const filed = await until('the document filed after the restart', async () =>
      (await list()).find((p: { exchangeDocumentId: string }) => p.exchangeDocumentId === String(third)),
    );
    assert.equal(filed.number, '3-P1-1');
    assert.equal(fake.calls.filter((c) => c.path === '/apis/v2/receive').length, receivesBefore + 1);
    assert.equal((await list()).length, 3);
  });

  test('an XML upload (an XRechnung by e-mail, a CII) is filed the same way; the same bytes twice are a 409; not XML is a 400', async () => {
    const x = await upload(t, d.adminToken, XRECHNUNG);
    assert.equal(x.statusCode, 201, x.body);
    const view = x.json().data;
    assert.equal(view.source, 'upload');
    assert.equal(view.syntax, 'cii');
    assert.equal(view.supplier.vatId, 'DE 123456789');
    assert.equal(view.totals.total, '336.90');
    assert.equal(x.headers.location, `/api/v1/admin/purchase-invoices/${view.id}`);
    assertProblem(await upload(t, d.adminToken, XRECHNUNG), 409, 'conflict');
    const bad = assertProblem(await upload(t, d.adminToken, Buffer.from('<Invoice>nope')), 400, 'validation_failed');
    assert.ok(bad.details.xml);
    const json = await adminCall(t.app, d.adminToken, 'POST', '/purchase-invoices', { xml: '<x/>' });
    assertProblem(json, 415);

    const cii = (await upload(t, d.adminToken, CII)).json().data;
    assert.equal(cii.currency, 'NOK');
    const detail = (await adminCall(t.app, d.adminToken, 'GET', `/purchase-invoices/${cii.id}`)).json().data;
    assert.equal(detail.document.attachments[0].mimeCode, 'application/pdf');

    // Accept, then pay in two parts; never more than is due.
    const accepted = await adminCall(t.app, d.adminToken, 'POST', `/purchase-invoices/${view.id}/accept`);
    assert.equal(accepted.json().data.status, 'accepted');
    const pay = (amount: string) =>
      adminCall(t.app, d.adminToken, 'POST', `/purchase-invoices/${view.id}/payments`, {
        amount,
        date: '2026-01-10',
        method: 'bank_transfer',
      });
    assert.equal((await pay('300.00')).statusCode, 201);
    const over = assertProblem(await pay('36.91'), 400, 'validation_failed');
    assert.ok(over.details.amount);
    const paid = (await pay('36.90')).json().data;
    assert.equal(paid.totals.due, '0.00');
    assert.equal(paid.payments.length, 2);
  });

  test('the book of received invoices (U-RA): JSON, CSV and XLSX by issue date; the month archive carries the received XML', async () => {
    const json = await adminCall(t.app, d.adminToken, 'GET', '/reports/purchases?from=2025-12-01&to=2025-12-31');
    assert.equal(json.statusCode, 200, json.body);
    const book = json.json().data;
    assert.deepEqual(
      book.map((p: { number: string }) => p.number),
      ['1-P1-1', '2-P1-1', '3-P1-1'],
    );
    const csv = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/purchases?from=2025-12-01&to=2025-12-31&format=csv&locale=hr',
    );
    assert.equal(csv.statusCode, 200);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    assert.equal(lines.length, 4);
    // Obrazac U-RA's R1–R18 in the form's order, then Portico's own columns. The first invoice was
    // rejected: its input VAT goes to "ne može se odbiti" (R18), not R17 (art. 52(3)).
    assert.match(
      lines[0]!,
      /^Redni broj;Broj računa;Datum računa;Naziv dobavljača;Sjedište dobavljača;Vrsta poreznog broja;OIB \/ PDV ID dobavljača;Osnovica 5 %;Osnovica 13 %;Osnovica 25 %;Ukupni iznos s PDV-om;Ukupni pretporez;Pretporez 5 % \(može se odbiti\);Pretporez 5 % \(ne može se odbiti\);Pretporez 13 % \(može se odbiti\);Pretporez 13 % \(ne može se odbiti\);Pretporez 25 % \(može se odbiti\);Pretporez 25 % \(ne može se odbiti\);/,
    );
    assert.match(
      lines[1]!,
      /^1;1-P1-1;01\.12\.2025\.;TVRTKA A d\.o\.o\.;[^;]+;1;12345678901;0,00;0,00;100,00;125,00;25,00;0,00;0,00;0,00;0,00;0,00;25,00;0,00;0,00;125,00;31\.12\.2025\.;EUR;0,00;rejected$/,
    );
    const xlsx = await adminCall(
      t.app,
      d.adminToken,
      'GET',
      '/reports/purchases?from=2025-12-01&to=2025-12-31&format=xlsx&locale=en',
    );
    const { rows: sheet } = await readWorkbook(xlsx.rawPayload);
    const vat25 = sheet[0]!.indexOf('Input VAT 25 % (not deductible)');
    assert.ok(vat25 >= 0, String(sheet[0]));
    assert.equal(sheet[1]![vat25], 25);
    assertProblem(await adminCall(t.app, d.adminToken, 'GET', '/reports/purchases?from=2025-12-31&to=2025-12-01'), 400);
    assertProblem(
      await adminCall(
        t.app,
        await tokenForRole(t.c, d, 'staff'),
        'GET',
        '/reports/purchases?from=2025-12-01&to=2025-12-31',
      ),
      403,
    );

    const started = await adminCall(t.app, d.adminToken, 'POST', '/exports/month', { month: '2025-12' });
    assert.equal(started.statusCode, 202, started.body);
    await t.c.monthArchives.find(d.companyId, started.json().data.id).finished;
    const zip = await adminCall(t.app, d.adminToken, 'GET', `/exports/${started.json().data.id}/download`);
    const file = path.join(dir, 'month.zip');
    fs.writeFileSync(file, zip.rawPayload);
    const names = execFileSync('zipinfo', ['-1', file], { encoding: 'utf8' }).trim().split('\n');
    const received = names.filter((n) => n.startsWith('received/'));
    assert.equal(received.length, 3, names.join(' '));
    const first = received.find((n) => n.includes('-1-P1-1-'))!;
    assert.ok(execFileSync('unzip', ['-p', file, first]).equals(HR_UBL), 'the original bytes in the archive');
  });

  test('filters: status, supplier, period; another company sees none of it', async () => {
    assert.deepEqual(
      (await list('?status=rejected')).map((p: { status: string }) => p.status),
      ['rejected', 'rejected'],
    );
    assert.equal((await list('?supplier=seller%20name')).length, 1);
    assert.equal((await list('?supplier=12345678901')).length, 3);
    assert.equal((await list('?from=2013-01-01&to=2013-12-31')).length, 1);
    assertProblem(await adminCall(t.app, d.adminToken, 'GET', '/purchase-invoices?from=2013-13-01'), 400);
    const other = await createTenant(t.c);
    assert.deepEqual((await adminCall(t.app, other.adminToken, 'GET', '/purchase-invoices')).json().data, []);
    const [mine] = await list();
    assertProblem(await adminCall(t.app, other.adminToken, 'GET', `/purchase-invoices/${mine.id}`), 404, 'not_found');
    assertProblem(await adminCall(t.app, other.adminToken, 'GET', `/purchase-invoices/${mine.id}?format=xml`), 404);
  });
});

describe('the exchange outbox carries what the invoicing side will write: a send, a payment reported on it, a refused document', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-exchange-outbox-'));
  let fake: FakeEracun;
  let t: TestApp;
  let d: DemoCompany;
  before(async () => {
    fake = await startFakeEracun({ dir });
    t = await createTestApp(
      { EINVOICE_EXCHANGE_CA: fake.caFile, EINVOICE_RETRY_DELAYS_MS: '100', EINVOICE_POLL_SECONDS: '3600' },
      { startWorkers: true },
    );
    d = await createTenant(t.c);
    const put = await adminCall(t.app, d.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(fake));
    assert.equal(put.statusCode, 200, put.body);
  });
  after(async () => {
    await t.close();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const messages = (subjectId: string) =>
    t.c.database.db
      .selectFrom('exchange_messages')
      .selectAll()
      .where('subject_id', '=', subjectId)
      .orderBy('kind')
      .execute();

  test('written in one transaction, sent by the worker in order: the payment waits for the send it reports on', async () => {
    const now = new Date().toISOString();
    await t.c.store.transaction(async (repos) => {
      // The payment first: the worker must still not report it before the document is through.
      await enqueueExchangeCall(
        repos,
        {
          companyId: d.companyId,
          subjectId: 'sale_1',
          kind: 'mark_paid',
          body: { paidOn: '2026-01-20', amount: '125.00', method: 'T' },
        },
        { now, newId: t.c.newId },
      );
      await enqueueExchangeCall(
        repos,
        { companyId: d.companyId, subjectId: 'sale_1', kind: 'send', body: { xml: HR_UBL.toString('utf8') } },
        { now, newId: t.c.newId },
      );
    });
    t.c.exchangeWorker.wake();
    const done = await until('both delivered', async () => {
      const rows = await messages('sale_1');
      return rows.every((r) => r.status === 'done') ? rows : null;
    });
    assert.equal(fake.sent.length, 1, 'the exchange saw one document');
    const sendAnswer = JSON.parse(done.find((r) => r.kind === 'send')!.answer!);
    assert.equal(sendAnswer.documentId, String(fake.sent[0]!.electronicId));
    assert.deepEqual(fake.payments, [
      { electronicId: fake.sent[0]!.electronicId, date: '2026-01-20', amount: '125.00', method: 'T' },
    ]);
  });

  test('a document the intermediary refuses (not valid UBL) is kept as failed, with its reason, and not sent again', async () => {
    await t.c.store.transaction((repos) =>
      enqueueExchangeCall(
        repos,
        {
          companyId: d.companyId,
          subjectId: 'sale_2',
          kind: 'send',
          body: { xml: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>' },
        },
        { now: new Date().toISOString(), newId: t.c.newId },
      ),
    );
    t.c.exchangeWorker.wake();
    const [failed] = await until('refused', async () => {
      const rows = await messages('sale_2');
      return rows[0]?.status === 'failed' ? rows : null;
    });
    assert.match(failed!.last_error!, /XSD/);
    const sends = fake.calls.filter((c) => c.path === '/apis/v2/send').length;
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(fake.calls.filter((c) => c.path === '/apis/v2/send').length, sends);
    assert.equal(fake.sent.length, 1);
  });
});
