// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '../../lib/ids.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import type { Target } from './delivery-targets.ts';
import { createDispatcher, type Sender } from './dispatcher.ts';
import { createMemoryQueues } from './queue/in-memory-queue.ts';
import type { DeliveryQueue } from './queue/delivery-queue.ts';
import type { EndpointRow } from './webhooks.repository.ts';

// The dispatcher's pipeline over the in-memory queue: no database, no network, a clock the test
// moves. What the real queues do is proved by test/modules/webhooks/delivery-queue.test.ts, against the same contract.

const OK: DeliveryResult = {
  ok: true,
  statusCode: 200,
  durationMs: 1,
  error: null,
  responseExcerpt: null,
  retryAfterMs: null,
  permanent: null,
};
const FAIL: DeliveryResult = {
  ok: false,
  statusCode: 500,
  durationMs: 1,
  error: 'HTTP 500',
  responseExcerpt: null,
  retryAfterMs: null,
  permanent: null,
};
const T0 = Date.parse('2026-03-02T08:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function endpoint(id: string): EndpointRow {
  return {
    id,
    company_id: 'cmp_test',
    kind: 'http',
    description: null,
    url: `http://127.0.0.1:9/${id}`,
    secret_sealed: null,
    secret_hint: null,
    chat_id: null,
    events: '[]',
    enabled: true,
    disabled_reason: null,
    failing_since: null,
    created_at: iso(T0),
    updated_at: iso(T0),
  };
}

/** A dispatcher over an in-memory queue; `respond` answers each send (a promise the test may hold). */
function setup(
  opts: {
    respond?: (endpointId: string, eventId: string) => DeliveryResult | Promise<DeliveryResult>;
    window?: DeliveryQueue['window'];
    retryDelaysMs?: number[];
    perEndpoint?: number;
  } = {},
) {
  const memory = createMemoryQueues();
  let now = T0;
  const clock = { now: () => new Date(now) };
  const endpoints = new Map<string, EndpointRow>();
  const sends: Array<{ endpointId: string; eventId: string }> = [];
  const sending = new Map<string, number>();
  const most = new Map<string, number>();
  let mostInFlight = 0;
  const sender: Sender = {
    async forEndpoint(_companyId, endpointId) {
      const row = endpoints.get(endpointId);
      return row?.enabled
        ? ({ endpoint: row, url: null, company: null, secret: null, key: undefined } satisfies Target)
        : null;
    },
    async send(target, eventId) {
      const id = target.endpoint.id;
      sends.push({ endpointId: id, eventId });
      sending.set(id, (sending.get(id) ?? 0) + 1);
      most.set(id, Math.max(most.get(id) ?? 0, sending.get(id)!));
      mostInFlight = Math.max(
        mostInFlight,
        [...sending.values()].reduce((a, b) => a + b, 0),
      );
      try {
        return await (opts.respond?.(id, eventId) ?? OK);
      } finally {
        sending.set(id, sending.get(id)! - 1);
      }
    },
    ping: async () => {
      throw new Error('not in these tests');
    },
  };
  // Every claim's `skip`, as the dispatcher asked for it (undefined: a plain claim).
  const inner = memory.queue('w', opts.window);
  const claims: Array<readonly string[] | undefined> = [];
  const queue: DeliveryQueue = {
    ...inner,
    claim: (limit, lease, skip) => (claims.push(skip), inner.claim(limit, lease, skip)),
  };
  const dispatcher = createDispatcher({
    queue,
    sender,
    clock,
    newId,
    logger: { info() {}, warn() {}, error() {} },
    options: {
      timeoutMs: 1_000,
      retryDelaysMs: opts.retryDelaysMs ?? [1_000],
      perEndpoint: opts.perEndpoint,
      random: () => 0.5,
    },
  });
  let n = 0;
  return {
    memory,
    dispatcher,
    sends,
    most,
    claims,
    get mostInFlight() {
      return mostInFlight;
    },
    advance(ms: number) {
      now += ms;
    },
    enqueue(endpointId: string, count: number, due = now) {
      if (!endpoints.has(endpointId)) endpoints.set(endpointId, endpoint(endpointId));
      for (let i = 0; i < count; i++) {
        const id = `whd_${String(n++).padStart(4, '0')}`;
        memory.enqueue({
          id,
          company_id: 'cmp_test',
          endpoint_id: endpointId,
          event_id: `evt_${id.slice(4)}`,
          due: iso(due),
        });
      }
    },
    status: (id: string) => memory.deliveries.get(id)!.status,
    sent: (endpointId: string) => sends.filter((x) => x.endpointId === endpointId).length,
    /** Deliveries leased to this dispatcher and not yet recorded: sending or waiting in its hands. */
    inHand: (endpointId?: string) =>
      [...memory.deliveries.values()].filter(
        (d) =>
          (endpointId === undefined || d.endpoint_id === endpointId) && d.status === 'pending' && d.locked_by === 'w',
      ).length,
  };
}

