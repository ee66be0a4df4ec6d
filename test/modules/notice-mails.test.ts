// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { newQuotation } from '../support/sales-helpers.ts';
import { answerQuote, quotationLink } from '../support/mail-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/**
 * The shop's own e-mails (issue 34): a quotation accepted or declined online, a fiscal failure,
 * mailed to the users the hub tells, each in their language, as text and HTML, with a link to
 * the hub page it is about. Queued in the transaction that makes the notice (the staff lane).
 */
describe('shop e-mails: the notices the shop must act on', () => {
  let t: TestApp;
  let demo: DemoCompany;
  before(async () => {
    t = await createTestApp({
      SMTP_URL: 'smtp://127.0.0.1:9',
      SMTP_FROM: 'Portico <portico@shop.example>',
      PUBLIC_BASE_URL: 'https://shop.example',
    });
    demo = await createTenant(t.c);
  });
  after(async () => {
    await t.close();
  });

  const mails = () =>
    t.c.database.db
      .selectFrom('email_messages')
      .select(['to_address', 'subject', 'text_body', 'html_body', 'lane'])
      .where('company_id', '=', demo.companyId)
      .where('lane', '=', 'staff')
      .execute();

  test('accepted and declined online: admins and staff are mailed in their language, with the link', async () => {
    const users = await t.c.database.db
      .selectFrom('users')
      .select(['id', 'email', 'role'])
      .where('company_id', '=', demo.companyId)
      .execute();
    const staff = users.find((u) => u.role === 'staff')!;
    const admin = users.find((u) => u.role === 'admin')!;
    const support = users.find((u) => u.role === 'support');
    // The staff member reads German; the admin the company's Croatian.
    await t.c.database.db.updateTable('users').set({ locale: 'de' }).where('id', '=', staff.id).execute();

    const q = await newQuotation(t.app, demo);
    const link = await quotationLink(t, demo.companyId, q.id);
    assert.equal((await answerQuote(t, link.token, 'accept', { name: 'Ana Kovač' })).statusCode, 303);
    const accepted = await mails();
    const toAdmin = accepted.find((m) => m.to_address === admin.email)!;
    const toStaff = accepted.find((m) => m.to_address === staff.email)!;
    assert.ok(toAdmin && toStaff, 'admin and staff are mailed');
    if (support) assert.ok(!accepted.some((m) => m.to_address === support.email), 'support is not told');
    assert.match(toAdmin.subject, /^Ponuda .+ je prihvaćena$/);
    assert.match(toStaff.subject, /^Angebot .+ angenommen$/);
    const url = `https://shop.example/hub/quotations/${q.id}`;
    for (const m of [toAdmin, toStaff]) {
      assert.ok(m.text_body.includes(url), m.text_body);
      assert.ok(m.html_body!.includes(`href="${url}"`), m.html_body!);
      assert.match(m.text_body, /Ana Kovač/);
      assert.doesNotMatch(m.subject, /Quotation .* accepted/, 'not the English note');
    }

    const q2 = await newQuotation(t.app, demo);
    const link2 = await quotationLink(t, demo.companyId, q2.id);
    assert.equal((await answerQuote(t, link2.token, 'decline', { reason: 'Preskupo & <daleko>' })).statusCode, 303);
    const declined = (await mails()).filter((m) => m.text_body.includes(q2.id));
    assert.equal(declined.length, 2);
    const hr = declined.find((m) => m.to_address === admin.email)!;
    assert.match(hr.subject, /je odbijena/);
    assert.match(hr.text_body, /Preskupo & <daleko>/);
    assert.match(hr.html_body!, /Preskupo &amp; &lt;daleko&gt;/, 'escaped in HTML');
  });

  test('a fiscal failure told to admins is mailed to them; a failing webhook stays in the hub', async () => {
    const before = (await mails()).length;
    await t.c.store.transaction((repos) =>
      t.c.notifications.notifyAdmins(repos, demo.companyId, {
        kind: 'fiscal.rejected',
        title: 'CIS refused an invoice',
        body: 'CIS refused to fiscalise an invoice issued at 2026-11-28T10:00:00Z: s004.',
        params: { issuedAt: '2026-11-28T10:00:00Z', reason: 's004' },
        subject: { type: 'sale', id: 'sale_x' },
      }),
    );
    const after = await mails();
    const fiscal = after.slice(before);
    assert.ok(fiscal.length >= 1);
    assert.match(fiscal[0]!.subject, /CIS je odbio račun/);
    assert.ok(fiscal[0]!.text_body.includes('https://shop.example/hub/sales/sale_x'));
    await t.c.store.transaction((repos) =>
      t.c.notifications.notifyAdmins(repos, demo.companyId, {
        kind: 'webhook.disabled',
        title: 'Webhook x was disabled',
        body: 'Deliveries stopped.',
        params: { target: 'x', reason: 'y' },
      }),
    );
    assert.equal((await mails()).length, after.length, 'not every notice is mailed');
  });
});
