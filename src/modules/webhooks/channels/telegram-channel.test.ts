// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliverTelegram, formatTelegramMessage, type TelegramDeliveryInput } from './telegram-channel.ts';
import { escapeTelegramHtml } from './telegram-html.ts';
import type { EventData, MessageCompany } from '../event-catalog.ts';
import { createGuardedAgent } from '../target-guard.ts';
import { startFakeTelegram, type Scripted } from '../../../../test/support/fake-telegram.ts';

const agent = createGuardedAgent({ allowPrivate: true, timeoutMs: 2000 });
test.after(() => agent.close());

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

const company: MessageCompany = { name: 'Bakkerij Janssens', currency: 'EUR', locale: 'nl-BE' };
const order: EventData<'order.created'> = {
  orderId: 'ord_1',
  number: 'O-2025-0042',
  customerName: 'Jan <b>&"Peeters"',
  totalWithTax: '1234.50',
  locationName: 'Gent',
  lineCount: 3,
  externalReference: 'PO-77',
};
const quote: EventData<'quote.created'> = {
  quotationId: 'qt_1',
  number: 'Q-2025-0042',
  customerName: 'Jan <b>&"Peeters"',
  totalWithTax: '1234.50',
  locationName: 'Gent',
  lineCount: 3,
};

/** Every & starts a valid entity and every < starts one of our tags. */
function assertWellFormed(html: string): void {
  assert.ok(!/&(?!amp;|lt;|gt;|quot;)/.test(html), 'bare & or cut entity');
  const tags = html.match(/<[^>]*>?/g) ?? [];
  for (const t of tags) assert.match(t, /^<\/?(b|i|code)>$/, `unexpected tag ${t}`);
}

function tg(apiBaseUrl: string, over: Partial<TelegramDeliveryInput> = {}): TelegramDeliveryInput {
  return { apiBaseUrl, botToken: TOKEN, chatId: '-1001234567890', text: 'hello', timeoutMs: 2000, agent, ...over };
}

test('escapeTelegramHtml', () => {
  assert.equal(escapeTelegramHtml(`<b>&"x'`), `&lt;b&gt;&amp;&quot;x'`);
  assert.equal(escapeTelegramHtml('plain'), 'plain');
});

test('formatTelegramMessage: readable, escaped, localized total', () => {
  const text = formatTelegramMessage('order.created', order, company);
  assert.match(text, /^<b>🛒 New web order O-2025-0042<\/b>/);
  assert.ok(text.includes('Jan &lt;b&gt;&amp;&quot;Peeters&quot;'));
  assert.ok(text.includes('&lt;b&gt;&amp;'));
  assert.ok(!text.includes('<b>&'));
  const euro = new Intl.NumberFormat('nl-BE', { style: 'currency', currency: 'EUR' }).format(1234.5);
  assert.ok(text.includes(euro), `${text} should contain ${euro}`);
  assert.ok(text.includes('Gent'));
  assert.ok(text.includes('Lines: 3'));
  assert.ok(text.includes('PO-77'));
  assertWellFormed(text);

  const quoted = formatTelegramMessage('quote.created', quote, { ...company, locale: 'xx-invalid-!!' });
  assert.match(quoted, /^<b>🧾 New quotation Q-2025-0042<\/b>/);
  assert.ok(!quoted.includes('Reference'));
  assertWellFormed(quoted);
  assert.ok(
    !formatTelegramMessage('order.created', { ...order, externalReference: null }, company).includes('Reference'),
  );

  const ping = formatTelegramMessage('ping', { endpointId: 'whe_1' }, { ...company, name: 'A&B' });
  assert.match(ping, /Test notification/);
  assert.ok(ping.includes('A&amp;B'));
  assertWellFormed(ping);

  const badCurrency = formatTelegramMessage('quote.created', quote, { ...company, currency: 'NOPE' });
  assert.ok(badCurrency.includes('1234.50 NOPE'));
});

test('formatTelegramMessage: an event it cannot describe is named as it is, never passed off as another', () => {
  for (const [event, data] of [
    ['invoice.paid', { invoiceId: 'inv_1' }],
    ['order.created', { number: 'O-1' }],
    ['<b>', null],
  ] as const) {
    const text = formatTelegramMessage(event, data, company);
    assert.equal(text, `<b>🔔 ${escapeTelegramHtml(event)}</b>\n<i>Bakkerij Janssens</i>`);
    assertWellFormed(text);
  }
});

test('formatTelegramMessage: at most 4096 characters with huge fields, never cutting an entity', () => {
  for (const unit of ['&', '<b>', '"', 'x', '🧾', 'é&']) {
    const long = unit.repeat(20_000);
    const text = formatTelegramMessage(
      'order.created',
      {
        ...order,
        customerName: long,
        locationName: long,
        number: long,
        externalReference: long,
      },
      { ...company, name: long, currency: 'EUR' },
    );
    assert.ok(text.length <= 4096, `${unit}: ${text.length}`);
    assertWellFormed(text);
    assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(text), 'lone high surrogate');
    assert.ok(text.includes('…'));
  }
});

