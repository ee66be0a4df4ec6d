export type { EndpointQueue, OutboxState, QueueFigures } from './types.ts';
export { createReadiness, type Readiness, type ReadinessReport } from './readiness.ts';
