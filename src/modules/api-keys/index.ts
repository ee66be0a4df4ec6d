export { createApiKeysRepository } from './api-keys.repository.ts';
export { createApiKeysService, type ApiKeysService, type ApiCaller, type AdminCaller, type ApiKeySummary } from './api-keys.service.ts';
export { createCredentialCache, type CredentialCache } from './credential-cache.ts';
export { CREDENTIALS_CHANNEL } from './api-keys.repository.ts';
