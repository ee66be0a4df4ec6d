import type { UserRole } from '../../../modules/companies/index.ts';
import type { HubMessageKey, HubTranslate } from '../texts/index.ts';

export function roleLabel(t: HubTranslate, role: UserRole): string {
  return role === 'admin' ? t('hub.role.admin') : role === 'support' ? t('hub.role.support') : t('hub.role.staff');
}

// The notices a redirect may name: anything else in ?notice= is ignored, so a link cannot put words on the page.
export const ACCOUNT_NOTICES = {
  passwordChanged: 'hub.account.notice.passwordChanged',
  languageSaved: 'hub.account.notice.languageSaved',
  roleChanged: 'hub.team.notice.roleChanged',
  disabled: 'hub.team.notice.disabled',
  enabled: 'hub.team.notice.enabled',
  companySaved: 'hub.company.notice.saved',
  oibSaved: 'hub.company.notice.saved',
} as const satisfies Record<string, HubMessageKey>;
