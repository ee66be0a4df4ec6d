export { createAccountsRepository, type AccountsRepository } from './accounts.repository.ts';
export { createAccountsService, tokenHash, type AccountsService, type SessionPolicy, type SessionUser } from './accounts.service.ts';
