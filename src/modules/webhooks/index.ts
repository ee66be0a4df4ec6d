export {
  createEndpointsService,
  generateWebhookSecret,
  SECRET_RULE,
  type EndpointsService,
  type EndpointView,
  type NewEndpoint,
  type EndpointPatch,
} from './endpoints.service.ts';
export { createDispatcher, type WebhookDispatcher } from './dispatcher.ts';
export { createTargets } from './delivery-targets.ts';
export { applyEndpointWork } from './endpoint-work.ts';
export { createSqliteQueue } from './queue/sqlite-queue.ts';
export { createPostgresQueue } from './queue/postgres-queue.ts';
export type { DeliveryQueue, ApplyEndpointWork } from './queue/delivery-queue.ts';
export { checkTargetUrl, createGuardedAgent } from './target-guard.ts';
export { DEFAULT_RETRY_DELAYS_MS } from './retry-schedule.ts';
export { enqueueEvent, outboxRows, type EventOutbox, type OutboxEvent } from './outbox.ts';
export { outboxParts, subscriptionsPart } from './batch-parts.ts';
export {
  EVENTS,
  EVENT_NAMES,
  PING,
  WEBHOOK_BODIES,
  type EventName,
  type EventData,
  type EventDefinition,
  type WebhookBody,
} from './event-catalog.ts';
