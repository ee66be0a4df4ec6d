// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { answerQuote, pdfText, quotationLink } from '../support/mail-helpers.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { addHttpEndpoint } from '../support/webhook-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

async function statusOf(t: TestApp, demo: DemoCompany, id: string): Promise<string> {
  return (await adminCall(t.app, demo.adminToken, 'GET', `/quotations/${id}`)).json().data.status;
}

async function eventsOf(t: TestApp, companyId: string, type: string) {
  return t.c.database.db
    .selectFrom('webhook_events')
    .select('payload')
    .where('company_id', '=', companyId)
    .where('type', '=', type)
    .execute();
}

describe("the customer's page of a sent quotation (/q/{token})", () => {
  let t: TestApp;
  let demo: DemoCompany;
  before(async () => {
    t = await createTestApp();
    demo = await createTenant(t.c);
  });
  after(() => t.close());

  test('shows the quotation in the link’s language with its PDF, and nothing of other documents', async () => {
    const q = await newQuotation(t.app, demo);
    const link = await quotationLink(t, demo.companyId, q.id, 'de');
    const page = await t.app.inject({ method: 'GET', url: `/q/${link.token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<html lang="de">/);
    assert.match(page.body, new RegExp(`Angebot ${q.number}`));
    assert.match(page.body, /Colour: RAL 9010/);
    assert.equal(page.headers['referrer-policy'], 'same-origin');
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(String(page.headers['x-robots-tag']), /noindex/);
    const pdf = await t.app.inject({ method: 'GET', url: `/q/${link.token}/pdf` });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.match(pdfText(pdf.rawPayload), /Angebot/);
    assert.doesNotMatch(page.body, /<a [^>]*href="\/hub/, 'no link into the hub');
  });

  test('guessed, malformed and expired tokens are refused alike, and open nothing', async () => {
    for (const token of [randomBytes(32).toString('base64url'), 'x', 'a'.repeat(43), '../hub', `${'A'.repeat(42)}=`]) {
      const res = await t.app.inject({ method: 'GET', url: `/q/${encodeURIComponent(token)}` });
      assert.equal(res.statusCode, 404, token);
      const post = await answerQuote(t, token, 'accept', { name: 'Mallory' });
      assert.equal(post.statusCode, 404, token);
    }
    const q = await newQuotation(t.app, demo);
    const old = await quotationLink(t, demo.companyId, q.id, 'hr', new Date(Date.now() - 61 * 86_400_000));
    const expired = await t.app.inject({ method: 'GET', url: `/q/${old.token}` });
    assert.equal(expired.statusCode, 410);
    assert.match(expired.body, /expired|istekla/i);
    assert.equal((await answerQuote(t, old.token, 'accept', { name: 'Ana' })).statusCode, 410);
    assert.equal(await statusOf(t, demo, q.id), 'approved');
    // Only the token's hash is stored.
    const stored = await t.c.database.db.selectFrom('quotation_links').selectAll().execute();
    assert.ok(stored.every((row) => !Object.values(row).includes(old.token)));
  });

  test('accept: the quotation becomes accepted, staff are notified, quote.accepted fires; a second answer is refused', async () => {
    const q = await newQuotation(t.app, demo);
    const link = await quotationLink(t, demo.companyId, q.id);
    const missing = await answerQuote(t, link.token, 'accept', { name: '  ' });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.body, /aria-invalid="true"/);
    const res = await answerQuote(t, link.token, 'accept', {
      name: 'Ana Kovač',
      reference: 'NAR-118',
      note: 'Dostava u petak',
    });
    assert.equal(res.statusCode, 303);
    assert.equal(await statusOf(t, demo, q.id), 'accepted');
    const page = await t.app.inject({ method: 'GET', url: `/q/${link.token}` });
    assert.match(page.body, /Prihvatili ste ovu ponudu/);
    assert.doesNotMatch(page.body, /<form/);
    const again = await answerQuote(t, link.token, 'decline', { reason: 'Predomislio sam se' });
    assert.equal(again.statusCode, 409);
    assert.equal(await statusOf(t, demo, q.id), 'accepted');
    const events = await eventsOf(t, demo.companyId, 'quote.accepted');
    const accepted = events.map((e) => JSON.parse(e.payload).data).filter((d) => d.quotationId === q.id);
    assert.equal(accepted.length, 1);
    assert.equal(accepted[0].purchaseOrderReference, 'NAR-118');
    const told = await t.c.database.db
      .selectFrom('notifications')
      .select(['user_id', 'kind'])
      .where('company_id', '=', demo.companyId)
      .where('subject_id', '=', q.id)
      .execute();
    const roles = told.map((n) => demo.users.find((u) => u.id === n.user_id)!.role).sort();
    assert.deepEqual([...new Set(roles)], ['admin', 'staff'], 'the counter and admins are told; support is not');
    // An accepted quotation is ready to convert.
    await assignCustomer(t.app, demo, 'quotations', q.id);
    const sale = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
    assert.equal(sale.statusCode, 201, sale.body);
    assert.equal(await statusOf(t, demo, q.id), 'converted');
  });

  test('decline keeps the reason; the hub lists it among declined quotations', async () => {
    const q = await newQuotation(t.app, demo);
    const link = await quotationLink(t, demo.companyId, q.id, 'en');
    assert.equal((await answerQuote(t, link.token, 'decline', { reason: 'Too far to collect' })).statusCode, 303);
    assert.equal(await statusOf(t, demo, q.id), 'declined');
    const list = await adminCall(t.app, demo.adminToken, 'GET', '/quotations?status=declined');
    assert.ok(list.json().data.some((row: { id: string }) => row.id === q.id));
    const convert = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
    assert.equal(convert.statusCode, 409, 'a declined quotation is closed');
  });

  test("another company's token opens only that company's quotation; naming another document is refused", async () => {
    const other = await createTenant(t.c);
    const mine = await newQuotation(t.app, demo);
    const theirs = await newQuotation(t.app, other);
    const link = await quotationLink(t, other.companyId, theirs.id);
    const page = await t.app.inject({ method: 'GET', url: `/q/${link.token}` });
    assert.ok(page.body.includes(theirs.number) && !page.body.includes(mine.number));
    const smuggled = await t.app.inject({
      method: 'POST',
      url: `/q/${link.token}/accept`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ name: 'Mallory', quotationId: mine.id }).toString(),
    });
    assert.equal(smuggled.statusCode, 400);
    assert.equal(await statusOf(t, demo, mine.id), 'approved');
    assert.equal(await statusOf(t, other, theirs.id), 'approved', 'nothing half-written');
    const crossSite = await t.app.inject({
      method: 'POST',
      url: `/q/${link.token}/accept`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      payload: 'name=Mallory',
    });
    assert.equal(crossSite.statusCode, 403);
    assert.equal(await statusOf(t, other, theirs.id), 'approved');
  });

  test('inquiry.created is written, with the inquiry, only for a company with an endpoint that wants it; a test key’s carries livemode false', async () => {
    const shop = await createTenant(t.c);
    const key = shop.locations[0]!.apiKey;
    // Nobody listens, or only to other events: the inquiry is stored and its event is not
    // (deliveries are an event's only reader; a flood of the contact form grows no table nobody reads).
    assert.equal((await reachOut(t.app, key, validReachOut({ subject: 'Nitko ne sluša' }))).statusCode, 201);
    await addHttpEndpoint(t, shop, { url: 'https://hooks.example.com/quotes', events: ['quote.created'] });
    assert.equal((await reachOut(t.app, key, validReachOut({ subject: 'Samo ponude' }))).statusCode, 201);
    assert.deepEqual(await eventsOf(t, shop.companyId, 'inquiry.created'), []);

    await addHttpEndpoint(t, shop, { url: 'https://hooks.example.com/inquiries', events: ['inquiry.created'] });
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/api-keys',
      headers: { authorization: `Bearer ${shop.adminToken}` },
      payload: { locationId: shop.locations[0]!.id, name: 'Test key', mode: 'test' },
    });
    assert.equal(made.statusCode, 201, made.body);
    const live = await reachOut(t.app, key, validReachOut({ subject: 'Uživo' }));
    const trial = await reachOut(t.app, made.json().data.key, validReachOut({ subject: 'Proba' }));
    assert.equal(live.statusCode, 201, live.body);
    assert.equal(trial.statusCode, 201, trial.body);
    const bodies = (await eventsOf(t, shop.companyId, 'inquiry.created')).map((e) => JSON.parse(e.payload));
    assert.deepEqual(bodies.map((b) => b.data.subject).sort(), ['Proba', 'Uživo']);
    const of = (id: string) => bodies.filter((b) => b.data.inquiryId === id);
    assert.equal(of(live.json().data.id).length, 1);
    assert.equal(of(live.json().data.id)[0].livemode, true);
    assert.equal(of(trial.json().data.id)[0].livemode, false);
  });

  test('without SMTP configured, sending answers 503 and records nothing', async () => {
    const q = await newQuotation(t.app, demo);
    const res = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/send`, {});
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    const listed = await adminCall(t.app, demo.adminToken, 'GET', `/quotations/${q.id}/sendings`);
    assert.deepEqual(listed.json().data, []);
  });

  test('concurrent accept and convert, and accept and decline, leave one consistent state', async () => {
    for (let round = 0; round < 4; round++) {
      const q = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q.id);
      const link = await quotationLink(t, demo.companyId, q.id);
      const [accept, convert] = await Promise.all([
        answerQuote(t, link.token, 'accept', { name: 'Ana' }),
        adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {}),
      ]);
      assert.equal(convert.statusCode, 201, 'an accepted quotation converts as an approved one does');
      assert.ok([303, 409].includes(accept.statusCode), String(accept.statusCode));
      assert.equal(await statusOf(t, demo, q.id), 'converted');
      const answers = await t.c.database.db
        .selectFrom('quotation_answers')
        .selectAll()
        .where('quotation_id', '=', q.id)
        .execute();
      const events = (await eventsOf(t, demo.companyId, 'quote.accepted')).filter((e) => e.payload.includes(q.id));
      assert.equal(answers.length, accept.statusCode === 303 ? 1 : 0, 'an answer is stored only when it was taken');
      assert.equal(events.length, answers.length, 'and announced exactly then');
      const sales = await t.c.database.db.selectFrom('sales').select('id').where('source_id', '=', q.id).execute();
      assert.equal(sales.length, 1);

      const r = await newQuotation(t.app, demo);
      const link2 = await quotationLink(t, demo.companyId, r.id);
      const results = await Promise.all([
        answerQuote(t, link2.token, 'accept', { name: 'Ana' }),
        answerQuote(t, link2.token, 'decline', { reason: 'Ne' }),
      ]);
      assert.deepEqual(results.map((x) => x.statusCode).sort(), [303, 409]);
      const won = results[0]!.statusCode === 303 ? 'accepted' : 'declined';
      assert.equal(await statusOf(t, demo, r.id), won);
    }
  });
});
