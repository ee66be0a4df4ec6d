export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, string>;
}

/**
 * Whether this instance should take traffic: its database answers and its schema is the one
 * this code expects. The webhook queue and the e-mail outbox are not asked: every instance shares
 * them, so their lag would take every instance out of service at once (a contact-form flood did)
 * while none of them could serve better by being left alone. Their health is a metric and an
 * alert (docs/operating.md, Metrics).
 */
export function createReadiness(deps: { ping: () => Promise<void>; pendingMigrations: () => Promise<string[]> }) {
  return {
    async check(): Promise<ReadinessReport> {
      try {
        await deps.ping();
      } catch {
        // Nothing else can be read without it.
        return { ready: false, checks: { database: 'not answering' } };
      }
      const pending = await deps.pendingMigrations();
      const checks = { database: 'ok', migrations: pending.length === 0 ? 'ok' : `pending: ${pending.join(', ')}` };
      return { ready: pending.length === 0, checks };
    },
  };
}
export type Readiness = ReturnType<typeof createReadiness>;
