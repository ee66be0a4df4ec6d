import type { Clock } from '../../lib/clock.ts';
import type { OperationsRepository } from './operations.repository.ts';

export interface ReadinessBounds {
  /** Oldest due webhook delivery, seconds; 0 turns the check off. */
  maxQueueLagSeconds: number;
  /** Oldest due e-mail, seconds; 0 turns the check off. */
  maxOutboxAgeSeconds: number;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
}

/**
 * Whether this instance should take traffic: the database answers, its schema is the one this
 * code expects, and the senders keep up. Each check is reported, so a probe's answer says which
 * one failed.
 */
export function createReadiness(deps: {
  ping: () => Promise<void>;
  pendingMigrations: () => Promise<string[]>;
  operations: OperationsRepository;
  clock: Clock;
  bounds: ReadinessBounds;
}) {
  return {
    async check(): Promise<ReadinessReport> {
      const checks: Record<string, string> = {};
      try {
        await deps.ping();
        checks.database = 'ok';
      } catch {
        // Nothing else can be read without it.
        return { ready: false, checks: { database: 'not answering' } };
      }
      const pending = await deps.pendingMigrations();
      checks.migrations = pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}`;
      const now = deps.clock.now().toISOString();
      const { maxQueueLagSeconds, maxOutboxAgeSeconds } = deps.bounds;
      if (maxQueueLagSeconds > 0) {
        const lag = Math.max(0, ...(await deps.operations.webhookQueue(now)).map((e) => e.lagSeconds));
        checks.webhookQueue =
          lag <= maxQueueLagSeconds ? 'ok' : `${Math.round(lag)} s behind (limit ${maxQueueLagSeconds} s)`;
      }
      if (maxOutboxAgeSeconds > 0) {
        const { ageSeconds } = await deps.operations.emailOutbox(now);
        checks.emailOutbox =
          ageSeconds <= maxOutboxAgeSeconds
            ? 'ok'
            : `${Math.round(ageSeconds)} s behind (limit ${maxOutboxAgeSeconds} s)`;
      }
      return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
    },
  };
}
export type Readiness = ReturnType<typeof createReadiness>;
