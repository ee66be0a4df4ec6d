// test-engines: both
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { reachOut, tokenForRole, userOfRole, validReachOut, waitFor as waitWithin } from '../support/http-helpers.ts';

// Six sessions share two cores: a PDF rendered and sent may take a while under that load.
const waitFor = <T>(what: string, check: () => Promise<T | undefined> | T | undefined) =>
  waitWithin(what, check, 60_000);
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { pdfText, startMailServer } from '../support/mail-helpers.ts';
import { DOMParser } from '@xmldom/xmldom';
import { failuresOf, validateEInvoices } from '../support/einvoice-validation.ts';

const FROM = 'Bojanje Kovač <prodaja@portico.test>';

async function sendings(t: TestApp, token: string, path: string) {
  const res = await adminCall(t.app, token, 'GET', `${path}/sendings`);
  assert.equal(res.statusCode, 200, res.body);
  return res.json().data as Array<{
    status: string;
    serverAnswer: string | null;
    attempts: number;
    to: string;
    sentBy: { id: string; name: string };
  }>;
}

describe('documents sent by e-mail over real SMTP', () => {
  test('a quotation goes to the customer in their language with the PDF and the link; the sending is recorded as delivered', async () => {
    const smtp = await startMailServer();
    const t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: FROM },
      { startWorkers: true },
    );
    try {
      const demo = await createTenant(t.c);
      await t.c.documentMail.saveTemplates(demo.companyId, {
        replyTo: 'prodaja@kovac.example',
        templates: [
          {
            locale: 'hr',
            subject: 'Vaša ponuda {number}',
            body: 'Poštovani {customerName},\nšaljemo ponudu na {total}, vrijedi do {dueDate}.',
          },
        ],
      });
      const q = await newQuotation(t.app, demo);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/quotations/${q.id}/send`,
        headers: { authorization: `Bearer ${demo.adminToken}` },
        payload: { message: 'Evo ponude kako smo se dogovorili telefonom.', locale: 'hr' },
      });
      assert.equal(res.statusCode, 202, res.body);
      const sending = res.json().data;
      assert.equal(sending.to, 'ana@example.com', "the customer's e-mail by default");
      assert.equal(sending.status, 'pending');

      const mail = await waitFor('the e-mail', () => smtp.mails[0]);
      assert.deepEqual(mail.rcptTo, ['ana@example.com']);
      assert.equal(mail.subject, `Vaša ponuda ${q.number}`);
      assert.equal(mail.headers.get('reply-to'), 'prodaja@kovac.example');
      assert.match(mail.headers.get('message-id') ?? '', /^<eml_[0-9A-Za-z]+@portico\.test>$/);
      assert.match(mail.text, /^Evo ponude kako smo se dogovorili telefonom\./);
      assert.match(mail.text, /Poštovani Ana Kovač,/);
      assert.match(mail.text, /vrijedi do \d/);
      const link = /http:\/\/[^\s]+\/q\/([A-Za-z0-9_-]{43})/.exec(mail.text);
      assert.ok(link, 'the e-mail carries the customer link');
      assert.equal(mail.attachments.length, 1);
      assert.equal(mail.attachments[0]!.filename, `${q.number}.pdf`);
      assert.equal(mail.attachments[0]!.contentType, 'application/pdf');
      const text = pdfText(mail.attachments[0]!.content);
      assert.match(text, /Ponuda/);
      assert.ok(text.includes(q.number));

      const page = await t.app.inject({ method: 'GET', url: `/q/${link[1]}` });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, new RegExp(`Ponuda ${q.number}`));

      const listed = await waitFor('the sending marked sent', async () => {
        const list = await sendings(t, demo.adminToken, `/quotations/${q.id}`);
        return list[0]?.status === 'sent' ? list : undefined;
      });
      assert.equal(listed.length, 1);
      assert.match(listed[0]!.serverAnswer ?? '', /^250/, "the server's answer is kept");
      assert.equal(listed[0]!.attempts, 1);
      assert.equal(listed[0]!.sentBy.id, userOfRole(demo, 'admin').id, 'who sent it');
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  test('an invoice goes out in German when asked, to the address typed; a credit note and a refused recipient too', async () => {
    const smtp = await startMailServer();
    const t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: FROM },
      { startWorkers: true },
    );
    try {
      const demo = await createTenant(t.c);
      const q = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q.id);
      const converted = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
      assert.equal(converted.statusCode, 201, converted.body);
      const sale = converted.json().data;
      const res = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, {
        to: 'einkauf@kunde.example',
        locale: 'de',
      });
      assert.equal(res.statusCode, 202, res.body);
      const mail = await waitFor('the invoice', () => smtp.mails[0]);
      assert.deepEqual(mail.rcptTo, ['einkauf@kunde.example']);
      assert.match(mail.subject, /^Rechnung /);
      assert.doesNotMatch(mail.text, /\/q\//, 'only a quotation carries a customer link');
      const text = pdfText(mail.attachments[0]!.content);
      assert.match(text, /Rechnung/);
      assert.ok(text.includes(sale.invoiceNumber), 'the legal number is printed');

      const credit = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/credit-notes`, {
        lines: [{ lineId: sale.lines[0].id, quantity: '1' }],
        reason: 'Povrat jedne kante',
      });
      assert.equal(credit.statusCode, 201, credit.body);
      const sent = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${credit.json().data.id}/send`, {});
      assert.equal(sent.statusCode, 202, sent.body);
      assert.equal(sent.json().data.to, 'ured@kovac-obrt.example', "the directory customer's e-mail");
      const second = await waitFor('the credit note', () => smtp.mails[1]);
      assert.match(pdfText(second.attachments[0]!.content), /Odobrenje/);

      // Refusals: a bad address names the field; another company's document is not found.
      const bad = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, { to: 'nope' });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.json().details.to);
      const other = await createTenant(t.c);
      const foreign = await adminCall(t.app, other.adminToken, 'POST', `/sales/${sale.id}/send`, {});
      assert.equal(foreign.statusCode, 404);
      assert.equal((await adminCall(t.app, other.adminToken, 'GET', `/sales/${sale.id}/sendings`)).statusCode, 404);
      const support = await adminCall(
        t.app,
        await tokenForRole(t.c, demo, 'support'),
        'POST',
        `/sales/${sale.id}/send`,
        {},
      );
      assert.equal(support.statusCode, 403, 'support may not send documents');
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  test("a business buyer's invoice, credit note and storno carry the e-invoice XML beside the PDF; one that cannot be an e-invoice goes as PDF only and the sending says why", async () => {
    const smtp = await startMailServer();
    const t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: FROM },
      { startWorkers: true },
    );
    try {
      const demo = await createTenant(t.c, { passwords: true });
      const sale = async () => {
        const q = await newQuotation(t.app, demo);
        await assignCustomer(t.app, demo, 'quotations', q.id);
        const converted = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
        assert.equal(converted.statusCode, 201, converted.body);
        return converted.json().data;
      };
      const attached: Array<{ name: string; xml: string }> = [];
      /** Sends the sale, waits for its e-mail, and checks it against the sending and the GET e-invoice. */
      const sendAndCheck = async (doc: { id: string; number: string }, withXml: boolean) => {
        const before = smtp.mails.length;
        const res = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${doc.id}/send`, {});
        assert.equal(res.statusCode, 202, res.body);
        const mail = await waitFor('the e-mail', () => smtp.mails[before]);
        assert.equal(mail.attachments[0]!.filename, `${doc.number}.pdf`);
        assert.equal(mail.attachments[0]!.contentType, 'application/pdf');
        if (!withXml) {
          assert.equal(mail.attachments.length, 1, 'the PDF alone');
          return res.json().data;
        }
        assert.equal(mail.attachments.length, 2);
        const xml = mail.attachments[1]!;
        assert.equal(xml.filename, `${doc.number}-ubl.xml`);
        assert.equal(xml.contentType, 'application/xml');
        const text = xml.content.toString('utf8');
        const errors: string[] = [];
        const parsed = new DOMParser({
          onError: (level, message) => void errors.push(`${level}: ${message}`),
        }).parseFromString(text, 'text/xml');
        assert.deepEqual(errors, [], 'the XML parses');
        assert.match(String(parsed.documentElement?.localName), /^(Invoice|CreditNote)$/);
        const get = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${doc.id}/e-invoice`);
        assert.equal(get.statusCode, 200, get.body);
        assert.equal(text, get.body, 'the attached XML is the e-invoice the API gives');
        attached.push({ name: xml.filename, xml: text });
        assert.deepEqual(res.json().data.eInvoice, { attached: true, missing: [] });
        return res.json().data;
      };

      const a = await sale();
      await sendAndCheck(a, true);
      const credit = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${a.id}/credit-notes`, {
        lines: [{ lineId: a.lines[0].id, quantity: '1' }],
        reason: 'Povrat jedne kante',
      });
      assert.equal(credit.statusCode, 201, credit.body);
      await sendAndCheck(credit.json().data, true);
      const b = await sale();
      const storno = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${b.id}/cancel`, {
        reason: 'Krivi kupac.',
      });
      assert.equal(storno.statusCode, 201, storno.body);
      await sendAndCheck(storno.json().data, true);
      // What the buyer receives passes the official rules: EN 16931 and HR-CIUS with the HR schema set.
      for (const report of await validateEInvoices(attached)) {
        assert.ok(report.ok, `${report.file}:\n${failuresOf(report)}`);
        assert.deepEqual(report.checks, ['xsd:ubl-2.1+hr', 'en16931-ubl', 'hr-cius']);
      }

      // A product without its KPD code: the invoice cannot be a Croatian e-invoice, so the PDF goes alone.
      const noKpd = await adminCall(t.app, demo.adminToken, 'PATCH', `/products/${demo.products[4]!.id}`, {
        classificationCode: null,
      });
      assert.equal(noKpd.statusCode, 200, noKpd.body);
      const c = await sale();
      const sending = await sendAndCheck(c, false);
      assert.deepEqual(sending.eInvoice, { attached: false, missing: ['lines[1].classificationCode'] });
      const listed = await waitFor('the PDF-only sending delivered', async () => {
        const list = await sendings(t, demo.adminToken, `/sales/${c.id}`);
        return list[0]?.status === 'sent' ? list : undefined;
      });
      assert.deepEqual((listed[0] as unknown as { eInvoice: unknown }).eInvoice, {
        attached: false,
        missing: ['lines[1].classificationCode'],
      });
      // The hub's list of sendings says the same, in the reader's language.
      const admin = demo.users.find((u) => u.role === 'admin')!;
      const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
      const page = async (id: string) =>
        (
          await t.app.inject({
            method: 'GET',
            url: `/hub/sales/${id}`,
            headers: { cookie: `portico_session=${token}` },
          })
        ).body;
      assert.match(await page(c.id), /Samo PDF: eRačunu je nedostajalo lines\[1\]\.classificationCode/);
      assert.match(await page(a.id), /Priložen eRačun \(XML\)/);
      // A consumer's invoice: no e-invoice asked for, nothing recorded about one.
      const q = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q.id, { kind: 'person', name: 'Ana Kovač', taxId: null });
      const converted = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
      assert.equal(converted.statusCode, 201, converted.body);
      const consumer = await sendAndCheck(converted.json().data, false);
      assert.equal(consumer.eInvoice, null);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  test('while the mail server is down the sending waits with the error; back up, it is delivered once, with one Message-ID', async () => {
    const probe = await startMailServer();
    const port = probe.port;
    await probe.close();
    let smtp: Awaited<ReturnType<typeof startMailServer>> | undefined;
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: FROM }, { startWorkers: true });
    try {
      const demo = await createTenant(t.c);
      const q = await newQuotation(t.app, demo);
      const res = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/send`, {});
      assert.equal(res.statusCode, 202, res.body);
      const waiting = await waitFor('the first attempt to fail', async () => {
        const list = await sendings(t, demo.adminToken, `/quotations/${q.id}`);
        return list[0]!.attempts >= 1 ? list[0] : undefined;
      });
      assert.equal(waiting!.status, 'pending', 'kept for a retry');
      assert.match(waiting!.serverAnswer ?? '', /ECONNREFUSED|connect/i);

      smtp = await startMailServer({ port });
      await t.c.database.db
        .updateTable('email_messages')
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where('company_id', '=', demo.companyId)
        .execute();
      t.c.emailSender!.wake();
      const sent = await waitFor('the retry to deliver', async () => {
        const list = await sendings(t, demo.adminToken, `/quotations/${q.id}`);
        return list[0]!.status === 'sent' ? list[0] : undefined;
      });
      assert.ok(sent!.attempts >= 2);
      // More ticks find nothing due: the delivered e-mail is never sent again.
      t.c.emailSender!.wake();
      await new Promise((resolve) => setImmediate(resolve));
      const rows = await t.c.store.repos.notifications.listEmails(demo.companyId);
      assert.equal(rows.filter((r) => r.status === 'sent').length, 1);
      assert.equal(smtp.mails.length, 1, 'exactly one message reached the server');
      assert.equal(smtp.mails[0]!.headers.get('message-id'), `<${rows[0]!.id}@portico.test>`);
    } finally {
      await t.close();
      await smtp?.close();
    }
  });

  test("a server that refuses the recipient: the sending is failed with the server's answer, not retried", async () => {
    const smtp = await startMailServer({ refuse: 'Mailbox unavailable: no such user here' });
    const t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: FROM },
      { startWorkers: true },
    );
    try {
      const demo = await createTenant(t.c);
      const q = await newQuotation(t.app, demo);
      assert.equal((await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/send`, {})).statusCode, 202);
      const failed = await waitFor('the refusal', async () => {
        const list = await sendings(t, demo.adminToken, `/quotations/${q.id}`);
        return list[0]!.status === 'failed' ? list[0] : undefined;
      });
      assert.match(failed!.serverAnswer ?? '', /550.*no such user/);
      assert.equal(failed!.attempts, 1);
    } finally {
      await t.close();
      await smtp.close();
    }
  });

  test('an inquiry answered from the hub: e-mailed with the shop reply-to, kept with its author, handled; reopened', async () => {
    const smtp = await startMailServer();
    const t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: FROM },
      { startWorkers: true },
    );
    try {
      const demo = await createTenant(t.c);
      await t.c.documentMail.saveTemplates(demo.companyId, { replyTo: 'podrska@kovac.example', templates: [] });
      const made = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut({ subject: 'Lazura 5 L?' }));
      assert.equal(made.statusCode, 201, made.body);
      const id = made.json().data.id;
      const support = { ...userOfRole(demo, 'support'), adminToken: await tokenForRole(t.c, demo, 'support') };
      const res = await adminCall(t.app, support.adminToken, 'POST', `/inquiries/${id}/replies`, {
        message: 'Da, lazuru orah imamo u kantama od 5 L.',
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().data.author.id, support.id);
      const mail = await waitFor('the reply', () => smtp.mails.find((m) => m.rcptTo.includes('ana.kovac@example.com')));
      assert.equal(mail.subject, 'Re: Lazura 5 L?');
      assert.equal(mail.headers.get('reply-to'), 'podrska@kovac.example');
      assert.match(mail.text, /^Da, lazuru orah imamo u kantama od 5 L\./);
      assert.match(mail.text, /> Hello, I would like to know/);
      const inquiry = await t.c.inquiries.get(demo.companyId, id);
      assert.equal(inquiry.handledBy, support.id, 'marked handled by its author');
      const replies = await adminCall(t.app, support.adminToken, 'GET', `/inquiries/${id}/replies`);
      assert.equal(replies.json().data.length, 1);
      assert.equal((await adminCall(t.app, support.adminToken, 'POST', `/inquiries/${id}/reopen`)).statusCode, 204);
      assert.equal((await t.c.inquiries.get(demo.companyId, id)).handledAt, null);
      // Staff answer inquiries too (issue 34); reopening one stays admin's and support's.
      const staff = await adminCall(t.app, await tokenForRole(t.c, demo, 'staff'), 'POST', `/inquiries/${id}/reopen`);
      assert.equal(staff.statusCode, 403);
      const blank = await adminCall(t.app, support.adminToken, 'POST', `/inquiries/${id}/replies`, { message: '  ' });
      assert.equal(blank.statusCode, 400);
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
