import type { Engine, Executor } from '../../db/database.ts';
import type { HubSessionsTable, PasswordResetsTable, UsersTable } from '../../db/schema.ts';

export type SessionRow = HubSessionsTable;
export type PasswordResetRow = PasswordResetsTable;
export type AccountRow = UsersTable;

/** What one session read gives a hub page: the session, its user and the user's company, in one query. */
export interface SessionView {
  token_hash: string;
  company_id: string;
  user_id: string;
  last_seen_at: string;
  expires_at: string;
  email: string;
  name: string;
  role: string;
  user_locale: string | null;
  disabled_at: string | null;
  company_name: string;
  company_locale: string;
  company_country: string | null;
  currency: string;
  timezone: string;
}

/**
 * Users as accounts, their hub sessions and reset links. Reads by token hash and sign-in by
 * e-mail cross tenants by design: the secret or the e-mail is what names the company.
 */
export function createAccountsRepository(db: Executor, engine: Engine = 'sqlite') {
  return {
    async findByEmail(email: string): Promise<AccountRow[]> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', email)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    async findUser(companyId: string, userId: string): Promise<AccountRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', userId)
        .executeTakeFirst();
    },
    async setPasswordHash(companyId: string, userId: string, hash: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: hash })
        .where('company_id', '=', companyId)
        .where('id', '=', userId)
        .execute();
    },
    async findUserByEmail(companyId: string, email: string): Promise<AccountRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('email', '=', email)
        .executeTakeFirst();
    },
    /** The team page: every user of the company in one query, by name. */
    async listUsers(companyId: string): Promise<AccountRow[]> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('name')
        .orderBy('id')
        .execute();
    },
    async insertUser(row: AccountRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    async updateUser(
      companyId: string,
      userId: string,
      changes: Partial<Pick<AccountRow, 'role' | 'disabled_at' | 'locale' | 'password_hash'>>,
    ): Promise<void> {
      await db.updateTable('users').set(changes).where('company_id', '=', companyId).where('id', '=', userId).execute();
    },
    /** Active admins of the company: the last one must not lock the company out. */
    async countActiveAdmins(companyId: string): Promise<number> {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('company_id', '=', companyId)
        .where('role', '=', 'admin')
        .where('disabled_at', 'is', null)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /**
     * Within a transaction, makes changes to the company's admins take turns: two admins
     * disabling each other at once must not both succeed. PostgreSQL locks the company row;
     * SQLite has one writer, so a transaction that writes first is already alone.
     */
    async lockTeam(companyId: string): Promise<void> {
      if (engine === 'postgres')
        await db.selectFrom('companies').select('id').where('id', '=', companyId).forUpdate().execute();
    },

    async insertSession(row: SessionRow): Promise<void> {
      await db.insertInto('hub_sessions').values(row).execute();
    },
    async findSession(tokenHash: string): Promise<SessionView | undefined> {
      return db
        .selectFrom('hub_sessions as s')
        .innerJoin('users as u', (j) => j.onRef('u.id', '=', 's.user_id').onRef('u.company_id', '=', 's.company_id'))
        .innerJoin('companies as c', 'c.id', 's.company_id')
        .select([
          's.token_hash',
          's.company_id',
          's.user_id',
          's.last_seen_at',
          's.expires_at',
          'u.email',
          'u.name',
          'u.role',
          'u.locale as user_locale',
          'u.disabled_at',
          'c.name as company_name',
          'c.locale as company_locale',
          'c.country as company_country',
          'c.currency',
          'c.timezone',
        ])
        .where('s.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    async touchSession(tokenHash: string, lastSeenAt: string): Promise<void> {
      await db
        .updateTable('hub_sessions')
        .set({ last_seen_at: lastSeenAt })
        .where('token_hash', '=', tokenHash)
        .execute();
    },
    async deleteSession(tokenHash: string): Promise<void> {
      await db.deleteFrom('hub_sessions').where('token_hash', '=', tokenHash).execute();
    },
    /** Every session of one user: on a password change, a reset, or when the user is disabled. */
    async deleteUserSessions(companyId: string, userId: string): Promise<void> {
      await db.deleteFrom('hub_sessions').where('company_id', '=', companyId).where('user_id', '=', userId).execute();
    },
    /** Every session of one user but the one they are using: on their own password change. */
    async deleteOtherSessions(companyId: string, userId: string, keepTokenHash: string): Promise<void> {
      await db
        .deleteFrom('hub_sessions')
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('token_hash', '!=', keepTokenHash)
        .execute();
    },

    async insertPasswordReset(row: PasswordResetRow): Promise<void> {
      await db.insertInto('password_resets').values(row).execute();
    },
    /** A new link replaces the user's earlier unused ones: only the newest works. */
    async deleteUnusedResets(companyId: string, userId: string): Promise<void> {
      await db
        .deleteFrom('password_resets')
        .where('company_id', '=', companyId)
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .execute();
    },
    async findPasswordReset(tokenHash: string): Promise<PasswordResetRow | undefined> {
      return db.selectFrom('password_resets').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /**
     * The hourly sweep, across companies by design: sessions past their end or idle since
     * `idleSince`, and reset links past their expiry (used or not). Each would be refused anyway.
     */
    async deleteEnded(now: string, idleSince: string): Promise<{ sessions: number; resets: number }> {
      const sessions = await db
        .deleteFrom('hub_sessions')
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleSince)]))
        .executeTakeFirst();
      const resets = await db.deleteFrom('password_resets').where('expires_at', '<=', now).executeTakeFirst();
      return { sessions: Number(sessions.numDeletedRows), resets: Number(resets.numDeletedRows) };
    },
    /** Marks a link used; false when it already was (two submits racing: only one wins). */
    async useResetOnce(tokenHash: string, usedAt: string): Promise<boolean> {
      const result = await db
        .updateTable('password_resets')
        .set({ used_at: usedAt })
        .where('token_hash', '=', tokenHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
