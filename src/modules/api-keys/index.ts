export {
  createApiKeysService,
  type ApiKeysService,
  type ApiCaller,
  type KeyCaller,
  type AdminCaller,
  type ApiKeySummary,
} from './api-keys.service.ts';
export { createPgKeyCache, createSqliteKeyCache, type KeyCache } from './revocation-watch.ts';
export { ANY_LOCALHOST, originAllowed } from './browser-origins.ts';
