import type { Clock } from '../../lib/clock.ts';
import type { DeliveryResult } from './channels/delivery-result.ts';
import { ENDPOINT_GONE, SEND_THREW } from './attempt-outcome.ts';
import type { Target } from './delivery-targets.ts';
import type { EndpointSlots, Held } from './endpoint-slots.ts';
import type { OutcomeRecorder } from './outcome-recorder.ts';
import type { AttemptOutcome, ClaimedDelivery } from './queue/delivery-queue.ts';

/** Where deliveries go: endpoints resolved into targets, and one send over a target's channel. */
export interface Sender {
  forEndpoint(companyId: string, endpointId: string): Promise<Target | null>;
  send(target: Target, eventId: string, payload: string, timestampSeconds: number): Promise<DeliveryResult>;
  /** A `ping` sent now, outside the queue, answered inline. */
  ping(companyId: string, endpointId: string): Promise<DeliveryResult & { eventId: string }>;
}

/** When an attempt started: the ISO time for its log line and the seconds it is signed with. */
interface Stamp {
  iso: string;
  seconds: number;
}
const stampOf = (now: Date): Stamp => ({ iso: now.toISOString(), seconds: Math.floor(now.getTime() / 1000) });

/**
 * Claimed batches taken in hand and sent: each endpoint resolved into its target once per claim,
 * sends started as the endpoints' slots allow, each result handed on as an attempt's outcome.
 */
export function createDeliverySends(deps: {
  sender: Pick<Sender, 'forEndpoint' | 'send'>;
  clock: Clock;
  logger: { error(obj: object, msg: string): void };
  slots: EndpointSlots;
  outcomes: Pick<OutcomeRecorder, 'add'>;
  /** An attempt finished, its outcome waiting and its endpoint's next deliveries started. */
  onFinished(outcome: AttemptOutcome): void;
}) {
  const { sender, clock, logger, slots } = deps;

  function start(h: Held, stamp: Stamp): void {
    const { delivery, target } = h;
    const sent: Promise<DeliveryResult> = target
      ? sender.send(target, delivery.event_id, delivery.payload, stamp.seconds).catch((error: unknown) => {
          // The channels report network trouble as results; a throw here is our own bug.
          logger.error({ err: error, deliveryId: delivery.id }, 'webhook send failed unexpectedly');
          return SEND_THREW;
        })
      : Promise.resolve(ENDPOINT_GONE);
    void sent.then((result) => {
      const outcome = deps.outcomes.add(h, stamp.iso, result);
      slots.finish(h, startWaiting);
      deps.onFinished(outcome);
    });
  }

  function startWaiting(h: Held, now: Date): void {
    start(h, stampOf(now));
  }

  return {
    /** Takes a claimed batch in hand. Each endpoint is read once per claim: a disabled or edited endpoint takes effect at the next claim. */
    async hold(batch: readonly ClaimedDelivery[], claimedAt: number): Promise<void> {
      const targets = new Map<string, Target | null>();
      for (const d of batch) {
        if (!targets.has(d.endpoint_id))
          targets.set(d.endpoint_id, await sender.forEndpoint(d.company_id, d.endpoint_id));
      }
      // The clock once per claim rather than per delivery: those that start now all start now.
      const stamp = stampOf(clock.now());
      for (const delivery of batch) {
        const h = slots.take(delivery, targets.get(delivery.endpoint_id) ?? null, claimedAt);
        if (h) start(h, stamp);
      }
    },
  };
}
