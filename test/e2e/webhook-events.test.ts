// test-engines: both
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { startFakeTelegram } from '../support/fake-telegram.ts';
import { addHttpEndpoint, createQuote } from '../support/webhook-helpers.ts';
import { adminCall, assignCustomer, newOrder, newQuotation } from '../support/sales-helpers.ts';
import { EVENTS, EVENT_NAMES, PING, type EventName } from '../../src/modules/webhooks/index.ts';
import { telegramLines } from '../../src/modules/webhooks/event-catalog.ts';
import { formatTelegramMessage } from '../../src/modules/webhooks/channels/telegram-channel.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { answerQuote, quotationLink } from '../support/mail-helpers.ts';
import { exchangeSettings, startFakeEracun, type EracunDocument, type FakeEracun } from '../support/fake-eracun.ts';
import { until } from '../support/fiscal-helpers.ts';
import os from 'node:os';

/** The fake e-invoice exchange the e-invoice events come through (started with the test's app). */
let eracun: FakeEracun;

/** A B2B invoice paid by transfer, sent as an e-invoice through the fake exchange: its document there. */
async function sentEInvoice(app: TestApp, demo: DemoCompany): Promise<EracunDocument> {
  const put = await adminCall(app.app, demo.adminToken, 'PUT', '/einvoice/exchange', exchangeSettings(eracun));
  assert.equal(put.statusCode, 200, put.body);
  const before = eracun.sent.length;
  const q = await newQuotation(app.app, demo);
  await assignCustomer(app.app, demo, 'quotations', q.id);
  const res = await adminCall(app.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {
    paymentMethod: 'bank_transfer',
  });
  assert.equal(res.statusCode, 201, res.body);
  return until('the e-invoice sent', async () => eracun.sent[before]);
}

/**
 * How each catalogued event is made to happen through the API. Typed by the catalog, so a new
 * event does not compile until it says here how it fires. Each entry first prepares what the
 * event needs (before any endpoint exists, so what that fires reaches no one) and returns the
 * one call that fires exactly its event.
 */
