// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, listAllInquiries, reachOut, validReachOut } from '../../support/http-helpers.ts';
import { requestFingerprint } from '../../../src/modules/idempotency/index.ts';

const REACH_OUT = '/api/v1/public/reach-out';

describe('Idempotency-Key', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  const notificationCount = async (companyId: string) =>
    (await t.c.database.db.selectFrom('notifications').select('id').where('company_id', '=', companyId).execute())
      .length;

  test('same key and body: the first result again, marked replayed, created once; another body: 422', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const idem = { 'idempotency-key': randomUUID() };
    const body = validReachOut({ subject: 'Only once, please' });

    const first = await reachOut(t.app, key, body, idem);
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const again = await reachOut(t.app, key, body, idem);
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json(), first.json(), 'the same id, createdAt and fields');
    const inquiries = await listAllInquiries(t.app, demo.adminToken);
    assert.deepEqual(
      inquiries.map((i) => i.id),
      [first.json().data.id],
      'exactly one inquiry exists',
    );
    assert.equal(await notificationCount(demo.companyId), 2, 'admin and support were notified once each');

    for (const other of [validReachOut({ subject: 'Something else' }), { ...body, name: 'Added later' }]) {
      assertProblem(await reachOut(t.app, key, other, idem), 422, 'idempotency_key_reused');
    }
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 1);

    const fresh = await reachOut(t.app, key, body, { 'idempotency-key': randomUUID() });
    assert.equal(fresh.statusCode, 201);
    assert.notEqual(fresh.json().data.id, first.json().data.id, 'a new key creates a new inquiry');
    const none = await reachOut(t.app, key, body);
    assert.notEqual(none.json().data.id, first.json().data.id, 'no key: no deduplication');
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 3);
  });

  test('while the first request holds the key, another gets 409; once released the key works', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const idemKey = `order-${randomUUID()}`;
    const body = validReachOut({ subject: 'In flight' });

    // The route fingerprints method, route and calling key id (`ptc_<id>_<secret>`) with the body.
    const keyId = key.split('_').slice(1, 3).join('_');
    const claimed = await t.c.idempotency.begin(
      demo.companyId,
      idemKey,
      requestFingerprint('POST', `${REACH_OUT} ${keyId}`, body),
    );
    assert.equal(claimed.kind, 'new');
    const busy = await reachOut(t.app, key, body, { 'idempotency-key': idemKey });
    assertProblem(busy, 409, 'idempotency_key_in_use');
    assertProblem(
      await reachOut(t.app, key, validReachOut({ subject: 'Other body' }), { 'idempotency-key': idemKey }),
      422,
      'idempotency_key_reused',
    );
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 0, 'nothing was created');

    await t.c.idempotency.release(demo.companyId, idemKey, claimed.kind === 'new' ? claimed.claim : '');
    const done = await reachOut(t.app, key, body, { 'idempotency-key': idemKey });
    assert.equal(done.statusCode, 201, done.body);
    const replay = await reachOut(t.app, key, body, { 'idempotency-key': idemKey });
    assert.equal(replay.json().data.id, done.json().data.id);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
  });

  test('a burst of identical requests with one key creates exactly one inquiry', async () => {
    const demo = await createTenant(t.c);
    const idem = { 'idempotency-key': randomUUID() };
    const body = validReachOut({ subject: 'Double click' });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => reachOut(t.app, demo.locations[0]!.apiKey, body, idem)),
    );
    const created = answers.filter((r) => r.statusCode === 201);
    for (const r of answers.filter((a) => a.statusCode !== 201)) assertProblem(r, 409, 'idempotency_key_in_use');
    assert.ok(created.length >= 1, `statuses: ${answers.map((r) => r.statusCode)}`);
    assert.equal(new Set(created.map((r) => r.json().data.id)).size, 1, 'every 201 names the same inquiry');
    assert.equal(
      created.filter((r) => r.headers['idempotent-replayed'] === undefined).length,
      1,
      'one original, the rest replays',
    );
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 1);
    assert.equal(await notificationCount(demo.companyId), 2);
  });

  test('keys are per company: the same key in A and B creates one inquiry in each', async () => {
    const a = await createTenant(t.c);
    const b = await createTenant(t.c);
    const idem = { 'idempotency-key': 'shared-key-1' };
    const body = validReachOut();
    const inA = await reachOut(t.app, a.locations[0]!.apiKey, body, idem);
    const inB = await reachOut(t.app, b.locations[0]!.apiKey, body, idem);
    assert.equal(inA.statusCode, 201);
    assert.equal(inB.statusCode, 201, inB.body);
    assert.equal(inB.headers['idempotent-replayed'], undefined);
    assert.notEqual(inA.json().data.id, inB.json().data.id);
    assert.deepEqual(
      (await listAllInquiries(t.app, a.adminToken)).map((i) => i.id),
      [inA.json().data.id],
    );
    assert.deepEqual(
      (await listAllInquiries(t.app, b.adminToken)).map((i) => i.id),
      [inB.json().data.id],
    );
    // Keys are the company's, but a replay must come from the same API key: another location
    // reusing the key is refused rather than handed the first location's inquiry.
    assertProblem(await reachOut(t.app, b.locations[1]!.apiKey, body, idem), 422, 'idempotency_key_reused');
  });

  test('a request that fails does not burn its key: validation 400, and a failed create', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const idem = { 'idempotency-key': randomUUID() };

    assertProblem(await reachOut(t.app, key, validReachOut({ email: 'not-an-email' }), idem), 400, 'validation_failed');
    const fixed = await reachOut(t.app, key, validReachOut(), idem);
    assert.equal(fixed.statusCode, 201, fixed.body);
    assert.equal(fixed.headers['idempotent-replayed'], undefined);

    // The quote body is valid JSON Schema-wise but names an unknown product: the service refuses it.
    const product = demo.products[0]!;
    const quoteKey = { 'idempotency-key': randomUUID() };
    const quote = (productId: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: { ...bearer(key), ...quoteKey },
        payload: {
          format: 'json',
          customer: { name: 'X' },
          lines: [{ productId, unitId: product.units[0]!.id, quantity: 1 }],
        },
      });
    const refused = await quote('prd_doesnotexist000000');
    assert.ok(refused.statusCode === 400 || refused.statusCode === 404, `unknown product: ${refused.statusCode}`);
    assertProblem(refused, refused.statusCode);
    const created = await quote(product.id);
    assert.equal(created.statusCode, 201, created.body);
    const replayed = await quote(product.id);
    assert.equal(replayed.statusCode, 201);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.json().data.id, created.json().data.id);
    assert.equal(replayed.json().data.number, created.json().data.number);
  });

  test('an unusable Idempotency-Key is a 400 naming the header', async () => {
    const demo = await createTenant(t.c);
    for (const bad of ['x'.repeat(256), 'has space', 'ključ']) {
      const res = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut(), { 'idempotency-key': bad });
      assert.ok(assertProblem(res, 400, 'validation_failed').details['Idempotency-Key'], bad);
    }
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 0);
  });
});

