// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { deliverHttp, type HttpDeliveryInput } from './http-channel.ts';
import { Agent } from 'undici';
import { createGuardedAgent } from '../target-guard.ts';
import { signingKey } from '../signature.ts';
import { startWebhookReceiver } from '../../../../test/support/webhook-receiver.ts';

const agent = createGuardedAgent({ allowPrivate: true, timeoutMs: 2000 });
test.after(() => agent.close());

const body = JSON.stringify({ type: 'order.created', data: { customer: 'Zoë <b>&"', total: '12.50' } });

function input(url: string | URL, over: Partial<HttpDeliveryInput> = {}): HttpDeliveryInput {
  return {
    url,
    secret: null,
    eventId: 'evt_01',
    timestampSeconds: Math.floor(Date.now() / 1000),
    body,
    timeoutMs: 2000,
    agent,
    userAgent: 'Portico-Webhooks/1.0',
    ...over,
  };
}

test('posts the exact body with Standard Webhooks headers; signature verifies', async (t) => {
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  const secret = 'whsec_' + randomBytes(24).toString('base64');
  const ts = Math.floor(Date.now() / 1000);
  const r = await deliverHttp(input(`${receiver.url}/hooks/portico?x=1`, { secret, timestampSeconds: ts }));
  assert.equal(r.ok, true);
  assert.equal(r.statusCode, 200);
  assert.equal(r.error, null);
  assert.equal(r.responseExcerpt, 'ok');
  assert.equal(r.permanent, null);
  assert.equal(r.retryAfterMs, null);
  assert.ok(r.durationMs >= 0);

  const [req] = await receiver.waitFor(1);
  assert.ok(req);
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/hooks/portico?x=1');
  assert.deepEqual(req.rawBody, Buffer.from(body, 'utf8'));
  assert.equal(req.headers['content-type'], 'application/json');
  assert.equal(req.headers['content-length'], String(Buffer.byteLength(body)));
  assert.equal(req.headers['user-agent'], 'Portico-Webhooks/1.0');
  assert.equal(req.headers['webhook-id'], 'evt_01');
  assert.equal(req.headers['webhook-timestamp'], String(ts));
  assert.equal(req.headers['x-service-webhook-secret'], secret);
  assert.match(req.headers['webhook-signature'] ?? '', /^v1,/);
  const names = Object.keys(req.headers).sort();
  assert.deepEqual(
    names.filter((n) => n !== 'connection'),
    [
      'content-length',
      'content-type',
      'host',
      'user-agent',
      'webhook-id',
      'webhook-signature',
      'webhook-timestamp',
      'x-service-webhook-secret',
    ],
  );
  assert.deepEqual(new Webhook(secret).verify(req.body, req.headers), JSON.parse(body));
});

test('without a secret: webhook-id and timestamp, no signature or secret header', async (t) => {
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  const r = await deliverHttp(input(receiver.url));
  assert.equal(r.ok, true);
  const [req] = await receiver.waitFor(1);
  assert.equal(req?.headers['webhook-id'], 'evt_01');
  assert.ok(req?.headers['webhook-timestamp']);
  assert.equal(req?.headers['webhook-signature'], undefined);
  assert.equal(req?.headers['x-service-webhook-secret'], undefined);
});

test('a plain (non-whsec) secret is signed with its UTF-8 bytes', async (t) => {
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  const secret = 'plain-shared-secret-123';
  await deliverHttp(input(receiver.url, { secret }));
  const [req] = await receiver.waitFor(1);
  assert.ok(req);
  assert.deepEqual(new Webhook(Buffer.from(secret).toString('base64')).verify(req.body, req.headers), JSON.parse(body));
});

test('redirects are not followed', async (t) => {
  const receiver = await startWebhookReceiver({
    respond: (req) =>
      req.path === '/start'
        ? { status: 302, headers: { location: '/elsewhere' }, body: 'moved' }
        : { status: 200, body: 'ok' },
  });
  t.after(() => receiver.close());
  const r = await deliverHttp(input(`${receiver.url}/start`));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 302);
  assert.match(r.error ?? '', /redirect/);
  assert.equal(r.permanent, null);
  await new Promise((res) => setTimeout(res, 100));
  assert.equal(receiver.requests.length, 1);
  assert.equal(receiver.requests[0]?.path, '/start');
});

test('response excerpt is capped at 2 KiB, cut on a UTF-8 boundary', async (t) => {
  const big = 'a'.repeat(1024 * 1024);
  const multi = 'x' + 'é'.repeat(5000); // 1 + 2n bytes: the 2048-byte cut falls inside an "é"
  const receiver = await startWebhookReceiver({
    respond: (_req, n) => ({ status: n === 1 ? 500 : 200, body: n === 1 ? big : multi }),
  });
  t.after(() => receiver.close());

  const r1 = await deliverHttp(input(receiver.url));
  assert.equal(r1.ok, false);
  assert.equal(r1.statusCode, 500);
  assert.equal(r1.responseExcerpt, 'a'.repeat(2048));

  const r2 = await deliverHttp(input(receiver.url));
  assert.equal(r2.ok, true);
  const ex = r2.responseExcerpt ?? '';
  assert.equal(Buffer.byteLength(ex), 2047);
  assert.equal(ex, 'x' + 'é'.repeat(1023));
  assert.ok(!ex.includes('\uFFFD'));
});

test('the secret never appears in the excerpt', async (t) => {
  const secret = 'whsec_' + randomBytes(24).toString('base64');
  const receiver = await startWebhookReceiver({
    respond: (req) => ({
      status: 400,
      body: `${'.'.repeat(2030)} bad secret ${req.headers['x-service-webhook-secret']}`,
    }),
  });
  t.after(() => receiver.close());
  const r = await deliverHttp(input(receiver.url, { secret }));
  assert.equal(r.ok, false);
  assert.ok(!(r.responseExcerpt ?? '').includes(secret.slice(0, 12)));
  assert.ok(!(r.error ?? '').includes(secret));
});

