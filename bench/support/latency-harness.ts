/**
 * The producer half of the engine-latency measurement, in its own process (spawned by
 * bench/webhooks.bench.ts with an IPC channel): quote.created events committed through the
 * outbox (`enqueueEvent`, as the quotation service does) at a steady open-loop rate. The events
 * due in the same turn of the event loop share one transaction (src/lib/group-commit.ts, as the
 * contact form's write path does): one process cannot commit thousands of single-event SQLite
 * transactions a second (about 5.6k/s alone, at a full core). The dispatcher is not started
 * here: a `portico worker` process (the supported split deployment) delivers them, woken by
 * NOTIFY on PostgreSQL and by its data_version poll on SQLite. The commit time of each event is
 * taken right after its transaction resolves (performance.timeOrigin + performance.now(), the
 * wall clock the receiver also reads).
 *
 * In: { env, companyId, locationId, data, rate, seconds, warmup }, then 'go', then 'close'.
 * Out: { warmedUp: <events committed> }, then { commits: [eventId, committedAt][], failed, achievedRate }.
 */
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import { enqueueEvent, type EventData } from '../../src/modules/webhooks/index.ts';
import { createGroupCommit } from '../../src/lib/group-commit.ts';

interface Job {
  env: Record<string, string>;
  companyId: string;
  locationId: string;
  data: EventData<'quote.created'>;
  rate: number;
  seconds: number;
  warmup: number;
}

const job = await new Promise<Job>((resolve) => process.once('message', (m) => resolve(m as Job)));
const c = await createContainer(
  loadConfig({ ...job.env, LOG_LEVEL: 'warn', WORKER: 'off', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }),
  { migrate: false },
);

const wall = () => performance.timeOrigin + performance.now();
const commits = createGroupCommit<number, string>(
  (ns) =>
    c.store.transaction(async (repos) => {
      const ids: string[] = [];
      for (const n of ns) {
        ids.push(
          // quote.created is kept whether or not an endpoint wants it.
          (await enqueueEvent(
            repos,
            {
              companyId: job.companyId,
              locationId: job.locationId,
              type: 'quote.created',
              data: {
                ...job.data,
                quotationId: c.newId('quotation'),
                number: `Q-ZG1-2026-${String(90000 + n).slice(-5)}`,
              },
            },
            { now: new Date().toISOString(), newId: c.newId },
          ))!,
        );
      }
      return ids;
    }),
  { maxBatch: 64, maxInFlight: c.store.writeConcurrency },
); // SQLite has one writer; PostgreSQL overlaps round trips
let seq = 0;
async function one(): Promise<[string, number]> {
  const id = await commits.submit(++seq);
  return [id, wall()];
}

async function steady(
  rate: number,
  seconds: number,
): Promise<{ commits: Array<[string, number]>; failed: number; achievedRate: number }> {
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
      const p = one().then(
        (r) => {
          commits.push(r);
        },
        () => {
          failed++;
        },
      );
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.all(inflight);
  return { commits, failed, achievedRate: Math.round((total / ((performance.now() - started) / 1000)) * 10) / 10 };
}

// The same rate for the warm-up: JIT, connections, and the worker's step from idle to full rate
// (its claims grow from a few events to dozens), reported apart.
const warm = await steady(job.rate, job.warmup);
process.send!({ warmedUp: warm.commits.length });
await new Promise<void>((resolve) => process.once('message', () => resolve()));
const result = await steady(job.rate, job.seconds);
process.send!(result);
await new Promise<void>((resolve) => process.once('message', () => resolve()));
await c.close();
process.exit(0);