/** Promises the test resolves one by one: a receiver that answers when told. */
function gates() {
  const waiting: Array<() => void> = [];
  return {
    wait: () => new Promise<DeliveryResult>((resolve) => waiting.push(() => resolve(OK))),
    get waiting() {
      return waiting.length;
    },
    open(count = Infinity) {
      for (let i = 0; i < count && waiting.length > 0; i++) waiting.shift()!();
    },
  };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 1_000 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.ok(check(), 'condition not met');
};

test('due deliveries are sent earliest due first, recorded as delivered with their attempt log', async () => {
  const s = setup();
  s.enqueue('whe_a', 1, T0 - 1_000);
  s.enqueue('whe_a', 1, T0 - 3_000);
  s.enqueue('whe_b', 1, T0 - 2_000);
  s.enqueue('whe_b', 1, T0 + 1_000); // not yet due
  assert.equal(await s.dispatcher.runOnce(), false);
  assert.deepEqual(
    s.sends.map((x) => x.eventId),
    ['evt_0001', 'evt_0002', 'evt_0000'],
  );
  assert.deepEqual(['whd_0000', 'whd_0001', 'whd_0002', 'whd_0003'].map(s.status), [
    'delivered',
    'delivered',
    'delivered',
    'pending',
  ]);
  assert.deepEqual(s.memory.attempts.map((a) => [a.delivery_id, a.attempt, a.success, a.worker_id]).sort(), [
    ['whd_0000', 1, true, 'w'],
    ['whd_0001', 1, true, 'w'],
    ['whd_0002', 1, true, 'w'],
  ]);
});

