export {
  createIdempotencyService,
  requestFingerprint,
  type IdempotencyService,
  type IdempotencyOutcome,
} from './idempotency.service.ts';
