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