test('the window: never more deliveries in hand than it allows, more claimed as slots free up, every one sent once', async () => {
  const g = gates();
  const s = setup({ respond: () => g.wait(), window: { inFlight: 4, claimAt: 2 } });
  for (let i = 0; i < 10; i++) s.enqueue(`whe_${i}`, 2);
  await s.dispatcher.start();
  await until(() => g.waiting === 4);
  g.open(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(s.sends.length, 4, 'one slot free is less than the claimAt of 2: no claim yet');
  g.open(1);
  await until(() => s.sends.length === 6);
  while (s.sends.length < 20 || g.waiting > 0) {
    g.open(1);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await s.dispatcher.stop();
  assert.equal(s.mostInFlight, 4);
  assert.equal(new Set(s.sends.map((x) => x.eventId)).size, 20);
  assert.ok([...s.memory.deliveries.values()].every((d) => d.status === 'delivered'));
});

test('a failed attempt is retried on schedule with the same event; after the last one it gives up and its admins are told', async () => {
  const s = setup({ respond: () => FAIL, retryDelaysMs: [1_000, 5_000] });
  s.enqueue('whe_a', 1);
  await s.dispatcher.runOnce();
  const d = s.memory.deliveries.get('whd_0000')!;
  assert.deepEqual([d.status, d.attempts, d.next_attempt_at, d.last_status_code], ['pending', 1, iso(T0 + 1_000), 500]);
  assert.deepEqual(
    s.memory.endpointWork.map((w) => w.kind),
    ['mark-failing'],
  );

  await s.dispatcher.runOnce();
  assert.equal(s.sends.length, 1, 'not before its time');
  s.advance(1_000);
  await s.dispatcher.runOnce();
  assert.deepEqual([d.status, d.attempts, d.next_attempt_at], ['pending', 2, iso(T0 + 6_000)]);
  s.advance(5_000);
  await s.dispatcher.runOnce();
  assert.deepEqual([d.status, d.attempts], ['failed', 3]);
  assert.deepEqual(
    s.sends.map((x) => x.eventId),
    ['evt_0000', 'evt_0000', 'evt_0000'],
  );
  assert.deepEqual(
    s.memory.attempts.map((a) => [a.attempt, a.status_code, a.success]),
    [
      [1, 500, false],
      [2, 500, false],
      [3, 500, false],
    ],
  );
  assert.deepEqual(
    s.memory.endpointWork.map((w) => w.kind),
    ['mark-failing', 'give-up'],
    'told once it gave up; the streak was already marked',
  );
  s.advance(60_000);
  await s.dispatcher.runOnce();
  assert.equal(s.sends.length, 3, 'a given-up delivery is not sent again');
});

test('a delivery leased to a worker that died is sent once its lease runs out, not before', async () => {
  const s = setup();
  s.enqueue('whe_a', 1);
  const crashed = s.memory.queue('crashed');
  assert.equal((await crashed.claim(10, { now: iso(T0), until: iso(T0 + 12_000) })).length, 1);
  await s.dispatcher.runOnce();
  assert.equal(s.sends.length, 0);
  s.advance(12_001);
  await s.dispatcher.runOnce();
  assert.equal(s.sends.length, 1);
  assert.equal(s.status('whd_0000'), 'delivered');
  assert.equal((await crashed.record([])).size, 0);
});

test("per endpoint at most `perEndpoint` sends at once; the others' deliveries flow meanwhile", async () => {
  const slow = gates();
  const s = setup({ respond: (endpointId) => (endpointId === 'whe_slow' ? slow.wait() : OK), perEndpoint: 2 });
  s.enqueue('whe_slow', 6);
  s.enqueue('whe_fast', 3);
  const pass = s.dispatcher.runOnce();
  await until(() => s.sends.filter((x) => x.endpointId === 'whe_fast').length === 3);
  assert.equal(slow.waiting, 2, 'two sends to the slow endpoint, four of its deliveries waiting');
  while (s.sends.length < 9 || slow.waiting > 0) {
    slow.open(1);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await pass;
  assert.equal(s.most.get('whe_slow'), 2);
  assert.deepEqual(
    s.sends.filter((x) => x.endpointId === 'whe_slow').map((x) => x.eventId),
    ['evt_0000', 'evt_0001', 'evt_0002', 'evt_0003', 'evt_0004', 'evt_0005'],
    'in order',
  );
  assert.ok([...s.memory.deliveries.values()].every((d) => d.status === 'delivered'));
});

test('a delivery waiting for its endpoint is let go once its lease could run out mid-send, and sent after the lease', async () => {
  const slow = gates();
  const s = setup({ respond: () => slow.wait(), perEndpoint: 1 });
  s.enqueue('whe_slow', 3);
  const pass = s.dispatcher.runOnce();
  await until(() => slow.waiting === 1);
  // timeout 1 s: a lease of 12 s, so a delivery must start within 10 s of its claim
  s.advance(10_001);
  slow.open();
  await pass;
  assert.equal(s.sends.length, 1, 'the two waiting ones were not started this late');
  assert.deepEqual(['whd_0000', 'whd_0001', 'whd_0002'].map(s.status), ['delivered', 'pending', 'pending']);
  assert.equal(s.memory.attempts.length, 1);

  await s.dispatcher.runOnce();
  assert.equal(s.sends.length, 1, 'still leased to this worker');
  s.advance(2_000);
  const again = s.dispatcher.runOnce();
  await until(() => slow.waiting === 1);
  slow.open();
  await until(() => slow.waiting === 1);
  slow.open();
  await again;
  assert.deepEqual(['whd_0000', 'whd_0001', 'whd_0002'].map(s.status), ['delivered', 'delivered', 'delivered']);
});

test("one slow endpoint with a backlog of 1,000 does not take the window: another endpoint's 50 due behind it are all sent while the slow one is stuck", async () => {
  const slow = gates();
  const s = setup({ respond: (endpointId) => (endpointId === 'whe_slow' ? slow.wait() : OK) });
  s.enqueue('whe_slow', 1_000);
  s.enqueue('whe_fast', 50); // due behind the whole backlog
  await s.dispatcher.start();
  await until(() => s.sent('whe_fast') === 50);
  assert.equal(s.sent('whe_slow'), 16, 'the slow endpoint is still stuck on its first 16 sends');
  assert.equal(slow.waiting, 16);
  assert.equal(s.inHand('whe_slow'), 128, 'its backlog fills the window of 128 (16 sending, 112 waiting)');
  assert.deepEqual(
    s.claims.slice(0, 2),
    [undefined, ['whe_slow']],
    'a plain claim, then one looking past the saturated endpoint',
  );

  // Later events of the fast endpoint (a commit wakes the dispatcher) while the slow one still hangs.
  s.enqueue('whe_fast', 50);
  await until(() => s.sent('whe_fast') === 100);
  assert.equal(s.sent('whe_slow'), 16);
  assert.ok(s.inHand() <= 2 * 128, 'a look-past never takes more than twice the window in hand');

  while (s.sent('whe_slow') < 1_000 || slow.waiting > 0) {
    slow.open();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await s.dispatcher.stop();
  assert.equal(s.most.get('whe_slow'), 16, 'never more than 16 sends at once to one endpoint');
  assert.equal(new Set(s.sends.map((x) => x.eventId)).size, 1_100, 'each delivery sent once');
  assert.ok([...s.memory.deliveries.values()].every((d) => d.status === 'delivered'));
});

test('a fast endpoint with a backlog that keeps the window full keeps its plain claims: at most one empty look-past per wake-up', async () => {
  const s = setup();
  s.enqueue('whe_a', 2_000);
  await s.dispatcher.start();
  await until(() => s.sent('whe_a') === 2_000);
  await s.dispatcher.stop();
  const lookPasts = s.claims.filter((skip) => skip !== undefined);
  assert.ok(lookPasts.length <= 1, `${lookPasts.length} look-past claims`);
  assert.ok(s.claims.length <= 2_000 / 64 + 3, `${s.claims.length} claims for 2,000 deliveries: about one per 64`);
  assert.ok([...s.memory.deliveries.values()].every((d) => d.status === 'delivered'));
});

test('a fast endpoint with a backlog of its own behind the stuck one is sent in full: passed over once saturated, looked at again once it has room', async () => {
  const slow = gates();
  const s = setup({ respond: (endpointId) => (endpointId === 'whe_slow' ? slow.wait() : OK) });
  s.enqueue('whe_slow', 1_000);
  s.enqueue('whe_fast', 600);
  await s.dispatcher.start();
  await until(() => s.sent('whe_fast') === 600);
  assert.equal(s.sent('whe_slow'), 16);
  slow.open();
  while (s.sent('whe_slow') < 1_000 || slow.waiting > 0) {
    slow.open();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await s.dispatcher.stop();
  assert.equal(new Set(s.sends.map((x) => x.eventId)).size, 1_600, 'each delivery sent once');
});
