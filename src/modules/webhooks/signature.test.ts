// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signWebhook } from './signature.ts';

const body = JSON.stringify({ type: 'quote.created', data: { number: 'Q-1', name: 'Ünïcode 🧾 <b>&"' } });

function headers(msgId: string, ts: number, sig: string): Record<string, string> {
  return { 'webhook-id': msgId, 'webhook-timestamp': String(ts), 'webhook-signature': sig };
}

test('whsec_ secret verifies with the standardwebhooks library', () => {
  const secret = 'whsec_' + randomBytes(24).toString('base64');
  const ts = Math.floor(Date.now() / 1000);
  const sig = signWebhook(secret, 'evt_1', ts, body);
  assert.match(sig, /^v1,[A-Za-z0-9+/]+=*$/);
  assert.deepEqual(new Webhook(secret).verify(body, headers('evt_1', ts, sig)), JSON.parse(body));
  // and it is exactly what the library computes
  assert.equal(new Webhook(secret).sign('evt_1', new Date(ts * 1000), body), sig);
});

test('plain secret is used as its UTF-8 bytes', () => {
  const secret = 'my plain sécret';
  const ts = Math.floor(Date.now() / 1000);
  const sig = signWebhook(secret, 'evt_2', ts, body);
  const wh = new Webhook(Buffer.from(secret).toString('base64'));
  assert.deepEqual(wh.verify(body, headers('evt_2', ts, sig)), JSON.parse(body));
});

test('any change to id, timestamp, body or secret breaks verification', () => {
  const secret = 'whsec_' + randomBytes(24).toString('base64');
  const ts = Math.floor(Date.now() / 1000);
  const sig = signWebhook(secret, 'evt_3', ts, body);
  const wh = new Webhook(secret);
  assert.throws(() => wh.verify(body, headers('evt_4', ts, sig)));
  assert.throws(() => wh.verify(body, headers('evt_3', ts + 1, sig)));
  assert.throws(() => wh.verify(body + ' ', headers('evt_3', ts, sig)));
  const other = signWebhook('whsec_' + randomBytes(24).toString('base64'), 'evt_3', ts, body);
  assert.throws(() => wh.verify(body, headers('evt_3', ts, other)));
});

test('known vector (HMAC-SHA256 of "id.ts.body")', () => {
  // secret "whsec_" + base64("key") → key bytes "key"
  const a = signWebhook('whsec_' + Buffer.from('key').toString('base64'), 'id', 1, 'b');
  const b = signWebhook('key', 'id', 1, 'b');
  assert.equal(a, b);
  assert.equal(a, 'v1,' + createHmac('sha256', 'key').update('id.1.b').digest('base64'));
});
