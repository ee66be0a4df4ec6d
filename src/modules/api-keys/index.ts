export {
  createApiKeysService,
  type ApiKeysService,
  type ApiCaller,
  type AdminCaller,
  type ApiKeySummary,
} from './api-keys.service.ts';
export { createPgKeyCache, createSqliteKeyCache, type KeyCache } from './revocation-watch.ts';
