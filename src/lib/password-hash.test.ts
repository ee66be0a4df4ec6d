// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { ARGON2_PARAMS, hashPassword, needsRehash, verifyPassword } from './password-hash.ts';

test('argon2id in PHC form with the OWASP parameters; the right password matches, others do not', async () => {
  const stored = await hashPassword('correct horse ✓ battery');
  assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert.equal(await verifyPassword('correct horse ✓ battery', stored), true);
  assert.equal(await verifyPassword('correct horse ✓ batterY', stored), false);
  assert.notEqual(await hashPassword('correct horse ✓ battery'), stored, 'a fresh salt each time');
  assert.equal(needsRehash(stored), false);
});

test('a hash made with other parameters or the old scrypt form still verifies and asks to be re-hashed', async () => {
  const weaker = await hashPassword('pw-1234567890', { ...ARGON2_PARAMS, memory: 8192 });
  assert.equal(await verifyPassword('pw-1234567890', weaker), true);
  assert.equal(needsRehash(weaker), true);
  const salt = randomBytes(16);
  const legacy = `scrypt$${salt.toString('base64')}$${scryptSync('pw-1234567890', salt, 32).toString('base64')}`;
  assert.equal(await verifyPassword('pw-1234567890', legacy), true);
  assert.equal(await verifyPassword('pw-123456789', legacy), false);
  assert.equal(needsRehash(legacy), true);
});

test('a malformed stored value never matches', async () => {
  for (const stored of [
    '',
    '$argon2id$v=19$m=19456,t=2,p=1$$',
    'scrypt$$',
    '$argon2i$v=19$m=1,t=1,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAA',
  ]) {
    assert.equal(await verifyPassword('x', stored), false, stored);
  }
});