test('keys older than 24 hours are purged and may then be used again', async () => {
  let now = Date.parse('2026-05-04T10:00:00.000Z');
  const app = await createTestApp({}, { clock: { now: () => new Date(now) } });
  try {
    const demo = await createTenant(app.c);
    const fingerprint = requestFingerprint('POST', '/api/v1/public/reach-out', { a: 1 });
    assert.equal((await app.c.idempotency.begin(demo.companyId, 'old-key', fingerprint)).kind, 'new');
    now += 23 * 3_600_000;
    await app.c.idempotency.purgeExpired();
    await assert.rejects(app.c.idempotency.begin(demo.companyId, 'old-key', requestFingerprint('POST', '/x', {})), {
      code: 'idempotency_key_reused',
    });
    now += 2 * 3_600_000;
    await app.c.idempotency.purgeExpired();
    const rows = await app.c.database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('company_id', '=', demo.companyId)
      .execute();
    assert.deepEqual(rows, []);
    assert.equal(
      (await app.c.idempotency.begin(demo.companyId, 'old-key', requestFingerprint('POST', '/x', {}))).kind,
      'new',
    );
  } finally {
    await app.close();
  }
});

test("a request whose lease ran out and was taken over can neither complete nor release the key; the taker's result stands", async () => {
  let now = Date.parse('2026-05-04T10:00:00.000Z');
  const app = await createTestApp({}, { clock: { now: () => new Date(now) } });
  try {
    const demo = await createTenant(app.c);
    const caller = {
      companyId: demo.companyId,
      locationId: demo.locations[0]!.id,
      apiKeyId: demo.locations[0]!.apiKey.split('_').slice(1, 3).join('_'),
    };
    const fingerprint = requestFingerprint('POST', '/api/v1/public/reach-out', { a: 1 });
    const slow = await app.c.idempotency.begin(demo.companyId, 'slow-key', fingerprint);
    assert.equal(slow.kind, 'new');
    now += 61_000; // the slow request's lease runs out; a retry takes the key over
    const retry = await app.c.idempotency.begin(demo.companyId, 'slow-key', fingerprint);
    assert.equal(retry.kind, 'new');
    if (slow.kind !== 'new' || retry.kind !== 'new') return;
    assert.notEqual(retry.claim, slow.claim);

    // The slow request finally commits: its completion is refused and its inquiry rolled back.
    await assert.rejects(
      app.c.idempotency.createUnderKey(demo.companyId, 'slow-key', slow.claim, () =>
        app.c.inquiries.create(caller, validReachOut({ subject: 'Slow' })),
      ),
      { code: 'idempotency_key_in_use' },
    );
    await app.c.idempotency.release(demo.companyId, 'slow-key', slow.claim); // must not free the retry's claim
    const made = await app.c.idempotency.createUnderKey(demo.companyId, 'slow-key', retry.claim, () =>
      app.c.inquiries.create(caller, validReachOut({ subject: 'Retry' })),
    );
    const again = await app.c.idempotency.begin(demo.companyId, 'slow-key', fingerprint);
    assert.deepEqual(again, { kind: 'replay', resourceId: made.id, status: 201 });
    const subjects = await app.c.database.db
      .selectFrom('inquiries')
      .select('subject')
      .where('company_id', '=', demo.companyId)
      .execute();
    assert.deepEqual(
      subjects.map((r) => r.subject),
      ['Retry'],
      'one inquiry for one key',
    );
  } finally {
    await app.close();
  }
});
