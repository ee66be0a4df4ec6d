import type {
  AttemptRow,
  ClaimedDelivery,
  DeliveryQueue,
  DeliveryRow,
  EndpointWork,
  QueueWatch,
} from './delivery-queue.ts';

export interface MemoryDelivery extends DeliveryRow {
  event_type: string;
  payload: string;
}

/**
 * The queue's contract held in memory, for the dispatcher's tests: deliveries and their attempt
 * log in maps, any number of workers sharing them (`queue(worker)`), endpoint work collected in
 * `endpointWork`. It keeps what the database queues keep (leases, the lease guard on recording,
 * earliest due first, endpoints passed over) and none of their tricks.
 */
export function createMemoryQueues() {
  const deliveries = new Map<string, MemoryDelivery>();
  const attempts: AttemptRow[] = [];
  const endpointWork: EndpointWork[] = [];
  const watchers = new Set<() => void>();
  let order = 0;
  const added = new Map<string, number>();

  return {
    deliveries,
    attempts,
    endpointWork,

    /** A pending delivery, due at `due` (an outbox commit, as far as the dispatcher can tell). */
    enqueue(d: {
      id: string;
      company_id: string;
      endpoint_id: string;
      event_id?: string;
      event_type?: string;
      payload?: string;
      due: string;
    }): void {
      deliveries.set(d.id, {
        id: d.id,
        company_id: d.company_id,
        event_id: d.event_id ?? `evt_${d.id}`,
        endpoint_id: d.endpoint_id,
        status: 'pending',
        attempts: 0,
        next_attempt_at: d.due,
        locked_until: null,
        locked_by: null,
        last_status_code: null,
        last_error: null,
        delivered_at: null,
        created_at: d.due,
        event_type: d.event_type ?? 'quote.created',
        payload: d.payload ?? JSON.stringify({ id: d.event_id ?? `evt_${d.id}` }),
      });
      added.set(d.id, order++);
      for (const wake of watchers) wake();
    },

    queue(worker: string, window: DeliveryQueue['window'] = { inFlight: 128, claimAt: 64 }): DeliveryQueue {
      return {
        worker,
        window,
        async claim(limit, lease, skip): Promise<ClaimedDelivery[]> {
          const passed = new Set(skip);
          const due = [...deliveries.values()]
            .filter(
              (d) =>
                d.status === 'pending' &&
                d.next_attempt_at <= lease.now &&
                (d.locked_until === null || d.locked_until < lease.now) &&
                !passed.has(d.endpoint_id),
            )
            .sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || added.get(a.id)! - added.get(b.id)!)
            .slice(0, limit);
          return due.map((d) => {
            d.locked_until = lease.until;
            d.locked_by = worker;
            return {
              id: d.id,
              company_id: d.company_id,
              event_id: d.event_id,
              endpoint_id: d.endpoint_id,
              attempts: d.attempts,
              next_attempt_at: d.next_attempt_at,
              event_type: d.event_type,
              payload: d.payload,
            };
          });
        },
        async record(finished, consequences): Promise<ReadonlySet<string>> {
          const recorded = new Set(
            finished.filter((f) => deliveries.get(f.deliveryId)?.locked_by === worker).map((f) => f.deliveryId),
          );
          // Computed before anything changes: if it throws, nothing is recorded, as in a rolled back transaction.
          const work = consequences?.(recorded) ?? [];
          for (const f of finished) {
            if (!recorded.has(f.deliveryId)) continue;
            Object.assign(deliveries.get(f.deliveryId)!, f.patch, { locked_until: null, locked_by: null });
            attempts.push(f.attempt);
          }
          for (const w of work) {
            if (w.kind !== 'disable') continue;
            for (const d of deliveries.values()) {
              if (d.endpoint_id === w.endpoint.id && d.status === 'pending')
                Object.assign(d, { status: 'cancelled', locked_until: null, locked_by: null });
            }
          }
          endpointWork.push(...work);
          return recorded;
        },
        recordBatch: (waiting) => waiting,
        async watch(onWake): Promise<QueueWatch> {
          const wake = () => onWake();
          watchers.add(wake);
          return { stop: async () => void watchers.delete(wake) };
        },
      };
    },
  };
}
export type MemoryQueues = ReturnType<typeof createMemoryQueues>;
