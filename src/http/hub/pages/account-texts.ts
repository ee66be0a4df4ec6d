import type { UserRole } from '../../../modules/companies/index.ts';
import type { Translate } from '../../../modules/i18n/index.ts';
import type { HubContext } from '../hub-context.ts';

export function roleLabel(t: Translate, role: UserRole): string {
  return role === 'admin' ? t('hub.role.admin') : role === 'support' ? t('hub.role.support') : t('hub.role.staff');
}

// The notices a redirect may name: anything else in ?notice= is ignored, so a link cannot put words on the page.
const NOTICES = {
  passwordChanged: 'hub.account.notice.passwordChanged',
  languageSaved: 'hub.account.notice.languageSaved',
  roleChanged: 'hub.team.notice.roleChanged',
  disabled: 'hub.team.notice.disabled',
  enabled: 'hub.team.notice.enabled',
  companySaved: 'hub.company.notice.saved',
} as const;

export function noticeOf(ctx: HubContext, query: unknown): string | null {
  const key = (query as { notice?: unknown } | undefined)?.notice;
  return typeof key === 'string' && Object.hasOwn(NOTICES, key) ? ctx.t(NOTICES[key as keyof typeof NOTICES]) : null;
}
