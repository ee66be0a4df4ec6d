// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { issueCredential, parseCredential, secretMatches } from './credential.ts';
import { newId } from '../../lib/ids.ts';

test('an issued key parses back and verifies only with its own secret', () => {
  const id = newId('apiKey');
  const { token, secretHash } = issueCredential('apiKey', id);
  assert.match(token, /^ptc_key_[0-9A-Za-z]{20}_[0-9A-Za-z]{32}$/);
  const parsed = parseCredential('apiKey', token);
  assert.deepEqual(parsed?.recordId, id);
  assert.ok(secretMatches(parsed!.secret, secretHash));
  assert.ok(
    !secretMatches(
      parsed!.secret.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')),
      secretHash,
    ),
  );
  assert.ok(!secretHash.includes(parsed!.secret));
});

test('malformed tokens and tokens of the other kind are refused', () => {
  const { token } = issueCredential('adminToken', newId('adminToken'));
  assert.equal(parseCredential('apiKey', token), null);
  assert.ok(parseCredential('adminToken', token));
  for (const bad of ['', 'ptc_', 'ptc_key_abc_def', `${token}x`, token.toUpperCase()]) {
    assert.equal(parseCredential('adminToken', bad), null, bad);
  }
});

test("an API key's prefix says its kind and mode, and parses back to them", () => {
  const id = newId('apiKey');
  const cases = [
    [{ kind: 'secret', mode: 'live' }, /^ptc_key_/],
    [{ kind: 'secret', mode: 'test' }, /^ptc_test_key_/],
    [{ kind: 'publishable', mode: 'live' }, /^ptc_pub_key_/],
    [{ kind: 'publishable', mode: 'test' }, /^ptc_pub_test_key_/],
  ] as const;
  for (const [variant, shape] of cases) {
    const { token } = issueCredential('apiKey', id, variant);
    assert.match(token, shape);
    assert.deepEqual(parseCredential('apiKey', token)?.variant, variant);
    assert.equal(parseCredential('apiKey', token)?.recordId, id);
  }
  const admin = issueCredential('adminToken', newId('adminToken')).token;
  assert.equal(
    parseCredential('adminToken', admin.replace(/^pta_/, 'pta_pub_')),
    null,
    'admin tokens have no variants',
  );
  assert.equal(parseCredential('apiKey', `ptc_test_pub_${id}_${'a'.repeat(32)}`), null, 'pub comes before test');
});