test('times out on a receiver that never answers', async (t) => {
  const receiver = await startWebhookReceiver({ respond: () => new Promise(() => {}) });
  t.after(() => receiver.close());
  const started = Date.now();
  const r = await deliverHttp(input(receiver.url, { timeoutMs: 300 }));
  const took = Date.now() - started;
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, null);
  assert.match(r.error ?? '', /timeout/);
  assert.equal(r.permanent, null);
  assert.ok(took >= 250 && took < 2000, `took ${took} ms`);
});

test('a body that trickles forever cannot hold the worker', async (t) => {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('partial ');
    const timer = setInterval(() => res.write('.'), 50);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const started = Date.now();
  const r = await deliverHttp(input(`http://127.0.0.1:${port}/`, { timeoutMs: 400 }));
  const took = Date.now() - started;
  assert.ok(took < 2000, `took ${took} ms`);
  assert.equal(r.statusCode, 200);
  assert.equal(r.ok, true); // the receiver accepted it; only the response body was slow
  assert.match(r.responseExcerpt ?? '', /^partial \.*/);
});

test('410 Gone is permanent', async (t) => {
  const receiver = await startWebhookReceiver({ respond: () => ({ status: 410, body: 'gone' }) });
  t.after(() => receiver.close());
  const r = await deliverHttp(input(receiver.url));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, 410);
  assert.equal(r.permanent, 'gone');
  assert.equal(r.responseExcerpt, 'gone');
});

test('Retry-After is parsed (delta-seconds and HTTP-date)', async (t) => {
  const date = new Date(Date.now() + 120_000).toUTCString();
  const receiver = await startWebhookReceiver({
    respond: (_req, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '30' } }
        : n === 2
          ? { status: 503, headers: { 'retry-after': date } }
          : { status: 500 },
  });
  t.after(() => receiver.close());
  const r1 = await deliverHttp(input(receiver.url));
  assert.equal(r1.statusCode, 429);
  assert.equal(r1.retryAfterMs, 30_000);
  assert.equal(r1.permanent, null);
  assert.equal(r1.responseExcerpt, null);
  const r2 = await deliverHttp(input(receiver.url));
  assert.equal(r2.statusCode, 503);
  assert.ok(
    r2.retryAfterMs !== null && r2.retryAfterMs > 110_000 && r2.retryAfterMs <= 120_000,
    String(r2.retryAfterMs),
  );
  const r3 = await deliverHttp(input(receiver.url));
  assert.equal(r3.retryAfterMs, null);
  assert.equal(r3.error, 'HTTP 500');
});

test('a forbidden target is refused without any request (permanent)', async (t) => {
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  const guarded = createGuardedAgent({ allowPrivate: false, timeoutMs: 2000 });
  t.after(() => guarded.close());
  const r = await deliverHttp(input(receiver.url, { agent: guarded }));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, null);
  assert.equal(r.permanent, 'forbidden-target');
  assert.match(r.error ?? '', /not allowed/);
  assert.equal(receiver.requests.length, 0);
});

test('connection refused is a transient network error, never a throw', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const r = await deliverHttp(input(`http://127.0.0.1:${port}/`));
  assert.equal(r.ok, false);
  assert.equal(r.statusCode, null);
  assert.equal(r.error, 'connection refused');
  assert.equal(r.permanent, null);
});

test('keep-alive: sequential deliveries reuse connections', async (t) => {
  const sockets = new Set<unknown>();
  const server = createServer((req, res) => {
    sockets.add(req.socket);
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  const { port } = server.address() as AddressInfo;
  const local = createGuardedAgent({ allowPrivate: true, timeoutMs: 2000 });
  t.after(() => local.close());
  for (let i = 0; i < 10; i++) {
    const r = await deliverHttp(input(`http://127.0.0.1:${port}/`, { agent: local }));
    assert.equal(r.ok, true);
  }
  // undici's pool may alternate between two idle connections, but never opens one per delivery
  assert.ok(sockets.size <= 2, `${sockets.size} sockets for 10 deliveries`);
});

test('the timeout also bounds the wait for a connection: a delivery queued behind a hung one still settles', async (t) => {
  const receiver = await startWebhookReceiver({ respond: () => new Promise(() => {}) });
  t.after(() => receiver.close());
  const single = new Agent({ connections: 1, pipelining: 1 });
  t.after(() => single.destroy());
  const started = Date.now();
  const [first, queued] = await Promise.all([
    deliverHttp(input(receiver.url, { agent: single, timeoutMs: 300 })),
    deliverHttp(input(receiver.url, { agent: single, timeoutMs: 300 })),
  ]);
  const took = Date.now() - started;
  for (const r of [first, queued]) {
    assert.equal(r.ok, false);
    assert.equal(r.statusCode, null);
    assert.match(r.error ?? '', /timeout/);
  }
  assert.ok(took >= 250 && took < 2000, `took ${took} ms`);
  assert.equal(receiver.requests.length, 1, 'the queued one was never sent');
});

test('a signing key made once per endpoint signs exactly as the secret does', async (t) => {
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  const secret = 'whsec_' + randomBytes(24).toString('base64');
  await deliverHttp(input(new URL(`${receiver.url}/k`), { secret, signingKey: signingKey(secret) }));
  const [req] = await receiver.waitFor(1);
  assert.ok(req);
  assert.deepEqual(new Webhook(secret).verify(req.body, req.headers), JSON.parse(body));
});
