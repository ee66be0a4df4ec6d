import { valuesList, type ReadPart, type TableRows } from '../../db/written-statements.ts';
import { DELIVERY_COLUMNS, EVENT_COLUMNS, type DeliveryRow, type EventRow } from './webhooks.repository.ts';

// The webhooks module's parts of another module's batch statement (readTogether, insertTogether):
// a contact-form batch reads its subscriptions and writes its events and deliveries in the same
// round trip as its own rows (bench/README.md, reach-out). Not a repository: a part only says what
// to select or insert; the caller's unit of work runs it.

/** readTogether's part: the enabled endpoints of `companyIds`, their event list as the value. */
export function subscriptionsPart(companyIds: readonly string[]): ReadPart {
  return {
    key: `subscriptions:${companyIds.length}`,
    params: [...companyIds, true],
    select: (engine, first) =>
      `select company_id, id, events as value from webhook_endpoints where company_id in ${valuesList(engine, 1, companyIds.length, first)} and enabled = ${engine === 'postgres' ? `$${first + companyIds.length}` : '?'}`,
  };
}

/** insertTogether's parts for an outbox batch: the events, then their deliveries. */
export function outboxParts(events: readonly EventRow[], deliveries: readonly DeliveryRow[]): TableRows[] {
  return [
    { table: 'webhook_events', columns: EVENT_COLUMNS, rows: events },
    { table: 'webhook_deliveries', columns: DELIVERY_COLUMNS, rows: deliveries },
  ];
}
