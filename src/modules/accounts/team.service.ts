import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { AppError, fieldErrors, addFieldError } from '../../lib/errors.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { hashPassword, verifyPassword } from '../../lib/password-hash.ts';
import type { Store } from '../../db/store.ts';
import { USER_ROLES, type UserRole } from '../companies/index.ts';
import { LANGUAGES, type Language, said, saidOf } from '../i18n/index.ts';
import type { AccountRow, AccountsRepository } from './accounts.repository.ts';

type TeamRepos = { accounts: AccountsRepository };
import { checkPassword } from './password-rule.ts';
import { tokenHash } from './token.ts';

/** A user as the team page lists them. */
export interface TeamMember {
  id: string;
  email: string;
  name: string;
  role: UserRole;
  /** Null: the company's language. */
  language: Language | null;
  disabled: boolean;
  /** False for a user made without one who has not used a reset link yet. */
  hasPassword: boolean;
  createdAt: string;
}

/** A reset link's secret, given once: only its SHA-256 is stored. */
export interface ResetLink {
  token: string;
  expiresAt: string;
}

export type ResetState =
  | { ok: true; email: string; name: string }
  | { ok: false; reason: 'invalid' | 'used' | 'expired' };

const RESET_MS = 24 * 3_600_000;

/**
 * Accounts as the people themselves and their admins change them: own password and language,
 * the team (create, role, disable), one-time reset links. Every method is tenant-first; a user
 * of another company is "not found". Whatever takes a password away ends that user's sessions.
 */
