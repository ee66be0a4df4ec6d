export {
  createOperationsRepository,
  type EndpointQueue,
  type OperationsRepository,
  type OutboxState,
} from './operations.repository.ts';
export { createReadiness, type Readiness, type ReadinessReport } from './readiness.ts';
