import type { Clock } from '../../lib/clock.ts';
import { createPoller, type Poller } from '../../lib/poller.ts';
import type { Store } from '../../db/store.ts';
import type { FiscalSender } from './fiscal-sender.ts';
import type { FiscalRepository } from './fiscal.repository.ts';

const BATCH = 10;
// One send waits at most 10 s (CIS answers within 2 s when well); a batch ends within its lease.
const SEND_TIMEOUT_MS = 10_000;
const LEASE_MS = 5 * 60_000;

export interface FiscalWorkerLogger {
  error(obj: object, msg: string): void;
}

/**
 * Sends the receipts the bounded send after issue did not settle, NakDost=true, with backoff,
 * until each has its JIR or CIS refuses it. Runs where the webhook dispatcher runs; a Poller
 * like the e-mail sender: woken when work may be there, and every `idleMs` anyway.
 */
export function createFiscalWorker(deps: {
  store: Store<{ fiscal: Pick<FiscalRepository, 'claim'> }>;
  clock: Clock;
  send: FiscalSender;
  logger: FiscalWorkerLogger;
  idleMs?: number;
}): Poller {
  const { store, clock } = deps;

  async function tick(): Promise<boolean> {
    const now = clock.now();
    const lease = new Date(now.getTime() + LEASE_MS).toISOString();
    const batch = await store.repos.fiscal.claim(now.toISOString(), lease, BATCH);
    for (const row of batch) await deps.send(row, lease, SEND_TIMEOUT_MS);
    return batch.length === BATCH;
  }

  return createPoller({
    tick,
    idleMs: deps.idleMs ?? 1_000,
    onError: (error) => deps.logger.error({ err: error }, 'fiscal worker tick failed'),
  });
}