export function createTeamService(deps: { store: Store<TeamRepos>; clock: Clock; newId: IdGenerator }) {
  const { store, clock, newId } = deps;
  const repo = store.repos.accounts;

  async function need(companyId: string, userId: string): Promise<AccountRow> {
    const user = await repo.findUser(companyId, userId);
    if (!user) throw AppError.notFound('User');
    return user;
  }

  /**
   * A change to a user that keeps at least one active admin, or none at all: nobody could then
   * manage the company. Checked after the write, in its transaction, so two admins disabling
   * each other at once cannot both succeed.
   */
  async function keepingAnAdmin(
    before: AccountRow,
    field: 'role' | 'disabled',
    work: (r: TeamRepos) => Promise<void>,
  ): Promise<void> {
    const companyId = before.company_id;
    // Only an active admin's change can take the last admin away; any other is written as is.
    const mayRemoveAdmin = before.role === 'admin' && !before.disabled_at;
    await store.transaction(async (r) => {
      if (mayRemoveAdmin) await r.accounts.lockTeam(companyId);
      await work(r);
      if (mayRemoveAdmin && (await r.accounts.countActiveAdmins(companyId)) === 0) {
        throw new AppError('conflict', said('error.user.lastAdmin'), { [field]: [said('error.user.lastAdmin')] });
      }
    });
  }

  function newLink(): ResetLink & { hash: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: tokenHash(token), expiresAt: new Date(clock.now().getTime() + RESET_MS).toISOString() };
  }

  return {
    /**
     * The user's own password, given the current one. Their other sessions end (a thief's
     * included); the one they are using, named by its token, stays.
     */
    async changePassword(
      companyId: string,
      userId: string,
      input: { currentPassword: string; newPassword: string; keepSessionToken: string },
    ): Promise<void> {
      const user = await need(companyId, userId);
      const details = fieldErrors();
      if (!user.password_hash || !(await verifyPassword(input.currentPassword, user.password_hash)))
        addFieldError(details, 'currentPassword', said('error.user.currentPassword'));
      const rule = checkPassword(input.newPassword);
      if (rule) addFieldError(details, 'newPassword', saidOf(rule));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const hash = await hashPassword(input.newPassword);
      await store.transaction(async (r) => {
        await r.accounts.updateUser(companyId, userId, { password_hash: hash });
        await r.accounts.deleteOtherSessions(companyId, userId, tokenHash(input.keepSessionToken));
      });
    },

    /** The hub's language for the user: hr, de, en, or null for the company's. */
    async setLanguage(companyId: string, userId: string, language: string | null): Promise<void> {
      await need(companyId, userId);
      if (language !== null && !(LANGUAGES as readonly string[]).includes(language))
        throw AppError.invalid({ language: [said('error.user.language', { languages: LANGUAGES.join(', ') })] });
      await repo.updateUser(companyId, userId, { locale: language });
    },

    async listTeam(companyId: string): Promise<TeamMember[]> {
      return (await repo.listUsers(companyId)).map(toMember);
    },

    /** A new user has no password: the admin hands them the reset link returned with it. */
    async createUser(
      companyId: string,
      actorId: string,
      input: { email: string; name: string; role: string },
    ): Promise<{ user: TeamMember; link: ResetLink }> {
      const details = fieldErrors();
      const email = input.email.trim().toLowerCase();
      const name = input.name.trim();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) || email.length > 254)
        addFieldError(details, 'email', said('error.email'));
      else if (await repo.findUserByEmail(companyId, email))
        addFieldError(details, 'email', said('error.user.emailTaken'));
      if (name === '' || name.length > 200) addFieldError(details, 'name', said('error.length', { max: '200' }));
      if (!(USER_ROLES as readonly string[]).includes(input.role))
        addFieldError(details, 'role', said('error.oneOf', { values: USER_ROLES.join(', ') }));
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const row: AccountRow = {
        id: newId('user'),
        company_id: companyId,
        email,
        name,
        role: input.role,
        password_hash: null,
        created_at: clock.now().toISOString(),
        disabled_at: null,
        locale: null,
        operator_oib: null,
      };
      const link = newLink();
      await store.transaction(async (r) => {
        await r.accounts.insertUser(row);
        await r.accounts.insertPasswordReset({
          token_hash: link.hash,
          company_id: companyId,
          user_id: row.id,
          created_by: actorId,
          created_at: row.created_at,
          expires_at: link.expiresAt,
          used_at: null,
        });
      });
      return { user: toMember(row), link: { token: link.token, expiresAt: link.expiresAt } };
    },

    async changeRole(companyId: string, userId: string, role: string): Promise<void> {
      if (!(USER_ROLES as readonly string[]).includes(role))
        throw AppError.invalid({ role: [said('error.oneOf', { values: USER_ROLES.join(', ') })] });
      const user = await need(companyId, userId);
      if (user.role === role) return;
      await keepingAnAdmin(user, 'role', (r) => r.accounts.updateUser(companyId, userId, { role }));
    },

    /** Disabling ends every session of the user at once; enabling lets them sign in again. */
    async setDisabled(companyId: string, userId: string, disabled: boolean): Promise<void> {
      const user = await need(companyId, userId);
      if (disabled === (user.disabled_at !== null)) return;
      await keepingAnAdmin(user, 'disabled', async (r) => {
        await r.accounts.updateUser(companyId, userId, { disabled_at: disabled ? clock.now().toISOString() : null });
        if (disabled) await r.accounts.deleteUserSessions(companyId, userId);
      });
    },

    /** A one-time link to set a new password, valid 24 hours; it replaces the user's earlier unused ones. */
    async createResetLink(companyId: string, actorId: string, userId: string): Promise<ResetLink> {
      await need(companyId, userId);
      const link = newLink();
      await store.transaction(async (r) => {
        await r.accounts.deleteUnusedResets(companyId, userId);
        await r.accounts.insertPasswordReset({
          token_hash: link.hash,
          company_id: companyId,
          user_id: userId,
          created_by: actorId,
          created_at: clock.now().toISOString(),
          expires_at: link.expiresAt,
          used_at: null,
        });
      });
      return { token: link.token, expiresAt: link.expiresAt };
    },

    /** What a reset link is (the token names the company): usable, or why not. */
    async checkResetLink(token: string): Promise<ResetState> {
      if (!token || token.length > 100) return { ok: false, reason: 'invalid' };
      const reset = await repo.findPasswordReset(tokenHash(token));
      if (!reset) return { ok: false, reason: 'invalid' };
      if (reset.used_at) return { ok: false, reason: 'used' };
      if (clock.now().getTime() >= Date.parse(reset.expires_at)) return { ok: false, reason: 'expired' };
      const user = await repo.findUser(reset.company_id, reset.user_id);
      if (!user || user.disabled_at) return { ok: false, reason: 'invalid' };
      return { ok: true, email: user.email, name: user.name };
    },

    /** Sets the password a link was made for, once; every session of that user ends. */
    async resetPassword(token: string, password: string): Promise<{ email: string }> {
      const state = await this.checkResetLink(token);
      if (!state.ok) throw new AppError('not_found', said(`error.reset.${state.reason}`));
      const rule = checkPassword(password);
      if (rule) throw AppError.invalid({ password: [saidOf(rule)] });
      const hash = await hashPassword(password);
      const reset = (await repo.findPasswordReset(tokenHash(token)))!;
      const used = await store.transaction(async (r) => {
        if (!(await r.accounts.useResetOnce(reset.token_hash, clock.now().toISOString()))) return false;
        await r.accounts.updateUser(reset.company_id, reset.user_id, { password_hash: hash });
        await r.accounts.deleteUserSessions(reset.company_id, reset.user_id);
        return true;
      });
      if (!used) throw new AppError('not_found', said('error.reset.used'));
      return { email: state.email };
    },

    /**
     * `portico user set-password`: for a locked-out last admin, run by whoever runs the server.
     * An e-mail in two companies needs the company named.
     */
    async setPasswordByEmail(
      emailInput: string,
      companyId: string | null,
      password: string,
    ): Promise<{ companyId: string; userId: string }> {
      const rule = checkPassword(password);
      if (rule) throw AppError.invalid({ password: [saidOf(rule)] });
      const email = emailInput.trim().toLowerCase();
      const users = (await repo.findByEmail(email)).filter((u) => companyId === null || u.company_id === companyId);
      if (users.length === 0) throw AppError.notFound('User');
      if (users.length > 1) throw AppError.invalid({ company: [said('error.user.severalCompanies')] });
      const user = users[0]!;
      const hash = await hashPassword(password);
      await store.transaction(async (r) => {
        await r.accounts.updateUser(user.company_id, user.id, { password_hash: hash });
        await r.accounts.deleteUserSessions(user.company_id, user.id);
      });
      return { companyId: user.company_id, userId: user.id };
    },
  };
}
export type TeamService = ReturnType<typeof createTeamService>;

function toMember(row: AccountRow): TeamMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role as UserRole,
    language: (row.locale as Language | null) ?? null,
    disabled: row.disabled_at !== null,
    hasPassword: row.password_hash !== null,
    createdAt: row.created_at,
  };
}
