// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANY_LOCALHOST, normaliseOrigin, originAllowed, originLookups } from './browser-origins.ts';

test('origins are kept exactly as a browser sends them; anything with a path, query or other scheme is refused', () => {
  assert.deepEqual(normaliseOrigin(' https://shop.example.com '), { origin: 'https://shop.example.com' });
  assert.deepEqual(normaliseOrigin('https://shop.example.com/'), { origin: 'https://shop.example.com' });
  assert.deepEqual(normaliseOrigin('http://127.0.0.1:8080'), { origin: 'http://127.0.0.1:8080' });
  assert.deepEqual(normaliseOrigin(ANY_LOCALHOST), { origin: ANY_LOCALHOST });
  for (const bad of [
    'shop.example.com',
    'https://shop.example.com/contact',
    'https://shop.example.com?x=1',
    'ftp://shop.example.com',
    'https://user@shop.example.com',
    'https://*.example.com',
    'http://localhost:*/x',
    'null',
  ])
    assert.ok('error' in normaliseOrigin(bad), bad);
  assert.match(
    (normaliseOrigin('HTTPS://Shop.Example.com:443') as { error: string }).error,
    /https:\/\/shop\.example\.com/,
  );
});

test('an allowed origin matches exactly; any localhost port only when the wildcard is listed', () => {
  const allowed = ['https://shop.example.com'];
  assert.ok(originAllowed(allowed, 'https://shop.example.com'));
  for (const other of [
    'https://shop.example.com:8443',
    'http://shop.example.com',
    'https://evil.example.com',
    'http://localhost:3000',
  ])
    assert.ok(!originAllowed(allowed, other), other);
  const dev = [...allowed, ANY_LOCALHOST];
  assert.ok(originAllowed(dev, 'http://localhost:5173'));
  assert.ok(originAllowed(dev, 'http://localhost'));
  assert.ok(!originAllowed(dev, 'https://localhost:5173'), 'the wildcard is plain http only');
  assert.ok(!originAllowed(dev, 'http://localhost.evil.example'));
  assert.ok(!originAllowed(dev, 'http://127.0.0.1:5173'));
  assert.deepEqual(originLookups('http://localhost:5173'), ['http://localhost:5173', ANY_LOCALHOST]);
  assert.deepEqual(originLookups('https://shop.example.com'), ['https://shop.example.com']);
});
