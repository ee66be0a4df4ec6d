/**
 * Commit-to-receipt latency of the delivery engine, in its own process (spawned by
 * bench/webhooks.bench.ts with an IPC channel). It is `serve`'s worker half without HTTP: the
 * real container with its dispatcher started (`startWorkers()`), and quote.created events
 * written through the outbox (`enqueueEvent` in a transaction, as the quotation service does)
 * at a steady open-loop rate, each followed by the same `wake()` the service's onEventQueued
 * gives. The commit time of each event is taken right after its transaction resolves
 * (performance.timeOrigin + performance.now(), the wall clock the receiver also reads).
 *
 * In: { env, companyId, locationId, data, rate, seconds }. Out: { commits: [eventId, committedAt][], failed }.
 */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { enqueueEvent } from '../../src/modules/webhooks/outbox.ts';

interface Job { env: Record<string, string>; companyId: string; locationId: string; data: Record<string, unknown>; rate: number; seconds: number; warmup: number }

const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const c = await createContainer(loadConfig({ ...job.env, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }), { migrate: false });
await c.startWorkers();

const wall = () => performance.timeOrigin + performance.now();
let seq = 0;
async function one(): Promise<[string, number]> {
  const now = new Date().toISOString();
  const n = ++seq;
  const id = await c.store.transaction((repos) => enqueueEvent(repos, {
    companyId: job.companyId, locationId: job.locationId, type: 'quote.created',
    data: { ...job.data, quotationId: c.newId('quotation'), number: `Q-ZG1-2026-${String(90000 + n).slice(-5)}` },
  }, { now, newId: c.newId }));
  const committedAt = wall();
  c.dispatcher.wake();
  return [id, committedAt];
}

async function steady(rate: number, seconds: number): Promise<{ commits: Array<[string, number]>; failed: number }> {
  const total = Math.round(rate * seconds);
  const commits: Array<[string, number]> = [];
  const inflight = new Set<Promise<void>>();
  let failed = 0;
  let sent = 0;
  const started = performance.now();
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (sent < due) {
      sent++;
      const p = one().then((r) => { commits.push(r); }, () => { failed++; });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inflight);
  return { commits, failed };
}

await steady(Math.min(job.rate, 100), job.warmup); // JIT and connections, reported apart
process.send!({ warmedUp: true });
await new Promise<void>((resolve) => process.once('message', () => resolve()));
const result = await steady(job.rate, job.seconds);
process.send!(result);
await new Promise<void>((resolve) => process.once('message', () => resolve()));
await c.close();
process.exit(0);
