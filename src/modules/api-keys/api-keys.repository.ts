import { sql } from 'kysely';
import type { Engine, Executor } from '../../db/database.ts';
import type { AdminTokensTable, ApiKeysTable } from '../../db/schema.ts';

export type ApiKeyRow = ApiKeysTable;
export type AdminTokenRow = AdminTokensTable;

/** PostgreSQL channel on which revoked API key ids are announced. */
export const CREDENTIALS_CHANNEL = 'portico_credentials';

export function createApiKeysRepository(db: Executor, engine: Engine) {
  return {
    /** The key and, for a publishable one, a row per allowed origin (what a preflight looks up). */
    async insertApiKey(row: ApiKeyRow, origins: readonly string[] = []): Promise<void> {
      await db.insertInto('api_keys').values(row).execute();
      if (origins.length > 0)
        await db
          .insertInto('api_key_origins')
          .values(origins.map((origin) => ({ origin, api_key_id: row.id })))
          .execute();
    },

    /**
     * Whether any unrevoked publishable key allows one of these origins. Asked by a CORS
     * preflight, which carries no key and so no company: like authentication, it reads across
     * companies, and answers only yes or no.
     */
    async anyKeyAllowsOrigin(origins: readonly string[]): Promise<boolean> {
      const row = await db
        .selectFrom('api_key_origins')
        .innerJoin('api_keys', 'api_keys.id', 'api_key_origins.api_key_id')
        .select('api_keys.id')
        .where('api_key_origins.origin', 'in', [...origins])
        .where('api_keys.revoked_at', 'is', null)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Looked up by id alone: authentication is what establishes the company. */
    async findApiKeyForAuthentication(id: string): Promise<ApiKeyRow | undefined> {
      return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async listApiKeys(companyId: string): Promise<ApiKeyRow[]> {
      return db
        .selectFrom('api_keys')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },

    async revokeApiKey(companyId: string, id: string, at: string): Promise<boolean> {
      const revoke = db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('revoked_at', 'is', null);
      if (engine === 'sqlite') return Number((await revoke.executeTakeFirst()).numUpdatedRows) > 0;
      // One statement: the revocation and the NOTIFY that evicts the key from every instance's cache.
      const { rows } = await sql<{
        id: string;
      }>`with revoked as (${revoke.returning('id')}) select id, pg_notify(${CREDENTIALS_CHANNEL}, id) from revoked`.execute(
        db,
      );
      return rows.length > 0;
    },

    async touchApiKey(id: string, at: string): Promise<void> {
      await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
    },

    async insertAdminToken(row: AdminTokenRow): Promise<void> {
      await db.insertInto('admin_tokens').values(row).execute();
    },

    async findAdminTokenForAuthentication(id: string) {
      return db
        .selectFrom('admin_tokens')
        .innerJoin('users', 'users.id', 'admin_tokens.user_id')
        .select([
          'admin_tokens.id',
          'admin_tokens.company_id',
          'admin_tokens.user_id',
          'admin_tokens.secret_hash',
          'admin_tokens.revoked_at',
          'admin_tokens.last_used_at',
          'users.role',
        ])
        .where('admin_tokens.id', '=', id)
        .executeTakeFirst();
    },

    async touchAdminToken(id: string, at: string): Promise<void> {
      await db.updateTable('admin_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
