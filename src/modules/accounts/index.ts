export {
  createAccountsService,
  type AccountsService,
  type SessionPolicy,
  type SessionUser,
} from './accounts.service.ts';
export { PASSWORD_MAX, PASSWORD_MIN } from './password-rule.ts';
export type { ResetLink, ResetState, TeamMember } from './team.service.ts';
export {
  createSignInThrottle,
  memoryFailureCounts,
  redisFailureCounts,
  SignInBusy,
  type FailureCounts,
  type SignInThrottle,
} from './sign-in-throttle.ts';
