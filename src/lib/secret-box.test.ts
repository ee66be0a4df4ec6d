// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSecretBox, maskSecret } from './secret-box.ts';

const key = randomBytes(32);

test('seal/open round trip, random IV, format v1.iv.tag.ct', () => {
  const box = createSecretBox(key);
  for (const plain of ['', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '123456:ABC-DEF_ghi', 'ünïcödé 🧾 €']) {
    const sealed = box.seal(plain);
    assert.match(sealed, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/);
    assert.ok(!sealed.includes(plain) || plain === '');
    assert.equal(box.open(sealed), plain);
  }
  assert.notEqual(box.seal('same'), box.seal('same'));
  const [, iv, tag] = box.seal('x').split('.');
  assert.equal(Buffer.from(iv!, 'base64url').length, 12);
  assert.equal(Buffer.from(tag!, 'base64url').length, 16);
});

test('rejects keys that are not 32 bytes', () => {
  assert.throws(() => createSecretBox(randomBytes(16)), RangeError);
  assert.throws(() => createSecretBox(randomBytes(33)), RangeError);
});

test('open throws on tampering', () => {
  const box = createSecretBox(key);
  const sealed = box.seal('a secret value');
  const parts = sealed.split('.');
  const flip = (s: string, i: number): string => {
    const b = Buffer.from(s, 'base64url');
    b[i % b.length]! ^= 0x01;
    return b.toString('base64url');
  };
  const variants = [
    [parts[0], flip(parts[1]!, 0), parts[2], parts[3]],
    [parts[0], parts[1], flip(parts[2]!, 5), parts[3]],
    [parts[0], parts[1], parts[2], flip(parts[3]!, 3)],
    [parts[0], parts[1], parts[2], parts[3] + '!'],
    [parts[0], parts[1], parts[2], parts[3]!.slice(0, -2)],
    ['v2', parts[1], parts[2], parts[3]],
    [parts[0], parts[1], parts[2]],
  ].map((p) => p.join('.'));
  for (const v of [...variants, '', 'garbage', `${sealed}.x`]) {
    assert.throws(
      () => box.open(v),
      (err: Error) => {
        assert.match(err.message, /cannot open/);
        assert.ok(!err.message.includes('a secret value'));
        return true;
      },
      v,
    );
  }
});

test('open with a wrong key throws', () => {
  const sealed = createSecretBox(key).seal('hello');
  assert.throws(() => createSecretBox(randomBytes(32)).open(sealed), /cannot open/);
});

test('maskSecret never reveals more than 4 characters', () => {
  assert.equal(maskSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLa1b2'), 'whsec_…a1b2');
  assert.equal(maskSecret('supersecretvaluea1b2'), '…a1b2');
  assert.equal(maskSecret('short'), '…');
  assert.equal(maskSecret('whsec_abc'), 'whsec_…');
  assert.equal(maskSecret(''), '…');
  const samples = [
    'x'.repeat(100),
    'whsec_' + randomBytes(24).toString('base64'),
    'abcdefghijkl',
    '🧾🧾🧾🧾🧾🧾🧾🧾🧾🧾🧾🧾🧾',
  ];
  for (const s of samples) {
    const masked = maskSecret(s);
    const body = s.startsWith('whsec_') ? s.slice(6) : s;
    const shown = masked.replace(/^(whsec_)?…/, '');
    assert.ok(Array.from(shown).length <= 4, masked);
    assert.ok(body.endsWith(shown));
  }
});
