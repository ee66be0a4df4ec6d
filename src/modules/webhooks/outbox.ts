import type { IdGenerator } from '../../lib/ids.ts';
import { serializeBody, type EventData, type EventName } from './event-catalog.ts';
import type { WebhooksRepository } from './webhooks.repository.ts';

/** An event to announce; its `data` is typed by the event's schema in the catalog. */
export type OutboxEvent = {
  [E in EventName]: {
    companyId: string;
    locationId: string;
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
  await repos.webhooks.insertEvent({
    id,
    company_id: event.companyId,
    location_id: event.locationId,
    type: event.type,
    payload,
    created_at: opts.now,
    mode: event.livemode === false ? 'test' : 'live',
  });
  const endpoints = await repos.webhooks.listSubscriptions(event.companyId);
  const subscribed = endpoints.filter((e) => {
    const events = JSON.parse(e.events) as string[];
    return events.length === 0 || events.includes(event.type);
  });
  await repos.webhooks.insertDeliveries(
    subscribed.map((endpoint) => ({
      id: opts.newId('delivery'),
      company_id: event.companyId,
      event_id: id,
      endpoint_id: endpoint.id,
      status: 'pending',
      attempts: 0,
      next_attempt_at: opts.now,
      locked_until: null,
      locked_by: null,
      last_status_code: null,
      last_error: null,
      delivered_at: null,
      created_at: opts.now,
    })),
  );
  if (subscribed.length > 0) await repos.webhooks.announce();
  return id;
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
  const rows = events.map((event) => {
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
  });
  await repos.webhooks.insertEvents(rows);
  const deliveries = [];
  for (const companyId of new Set(events.map((e) => e.companyId))) {
    const endpoints = await repos.webhooks.listSubscriptions(companyId);
    for (const row of rows.filter((r) => r.company_id === companyId)) {
      for (const endpoint of endpoints) {
        const wanted = JSON.parse(endpoint.events) as string[];
        if (wanted.length > 0 && !wanted.includes(row.type)) continue;
        deliveries.push({
          id: opts.newId('delivery'),
          company_id: companyId,
          event_id: row.id,
          endpoint_id: endpoint.id,
          status: 'pending',
          attempts: 0,
          next_attempt_at: opts.now,
          locked_until: null,
          locked_by: null,
          last_status_code: null,
          last_error: null,
          delivered_at: null,
          created_at: opts.now,
        });
      }
    }
  }
  await repos.webhooks.insertDeliveries(deliveries);
  if (deliveries.length > 0) await repos.webhooks.announce();
}
