// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGroupCommit } from './group-commit.ts';

test('items submitted together are flushed as one batch, each caller getting its own result', async () => {
  const batches: number[][] = [];
  const gc = createGroupCommit<number, string>(
    async (items) => {
      batches.push(items);
      return items.map((i) => `r${i}`);
    },
    { maxBatch: 3, maxInFlight: 1 },
  );
  const results = await Promise.all([1, 2, 3, 4, 5].map((i) => gc.submit(i)));
  assert.deepEqual(results, ['r1', 'r2', 'r3', 'r4', 'r5']);
  assert.deepEqual(batches, [
    [1, 2, 3],
    [4, 5],
  ]);
});

test('while a batch is being written, new items wait and go together into the next one', async () => {
  const batches: number[][] = [];
  let release!: () => void;
  const first = new Promise<void>((resolve) => {
    release = resolve;
  });
  const gc = createGroupCommit<number, void>(
    async (items) => {
      batches.push(items);
      if (batches.length === 1) await first;
      return items.map(() => undefined);
    },
    { maxBatch: 100, maxInFlight: 1 },
  );
  const a = gc.submit(1);
  await new Promise((resolve) => setImmediate(resolve));
  const rest = [2, 3, 4].map((i) => gc.submit(i));
  await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(batches, [[1]], 'nothing else is written while the first batch is in flight');
  release();
  await Promise.all([a, ...rest]);
  assert.deepEqual(batches, [[1], [2, 3, 4]]);
  await gc.drain();
});

test('a failing batch is retried item by item: only the bad item fails', async () => {
  const written: number[] = [];
  const gc = createGroupCommit<number, number>(
    async (items) => {
      if (items.includes(13)) throw new Error(`bad batch ${items.join(',')}`);
      written.push(...items);
      return items.map((i) => i * 2);
    },
    { maxBatch: 10, maxInFlight: 1 },
  );
  const outcomes = await Promise.allSettled([11, 12, 13, 14].map((i) => gc.submit(i)));
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.deepEqual(
    outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message)),
    [22, 24, 'bad batch 13', 28],
  );
  assert.deepEqual(written.sort(), [11, 12, 14]);
});

test('up to maxInFlight batches are written at once', async () => {
  let active = 0;
  let peak = 0;
  const gc = createGroupCommit<number, void>(
    async (items) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
      return items.map(() => undefined);
    },
    { maxBatch: 2, maxInFlight: 3 },
  );
  await Promise.all(Array.from({ length: 20 }, (_, i) => gc.submit(i)));
  assert.equal(peak, 3);
});
