import type { IdGenerator } from '../../lib/ids.ts';
import { serializeBody, type EventData, type EventName } from './event-catalog.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';

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
  'insertEvent' | 'insertEvents' | 'listSubscriptions' | 'insertDeliveries' | 'announce'
>;

/**
 * Writes an event and one delivery per subscribed, enabled endpoint, in the caller's
 * transaction: the record and its announcement commit together or not at all. The body is
 * frozen here, so every retry sends the same bytes.
 */
export async function enqueueEvent(
  repos: { webhooks: EventOutbox },
  event: OutboxEvent,
  opts: { now: string; newId: IdGenerator },
): Promise<string> {
  const row = eventRow(event, opts);
  await repos.webhooks.insertEvent(row);
  const endpoints = await repos.webhooks.listSubscriptions(event.companyId);
  const subscribed = endpoints.filter((e) => wants(e.events, event.type));
  await repos.webhooks.insertDeliveries(subscribed.map((e) => pendingDelivery(row, e.id, opts)));
  if (subscribed.length > 0) await repos.webhooks.announce();
  return row.id;
}

/**
 * `enqueueEvent` for a batch (a group commit of inquiries): each company's subscriptions read
 * once, the events and their deliveries written in multi-row statements. The same rows as one
 * call per event, in a few statements instead of three per event.
 */
export async function enqueueEvents(
  repos: { webhooks: EventOutbox },
  events: readonly OutboxEvent[],
  opts: { now: string; newId: IdGenerator },
): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((event) => eventRow(event, opts));
  await repos.webhooks.insertEvents(rows);
  const deliveries = [];
  for (const companyId of new Set(events.map((e) => e.companyId))) {
    const endpoints = await repos.webhooks.listSubscriptions(companyId);
    for (const row of rows.filter((r) => r.company_id === companyId))
      for (const endpoint of endpoints)
        if (wants(endpoint.events, row.type)) deliveries.push(pendingDelivery(row, endpoint.id, opts));
  }
  await repos.webhooks.insertDeliveries(deliveries);
  if (deliveries.length > 0) await repos.webhooks.announce();
}

/** The event's row, its body frozen. */
function eventRow(event: OutboxEvent, opts: { now: string; newId: IdGenerator }) {
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
) {
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
