export { createEndpointsService, type EndpointsService, type EndpointView, type NewEndpoint, type EndpointPatch } from './endpoints.service.ts';
export { createDispatcher, type WebhookDispatcher } from './dispatcher.ts';
export { USER_AGENT } from './delivery-targets.ts';
export { createGuardedAgent } from './target-guard.ts';
export { DEFAULT_RETRY_DELAYS_MS } from './retry-schedule.ts';
export { EVENT_TYPES, enqueueEvent, type EventType, type OutboxEvent } from './outbox.ts';
