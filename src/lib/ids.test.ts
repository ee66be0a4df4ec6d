// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, randomToken, timeOrderedId } from './ids.ts';

test('ids keep their shape: prefix, underscore, 20 base62 characters', () => {
  for (let i = 0; i < 1000; i++) assert.match(newId('inquiry'), /^inq_[0-9A-Za-z]{20}$/);
  assert.match(randomToken(32), /^[0-9A-Za-z]{32}$/);
});

test('ids sort by creation time, byte-wise as databases compare text', () => {
  const times = [0, 61, 62, 1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000, 62 ** 8 - 1];
  const ids = times.map((t) => timeOrderedId('evt', t));
  const sorted = [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  assert.deepEqual(sorted, ids);
  assert.equal(ids[0]!.slice(4, 12), '00000000');
});

test('the random part is uniform and never repeats', () => {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  const now = Date.now();
  for (let i = 0; i < 20_000; i++) {
    const id = timeOrderedId('x', now);
    assert.ok(!seen.has(id));
    seen.add(id);
    for (const ch of id.slice(10)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(counts.size, 62);
  const expected = (20_000 * 12) / 62;
  for (const [ch, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.15, `${ch}: ${n} vs ${expected}`);
});
