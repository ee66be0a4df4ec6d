// test-engines: both
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTenant, createTestApp, onPostgres, type TestApp } from '../../support/test-app.ts';
import { line, postQuote, problemOf, seq, yearInZagreb } from '../../support/quote-helpers.ts';

describe('numbering', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test(`concurrent quotes get distinct, consecutive numbers; a failed one consumes none (${onPostgres() ? 'PostgreSQL pool' : 'SQLite'})`, async () => {
    const d = await createTenant(t.c);
    const [zg, st] = [d.locations[0]!, d.locations[1]!];
    const year = yearInZagreb();
    const body = (i: number) => ({
      format: 'json',
      customer: { name: `Kupac ${i}` },
      lines: [line(d, i % 7, 1 + (i % 3))],
    });
    // 25 good ZG1 quotes, one bad one in the middle, and 5 ST1 quotes racing on another series.
    const requests = [
      ...Array.from({ length: 12 }, (_, i) => postQuote(t.app, zg.apiKey, body(i))),
      postQuote(t.app, zg.apiKey, {
        format: 'json',
        customer: { name: 'Bad' },
        lines: [line(d, 0, 1), { ...line(d, 1, 1), productId: 'prd_missing0000000000' }],
      }),
      ...Array.from({ length: 13 }, (_, i) => postQuote(t.app, zg.apiKey, body(12 + i))),
      ...Array.from({ length: 5 }, (_, i) => postQuote(t.app, st.apiKey, body(100 + i))),
    ];
    const responses = await Promise.all(requests);

    const bad = responses[12]!;
    assert.equal(bad.statusCode, 400, bad.body);
    assert.deepEqual(Object.keys(problemOf(bad).details), ['lines[1].productId']);
    const good = responses.filter((_, i) => i !== 12);
    for (const res of good) assert.equal(res.statusCode, 201, res.body);

    const numbersAt = (code: string) =>
      good.map((r) => r.json().data.number as string).filter((n) => n.startsWith(`Q-${code}-`));
    const zgNumbers = numbersAt('ZG1');
    assert.equal(new Set(zgNumbers).size, 25, 'no duplicates');
    assert.deepEqual(
      [...zgNumbers].sort(),
      Array.from({ length: 25 }, (_, i) => `Q-ZG1-${year}-${seq(i + 1)}`),
      '00001..00025 with no gap',
    );
    assert.deepEqual(
      [...numbersAt('ST1')].sort(),
      Array.from({ length: 5 }, (_, i) => `Q-ST1-${year}-${seq(i + 1)}`),
    );
    // Header and body agree, and every id is distinct.
    for (const res of good) assert.equal(res.headers['x-quotation-number'], res.json().data.number);
    assert.equal(new Set(good.map((r) => r.json().data.id)).size, 30);

    const stored = await t.c.quotations.list(d.companyId, { limit: 100 });
    assert.equal(stored.length, 30, 'the failed quote stored nothing');
    const next = await postQuote(t.app, zg.apiKey, body(50));
    assert.equal(next.json().data.number, `Q-ZG1-${year}-${seq(26)}`);
  });

  test('a transaction that fails after taking a number gives it back', async () => {
    const d = await createTenant(t.c);
    const location = d.locations[0]!;
    const key = (await t.c.apiKeys.listApiKeys(d.companyId)).find((k) => k.locationId === location.id)!;
    const caller = { companyId: d.companyId, locationId: location.id, apiKeyId: key.id };
    const input = {
      includeDatasheets: false,
      customer: { name: 'Ana' },
      lines: [{ productId: d.products[0]!.id, unitId: d.products[0]!.units[0]!.id, quantity: 1 }],
    };
    const year = yearInZagreb();

    const first = await t.c.quotations.create(caller, input);
    assert.equal(first.number, `Q-ZG1-${year}-${seq(1)}`);
    // The failure comes inside the creating transaction, after the number was drawn and rows were written.
    const failing = (message: string) =>
      t.c.store.withCommitHook(
        async () => {
          throw new Error(message);
        },
        () => t.c.quotations.create(caller, input),
      );
    await assert.rejects(failing('boom before commit'), /boom before commit/);
    // Concurrently with each other, on PostgreSQL each in its own pooled connection.
    const [a, b] = await Promise.all([
      t.c.quotations.create(caller, input),
      failing('boom again').catch((e: Error) => e),
    ]);
    assert.ok(b instanceof Error);
    assert.equal((a as { number: string }).number, `Q-ZG1-${year}-${seq(2)}`, 'rolled-back numbers are reused: no gap');
    assert.equal((await t.c.quotations.list(d.companyId, { limit: 10 })).length, 2);
  });
});
