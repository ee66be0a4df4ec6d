import type { IdGenerator } from '../../lib/ids.ts';
import { EVENTS, serializeBody, type EventData, type EventName } from './event-catalog.ts';
import type { DeliveryRow, EventRow, WebhooksRepository } from './webhooks.repository.ts';

/** An event to announce; its `data` is typed by the event's schema in the catalog. */
export type OutboxEvent = {
  [E in EventName]: {
    companyId: string;
    /** Null for an event about the company as a whole (a received invoice): its catalog entry says so. */
    locationId: string | null;
    type: E;
    data: EventData<E>;
    /** False for an event about test data; absent: live. */
    livemode?: boolean;
  };
}[EventName];

/**
 * The part of the webhooks repository that announces an event: what a service that creates
 * something needs of this module to write its outbox row in its own unit of work.
 */
export type EventOutbox = Pick<
  WebhooksRepository,
  'insertEvent' | 'listSubscriptions' | 'insertDeliveries' | 'announce'
>;

/**
 * Writes an event and one delivery per subscribed, enabled endpoint, in the caller's
 * transaction: the record and its announcement commit together or not at all. The body is
 * frozen here, so every retry sends the same bytes. An event its catalog entry keeps only when
 * wanted, and that no endpoint wants, is not written (null).
 */
export async function enqueueEvent(
  repos: { webhooks: EventOutbox },
  event: OutboxEvent,
  opts: { now: string; newId: IdGenerator },
): Promise<string | null> {
  const endpoints = await repos.webhooks.listSubscriptions(event.companyId);
  const subscribed = endpoints.filter((e) => wants(e.events, event.type));
  if (subscribed.length === 0 && EVENTS[event.type].onlyWhenWanted) return null;
  const row = eventRow(event, opts);
  await repos.webhooks.insertEvent(row);
  await repos.webhooks.insertDeliveries(subscribed.map((e) => pendingDelivery(row, e.id, opts)));
  if (subscribed.length > 0) await repos.webhooks.announce();
  return row.id;
}

/**
 * `enqueueEvent` for a batch (a group commit of inquiries), as rows for the caller's own
 * statement: each event's row and one delivery per subscribed endpoint, the subscriptions read
 * beforehand (subscriptionsPart, with the batch's other lookups). The caller writes them with
 * outboxParts in its insertTogether, and announces when there are deliveries. The same rows as
 * one enqueueEvent per event.
 */
export function outboxRows(
  events: readonly OutboxEvent[],
  subscriptions: ReadonlyArray<{ company_id: string; id: string; value: string }>,
  opts: { now: string; newId: IdGenerator },
): { events: EventRow[]; deliveries: DeliveryRow[] } {
  const rows: EventRow[] = [];
  const deliveries: DeliveryRow[] = [];
  for (const event of events) {
    const wanting = subscriptions.filter((e) => e.company_id === event.companyId && wants(e.value, event.type));
    if (wanting.length === 0 && EVENTS[event.type].onlyWhenWanted) continue;
    const row = eventRow(event, opts);
    rows.push(row);
    for (const endpoint of wanting) deliveries.push(pendingDelivery(row, endpoint.id, opts));
  }
  return { events: rows, deliveries };
}

/** The event's row, its body frozen. */
function eventRow(event: OutboxEvent, opts: { now: string; newId: IdGenerator }): EventRow {
  const id = opts.newId('event');
  const payload = serializeBody({
    id,
    event: event.type,
    companyId: event.companyId,
    locationId: event.locationId,
    timestamp: opts.now,
    livemode: event.livemode ?? true,
    data: event.data,
  });
  return {
    id,
    company_id: event.companyId,
    location_id: event.locationId,
    type: event.type,
    payload,
    created_at: opts.now,
    mode: event.livemode === false ? 'test' : 'live',
  };
}

/** An endpoint subscribed to every event (an empty list) or to this one. */
function wants(events: string, type: string): boolean {
  const wanted = JSON.parse(events) as string[];
  return wanted.length === 0 || wanted.includes(type);
}

/** A delivery of the event to one endpoint, due at once. */
function pendingDelivery(
  event: { id: string; company_id: string },
  endpointId: string,
  opts: { now: string; newId: IdGenerator },
): DeliveryRow {
  return {
    id: opts.newId('delivery'),
    company_id: event.company_id,
    event_id: event.id,
    endpoint_id: endpointId,
    status: 'pending',
    attempts: 0,
    next_attempt_at: opts.now,
    locked_until: null,
    locked_by: null,
    last_status_code: null,
    last_error: null,
    delivered_at: null,
    created_at: opts.now,
  };
}
