// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { csrfOf, reachOut, validReachOut, waitFor as waitWithin } from '../support/http-helpers.ts';
import { adminCall, assignCustomer, newQuotation } from '../support/sales-helpers.ts';
import { pdfText, startMailServer } from '../support/mail-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

// Sessions share two cores: a PDF rendered and sent may take a while under that load.
const waitFor = <T>(what: string, check: () => Promise<T | undefined> | T | undefined) =>
  waitWithin(what, check, 60_000);

/**
 * A customer's language: a Croatian shop's German-speaking customer gets documents, the
 * quotation page and replies in German unless staff pick another language, over real SMTP.
 */
describe("documents and replies in the customer's language", () => {
  let smtp: Awaited<ReturnType<typeof startMailServer>>;
  let t: TestApp;
  let demo: DemoCompany;
  let cookie: string;
  before(async () => {
    smtp = await startMailServer();
    t = await createTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Boje Kovač <prodaja@portico.test>' },
      { startWorkers: true },
    );
    demo = await createTenant(t.c, { passwords: true });
    const admin = demo.users.find((u) => u.role === 'admin')!;
    cookie = `portico_session=${(await t.c.accounts.signIn(admin.email, admin.password!)).token}`;
  });
  after(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailTo = (address: string, index = 0) =>
    waitFor(`e-mail ${index + 1} to ${address}`, () => smtp.mails.filter((m) => m.rcptTo.includes(address))[index]);

  test('a German customer of a Croatian company: quotation, its page and invoice in German; the language staff pick wins', async () => {
    const company = (await adminCall(t.app, demo.adminToken, 'GET', '/settings')).json().data;
    assert.match(company.locale, /^hr/, 'a Croatian company');
    const q = await newQuotation(t.app, demo);
    const customerId = await assignCustomer(t.app, demo, 'quotations', q.id, {
      email: 'einkauf@farben-huber.example',
      language: 'de',
    });

    // The hub's send form preselects the customer's language.
    const form = await t.app.inject({ method: 'GET', url: `/hub/quotations/${q.id}/send`, headers: { cookie } });
    assert.equal(form.statusCode, 200, form.body);
    assert.match(form.body, /<option value="de" selected>/);

    const sent = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/send`, {});
    assert.equal(sent.statusCode, 202, sent.body);
    assert.equal(sent.json().data.locale, 'de');
    const mail = await mailTo('einkauf@farben-huber.example');
    assert.equal(mail.subject, `Angebot ${q.number}`);
    assert.match(mail.text, /^Guten Tag,/);
    assert.match(mail.text, /Sie können das Angebot hier ansehen/);
    assert.match(pdfText(mail.attachments[0]!.content), /Angebot/);
    const token = /\/q\/([A-Za-z0-9_-]{43})/.exec(mail.text)![1]!;
    const page = await t.app.inject({ method: 'GET', url: `/q/${token}` });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /<html lang="de">/);
    assert.match(page.body, new RegExp(`Angebot ${q.number}`));

    // Staff pick Croatian: the pick wins over the customer's language.
    const picked = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/send`, { locale: 'hr' });
    assert.equal(picked.statusCode, 202, picked.body);
    const croatian = await mailTo('einkauf@farben-huber.example', 1);
    assert.equal(croatian.subject, `Ponuda ${q.number}`);
    assert.match(croatian.text, /^Poštovani,/);

    // The invoice of the converted quotation follows the customer too.
    const sale = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
    const invoice = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, {});
    assert.equal(invoice.statusCode, 202, invoice.body);
    const rechnung = await mailTo('einkauf@farben-huber.example', 2);
    assert.equal(rechnung.subject, `Rechnung ${sale.invoiceNumber}`);
    assert.match(pdfText(rechnung.attachments[0]!.content), /Rechnung/);

    // Without a language the customer gets the company's again.
    await adminCall(t.app, demo.adminToken, 'PATCH', `/customers/${customerId}`, { language: null });
    const again = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${sale.id}/send`, {});
    assert.equal(again.json().data.locale, 'hr');
    assert.match((await mailTo('einkauf@farben-huber.example', 3)).subject, /^Račun /);
  });

  test("an inquiry reply is in the language of the directory customer with the inquirer's address; without one, as before", async () => {
    const known = await adminCall(t.app, demo.adminToken, 'POST', '/customers', {
      kind: 'person',
      name: 'Jana Müller',
      email: 'Jana.Mueller@beispiel.example',
      language: 'de',
    });
    assert.equal(known.statusCode, 201, known.body);
    const ask = async (email: string) => {
      const made = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut({ email, subject: 'Lasur 5 L?' }));
      assert.equal(made.statusCode, 201, made.body);
      const id = made.json().data.id;
      const res = await adminCall(t.app, demo.adminToken, 'POST', `/inquiries/${id}/replies`, {
        message: 'Ja, Nussbaum gibt es in 5 L.',
      });
      assert.equal(res.statusCode, 201, res.body);
    };
    await ask('jana.mueller@beispiel.example');
    const german = await mailTo('jana.mueller@beispiel.example');
    assert.equal(german.subject, 'Re: Lasur 5 L?');
    assert.match(
      german.text,
      /^Ja, Nussbaum gibt es in 5 L\.\r?\n\r?\nIhre Anfrage vom \d{1,2}\.\d{1,2}\.\d{4}\.?:\r?\n> Hello/,
    );

    await ask('nepoznat@primjer.example');
    // No customer record: the reply exactly as before (the company's language, the inquiry quoted below).
    const unknown = await mailTo('nepoznat@primjer.example');
    assert.equal(unknown.subject, 'Re: Lasur 5 L?');
    assert.match(unknown.text, /^Ja, Nussbaum gibt es in 5 L\.\r?\n\r?\n> Hello/);
  });

  test("the hub's customer form has a labelled language select, saved from the form", async () => {
    const created = await adminCall(t.app, demo.adminToken, 'POST', '/customers', {
      kind: 'business',
      name: 'Huber Farben GmbH',
      language: 'de',
    });
    const id = created.json().data.id;
    const shown = await t.app.inject({ method: 'GET', url: `/hub/customers/${id}`, headers: { cookie } });
    assert.equal(shown.statusCode, 200);
    assert.match(shown.body, /<label for="customer-language">Jezik e-pošte i dokumenata koji se šalju kupcu<\/label>/);
    assert.match(shown.body, /<option value="">Jezik tvrtke<\/option>/);
    assert.match(shown.body, /<option value="de" selected>Deutsch<\/option>/);

    // A role that only reads sees the language among the facts.
    const support = demo.users.find((u) => u.role === 'support')!;
    const read = await t.app.inject({
      method: 'GET',
      url: `/hub/customers/${id}`,
      headers: { cookie: `portico_session=${(await t.c.accounts.signIn(support.email, support.password!)).token}` },
    });
    assert.equal(read.statusCode, 200);
    assert.match(read.body, /<dt>Jezik e-pošte i dokumenata koji se šalju kupcu<\/dt><dd>Deutsch<\/dd>/);

    const csrf = csrfOf(shown);
    const saved = await t.app.inject({
      method: 'POST',
      url: `/hub/customers/${id}`,
      headers: {
        cookie: `${cookie}; ${csrf.cookie}`,
        origin: 'http://localhost:80',
        'x-csrf-token': csrf.token,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({ kind: 'business', name: 'Huber Farben GmbH', language: 'en' }).toString(),
    });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal((await t.c.customers.get(demo.companyId, id)).language, 'en');
  });
});