const FIRE: Record<EventName, (app: TestApp, demo: DemoCompany) => Promise<() => Promise<unknown>>> = {
  'quote.created': async (app, demo) => () => createQuote(app, demo),
  'quote.revised': async (app, demo) => {
    const q = await newQuotation(app.app, demo);
    const p = demo.products[0]!;
    return async () =>
      assert.equal(
        (
          await adminCall(app.app, demo.adminToken, 'PUT', `/quotations/${q.id}`, {
            customer: { name: 'Ana <Kovač>' },
            lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 3, discountPercent: 10 }],
          })
        ).statusCode,
        200,
      );
  },
  'order.created': async (app, demo) => async () => {
    const p = demo.products[0]!;
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/v1/public/orders',
      headers: bearer(demo.locations[1]!.apiKey),
      payload: {
        customer: { name: 'Ivo <Ivić>', email: 'ivo@example.com', phone: '+385 91 555 1234' },
        externalReference: 'WEB-1',
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 2 }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
  },
  'sale.created': async (app, demo) => {
    const q = await newQuotation(app.app, demo);
    await assignCustomer(app.app, demo, 'quotations', q.id, { name: 'Kovač & <Sinovi>' });
    return async () =>
      assert.equal(
        (await adminCall(app.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).statusCode,
        201,
      );
  },
  'sale.cancelled': async (app, demo) => {
    const sale = await saleOf(app, demo);
    return async () =>
      assert.equal(
        (await adminCall(app.app, demo.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'Kriva <stavka>' }))
          .statusCode,
        201,
      );
  },
  // A credit note of a paid invoice gives money back: it fires `refund.recorded` with it.
  'credit_note.created': async (app, demo) => {
    const sale = await saleOf(app, demo);
    const paid = await adminCall(app.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'card',
      amount: sale.totals.withTax,
    });
    assert.equal(paid.statusCode, 201, paid.body);
    return async () =>
      assert.equal(
        (
          await adminCall(app.app, demo.adminToken, 'POST', `/sales/${sale.id}/credit-notes`, {
            lines: [{ lineId: sale.lines[0].id, quantity: '1' }],
            reason: 'Povrat',
            refund: { method: 'card' },
          })
        ).statusCode,
        201,
      );
  },
  'refund.recorded': async () => async () => {
    // Fired with `credit_note.created` above: a refund never comes without its correction.
  },
  'drawer.closed': async (app, demo) => {
    const location = demo.locations[0]!.id;
    const open = await adminCall(app.app, demo.adminToken, 'POST', `/locations/${location}/drawer/open`, {
      float: '100.00',
    });
    assert.equal(open.statusCode, 201, open.body);
    return async () =>
      assert.equal(
        (
          await adminCall(app.app, demo.adminToken, 'POST', `/locations/${location}/drawer/close`, {
            counted: '100.00',
          })
        ).statusCode,
        201,
      );
  },
  'payment.recorded': async (app, demo) => {
    const sale = await saleOf(app, demo);
    return async () =>
      assert.equal(
        (
          await adminCall(app.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments`, {
            method: 'cash',
            amount: '1.00',
          })
        ).statusCode,
        201,
      );
  },
  'payment.voided': async (app, demo) => {
    const sale = await saleOf(app, demo);
    const paid = await adminCall(app.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments`, {
      method: 'cash',
      amount: '1.00',
    });
    const payment = paid.json().data.payments[0];
    return async () =>
      assert.equal(
        (
          await adminCall(app.app, demo.adminToken, 'POST', `/sales/${sale.id}/payments/${payment.id}/void`, {
            reason: 'Dvaput',
          })
        ).statusCode,
        200,
      );
  },
  'inquiry.created': async (app, demo) => async () =>
    assert.equal(
      (await reachOut(app.app, demo.locations[0]!.apiKey, validReachOut({ name: 'Ana <Kovač>' }))).statusCode,
      201,
    ),
  'quote.accepted': async (app, demo) => {
    const q = await newQuotation(app.app, demo);
    const link = await quotationLink(app, demo.companyId, q.id);
    return async () =>
      assert.equal((await answerQuote(app, link.token, 'accept', { name: 'Ana <K>' })).statusCode, 303);
  },
  'quote.declined': async (app, demo) => {
    const q = await newQuotation(app.app, demo);
    const link = await quotationLink(app, demo.companyId, q.id);
    return async () =>
      assert.equal((await answerQuote(app, link.token, 'decline', { reason: 'Preskupo & <daleko>' })).statusCode, 303);
  },
  'order.status_changed': async (app, demo) => {
    const o = await newOrder(app.app, demo);
    return async () =>
      assert.equal((await adminCall(app.app, demo.adminToken, 'POST', `/orders/${o.id}/accept`)).statusCode, 200);
  },
  'purchase_invoice.received': async (app, demo) => async () => {
    const xml = readFileSync(new URL('../fixtures/purchase/hr-cius-eracun-pdv25.xml', import.meta.url));
    const res = await app.app.inject({
      method: 'POST',
      url: '/api/v1/admin/purchase-invoices',
      headers: { ...bearer(demo.adminToken), 'content-type': 'application/xml' },
      payload: xml,
    });
    assert.equal(res.statusCode, 201, res.body);
  },
  'einvoice.delivered': async (app, demo) => {
    const doc = await sentEInvoice(app, demo);
    return async () => {
      doc.statusId = 40;
    };
  },
  'einvoice.rejected': async (app, demo) => {
    const doc = await sentEInvoice(app, demo);
    return async () => {
      eracun.rejections.push({
        electronicId: doc.electronicId,
        date: '2026-11-28',
        type: 'U',
        reason: 'Kriva cijena.',
      });
    };
  },
};

/** An invoice made before any endpoint exists (its sale.created reaches no one). */
async function saleOf(app: TestApp, demo: DemoCompany) {
  const q = await newQuotation(app.app, demo);
  await assignCustomer(app.app, demo, 'quotations', q.id);
  const res = await adminCall(app.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {});
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';
const RECEIVED = [...EVENT_NAMES, 'ping'].sort();

test('every event is catalogued once: documented under OpenAPI webhooks, offered by the admin filter, told on Telegram, and sent as documented', async (t) => {
  const receiver = await startWebhookReceiver();
  const telegram = await startFakeTelegram();
  eracun = await startFakeEracun({ dir: os.tmpdir() });
  const app = await createTestApp(
    {
      TELEGRAM_API_URL: telegram.apiBaseUrl,
      EINVOICE_EXCHANGE_CA: eracun.caFile,
      EINVOICE_POLL_SECONDS: '1',
      EINVOICE_RETRY_DELAYS_MS: '200',
    },
    { startWorkers: true },
  );
  t.after(async () => {
    await app.close();
    await receiver.close();
    await telegram.close();
    await eracun.close();
  });
  const demo = await createTenant(app.c);
  const company = await app.c.companies.getCompany(demo.companyId);

  const doc = (await app.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' })).json();
  assert.deepEqual(
    Object.keys(doc.webhooks ?? {}).sort(),
    RECEIVED,
    'the served document lists every body a receiver can get',
  );
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const documented = new Map(
    RECEIVED.map((name) => {
      const content = doc.webhooks[name].post.requestBody.content['application/json'];
      const validate = ajv.compile(content.schema);
      assert.ok(
        validate(content.example),
        `${name}: the documented example fits its schema: ${ajv.errorsText(validate.errors)}`,
      );
      assert.equal(
        doc.webhooks[name].post.description,
        name === 'ping' ? PING.description : EVENTS[name as EventName].description,
      );
      return [name, validate] as const;
    }),
  );

  const create = doc.paths['/api/v1/admin/webhooks'].post.requestBody.content['application/json'].schema;
  // The document writes a constant as a one-value enum.
  const constant = (s: { const?: string; enum?: string[] }) => s.const ?? s.enum?.[0];
  for (const kind of create.oneOf) {
    assert.deepEqual(
      kind.properties.events.items.anyOf.map(constant).sort(),
      [...EVENT_NAMES].sort(),
      `the ${constant(kind.properties.kind)} filter offers exactly the catalog`,
    );
  }

  for (const name of RECEIVED) {
    const definition = name === 'ping' ? PING : EVENTS[name as EventName];
    const lines = telegramLines(name, definition.example, company);
    assert.ok(lines && lines.length > 0, `${name} has its own Telegram text`);
    assert.ok(
      !formatTelegramMessage(name, definition.example, company).startsWith(`<b>🔔 ${name}`),
      `${name} is not told as an unknown event`,
    );
  }

  const fire = new Map<EventName, () => Promise<unknown>>();
  for (const name of EVENT_NAMES) fire.set(name, await FIRE[name](app, demo));
  await addHttpEndpoint(app, demo, { url: `${receiver.url}/all` });
  const chat = await app.app.inject({
    method: 'POST',
    url: '/api/v1/admin/webhooks',
    headers: bearer(demo.adminToken),
    payload: { kind: 'telegram', botToken: TOKEN, chatId: '-1001234567890' },
  });
  assert.equal(chat.statusCode, 201, chat.body);
  for (const name of EVENT_NAMES) await fire.get(name)!();
  const http0 = (await app.c.endpoints.list(demo.companyId)).find((e) => e.kind === 'http')!;
  const ping = await app.app.inject({
    method: 'POST',
    url: `/api/v1/admin/webhooks/${http0.id}/test`,
    headers: bearer(demo.adminToken),
  });
  assert.equal(ping.json().data.ok, true, ping.body);
  const pingChat = await app.app.inject({
    method: 'POST',
    url: `/api/v1/admin/webhooks/${chat.json().data.id}/test`,
    headers: bearer(demo.adminToken),
  });
  assert.equal(pingChat.json().data.ok, true, pingChat.body);

  const requests = await receiver.waitFor(RECEIVED.length, 10_000);
  const messages = await telegram.waitFor(RECEIVED.length, 10_000);
  const bodies = requests.map((r) => JSON.parse(r.body) as { event: string; data: unknown });
  assert.deepEqual(bodies.map((b) => b.event).sort(), RECEIVED, 'each event fired once');
  for (const body of bodies) {
    const validate = documented.get(body.event)!;
    assert.ok(
      validate(body),
      `${body.event}: the body sent fits its documented schema: ${ajv.errorsText(validate.errors)}`,
    );
    assert.equal(
      validate({ ...body, data: { ...(body.data as object), undocumented: 1 } }),
      false,
      `${body.event}: the schema would catch a field it does not document`,
    );
    if (body.event === 'ping') continue; // the Telegram endpoint's ping is its own event, checked below
    const text = formatTelegramMessage(body.event, body.data, company);
    assert.ok(
      messages.some((m) => m.text === text),
      `${body.event}: the chat got the catalog's text for the same data`,
    );
  }
  assert.ok(messages.some((m) => m.text.startsWith('<b>🔔 Test notification</b>')));
});