test('sends sendMessage with HTML parse mode; the fake server receives the escaped text', async (t) => {
  const fake = await startFakeTelegram();
  t.after(() => fake.close());
  const text = formatTelegramMessage('order.created', order, company);
  const r = await deliverTelegram(tg(fake.apiBaseUrl, { text }));
  assert.equal(r.ok, true, r.error ?? '');
  assert.equal(r.statusCode, 200);
  assert.equal(r.error, null);
  assert.equal(r.permanent, null);
  const [msg] = await fake.waitFor(1);
  assert.ok(msg);
  assert.equal(msg.token, TOKEN);
  assert.equal(msg.chatId, '-1001234567890');
  assert.equal(msg.parseMode, 'HTML');
  assert.equal(msg.text, text);
  assert.ok(msg.text.includes('&lt;b&gt;&amp;'));
  assert.deepEqual(msg.body.link_preview_options, { is_disabled: true });
  assert.ok(!(r.responseExcerpt ?? '').includes(TOKEN));
});

function scripted(s: Scripted) {
  return startFakeTelegram({ script: () => s });
}

test('429 → retryAfterMs from parameters.retry_after', async (t) => {
  const fake = await scripted({ kind: 'retry-after', seconds: 17 });
  t.after(() => fake.close());
  const r = await deliverTelegram(tg(fake.apiBaseUrl));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 429);
  assert.equal(r.retryAfterMs, 17_000);
  assert.equal(r.permanent, null);
  assert.match(r.error ?? '', /Too Many Requests/);
});

test('migrate_to_chat_id → migrateToChatId, not ok, not permanent', async (t) => {
  const fake = await scripted({ kind: 'migrate', toChatId: '-1009876543210' });
  t.after(() => fake.close());
  const r = await deliverTelegram(tg(fake.apiBaseUrl, { chatId: '-4567' }));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 400);
  assert.equal(r.migrateToChatId, '-1009876543210');
  assert.equal(r.permanent, null);
});

test('chat not found → permanent chat-not-found', async (t) => {
  const fake = await scripted({ kind: 'chat-not-found' });
  t.after(() => fake.close());
  const r = await deliverTelegram(tg(fake.apiBaseUrl));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 400);
  assert.equal(r.permanent, 'chat-not-found');
  assert.match(r.error ?? '', /chat not found/);
});

test('unauthorized (scripted and unknown token) → permanent unauthorized; token never leaked', async (t) => {
  const fake = await scripted({ kind: 'unauthorized' });
  t.after(() => fake.close());
  const r = await deliverTelegram(tg(fake.apiBaseUrl));
  assert.equal(r.statusCode, 401);
  assert.equal(r.permanent, 'unauthorized');

  const strict = await startFakeTelegram({ tokens: ['1:other'] });
  t.after(() => strict.close());
  const r2 = await deliverTelegram(tg(strict.apiBaseUrl));
  assert.equal(r2.statusCode, 401);
  assert.equal(r2.permanent, 'unauthorized');
  assert.equal(strict.messages.length, 0);
  for (const res of [r, r2]) {
    const all = JSON.stringify(res);
    assert.ok(!all.includes(TOKEN));
    assert.ok(!all.includes(TOKEN.split(':')[1]!));
  }
});

test('network errors and timeouts: result, no throw, token never in error', async (t) => {
  const fake = await startFakeTelegram();
  const base = fake.apiBaseUrl;
  await fake.close();
  const r = await deliverTelegram(tg(base));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, null);
  assert.equal(r.error, 'connection refused');

  const guarded = createGuardedAgent({ allowPrivate: false, timeoutMs: 2000 });
  t.after(() => guarded.close());
  const live = await startFakeTelegram();
  t.after(() => live.close());
  const r2 = await deliverTelegram(tg(live.apiBaseUrl, { agent: guarded }));
  assert.equal(r2.permanent, 'forbidden-target');
  assert.equal(live.messages.length, 0);
  for (const res of [r, r2]) assert.ok(!JSON.stringify(res).includes(TOKEN.split(':')[1]!));
});

test('an event about test data opens with a TEST line; a live one does not', () => {
  const quote: EventData<'quote.created'> = {
    quotationId: 'qte_1',
    number: 'T-Q-ZG1-2026-00001',
    customerName: 'Ana',
    totalWithTax: '12.50',
    locationName: 'Zagreb',
    lineCount: 1,
  };
  const text = formatTelegramMessage('quote.created', quote, company, false);
  assert.ok(text.startsWith('<b>🧪 TEST DATA</b>'), text);
  assert.ok(!formatTelegramMessage('quote.created', quote, company).includes('TEST'));
});
