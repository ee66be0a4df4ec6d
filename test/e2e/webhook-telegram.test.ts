// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../support/test-app.ts';
import { startFakeTelegram, type Scripted } from '../support/fake-telegram.ts';
import { createQuote, eventually } from '../support/webhook-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw';

async function setup(script?: (n: number) => Scripted) {
  const telegram = await startFakeTelegram({ script: script ? (_call, n) => script(n) : undefined });
  const app = await createTestApp(
    { TELEGRAM_API_URL: telegram.apiBaseUrl, WEBHOOK_RETRY_DELAYS_MS: '50,50,50' },
    { startWorkers: true },
  );
  const demo = await createTenant(app.c);
  const res = await app.app.inject({
    method: 'POST',
    url: '/api/v1/admin/webhooks',
    headers: bearer(demo.adminToken),
    payload: { kind: 'telegram', botToken: TOKEN, chatId: '-1001234567890', description: 'Shop chat' },
  });
  assert.equal(res.statusCode, 201, res.body);
  return {
    telegram,
    app,
    demo,
    endpointId: res.json().data.id as string,
    close: async () => {
      await app.close();
      await telegram.close();
    },
  };
}

const endpoint = async (app: TestApp, demo: DemoCompany, id: string) =>
  (
    await app.app.inject({ method: 'GET', url: `/api/v1/admin/webhooks/${id}`, headers: bearer(demo.adminToken) })
  ).json().data;

test('a quote becomes one escaped HTML sendMessage; the bot token is never shown again', async (t) => {
  const s = await setup();
  t.after(s.close);
  const view = await endpoint(s.app, s.demo, s.endpointId);
  assert.equal(view.kind, 'telegram');
  assert.ok(!JSON.stringify(view).includes(TOKEN.split(':')[1]!.slice(0, 10)), 'token is masked');

  const quote = await createQuote(s.app, s.demo, '<b>Ana & "Kovač"</b>');
  const [call] = await s.telegram.waitFor(1);
  assert.equal(call!.token, TOKEN);
  assert.equal(call!.chatId, '-1001234567890');
  assert.equal(call!.parseMode, 'HTML');
  assert.ok(call!.text.includes('&lt;b&gt;Ana &amp; &quot;Kovač&quot;&lt;/b&gt;'), call!.text);
  assert.ok(!call!.text.includes('<b>Ana'), 'customer text never becomes markup');
  assert.ok(call!.text.includes(quote.number));
  assert.ok(call!.text.includes(s.demo.locations[0]!.name));
  assert.ok(call!.text.length <= 4096);
});

test('429 retry_after is waited out, then the message goes through', async (t) => {
  const s = await setup((n) => (n === 1 ? { kind: 'retry-after', seconds: 1 } : { kind: 'ok' }));
  t.after(s.close);
  const started = Date.now();
  await createQuote(s.app, s.demo);
  const calls = await s.telegram.waitFor(2, 10_000);
  assert.equal(calls.length, 2);
  assert.ok(Date.now() - started >= 950, 'the second call waited for retry_after');
});

test('a group upgraded to a supergroup is followed: the endpoint is updated and the message resent there', async (t) => {
  const s = await setup((n) => (n === 1 ? { kind: 'migrate', toChatId: '-1009999999999' } : { kind: 'ok' }));
  t.after(s.close);
  await createQuote(s.app, s.demo);
  const calls = await s.telegram.waitFor(2);
  assert.equal(calls[1]!.chatId, '-1009999999999');
  const view = await eventually(async () => {
    const v = await endpoint(s.app, s.demo, s.endpointId);
    return v.chatId === '-1009999999999' ? v : null;
  });
  assert.equal(view.enabled, true);
  await createQuote(s.app, s.demo);
  const later = await s.telegram.waitFor(3);
  assert.equal(later[2]!.chatId, '-1009999999999');
});

test('"chat not found" is permanent: no retries for days, the endpoint is disabled and admins are told', async (t) => {
  const s = await setup(() => ({ kind: 'chat-not-found' }));
  t.after(s.close);
  await createQuote(s.app, s.demo);
  await s.telegram.waitFor(1);
  const view = await eventually(async () => {
    const v = await endpoint(s.app, s.demo, s.endpointId);
    return v.enabled === false ? v : null;
  });
  assert.match(view.disabledReason, /chat/i);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(s.telegram.messages.length, 1, 'not retried');
  const notes = await s.app.app.inject({
    method: 'GET',
    url: '/api/v1/admin/notifications?unread=true',
    headers: bearer(s.demo.adminToken),
  });
  assert.ok(notes.json().data.some((n: { kind: string }) => n.kind === 'webhook.disabled'));
});
