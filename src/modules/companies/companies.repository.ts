import { CompiledQuery } from 'kysely';
import type { Engine, Executor } from '../../db/database.ts';
import { cachedText, valuesList } from '../../db/written-statements.ts';
import type { CompanyLogosTable } from '../../db/schema.ts';

import type { CompanyRow, LocationRow, MailRecipient, Recipient, UserRow } from './types.ts';

export function createCompaniesRepository(db: Executor, engine: Engine) {
  return {
    async insertCompany(row: CompanyRow): Promise<void> {
      await db.insertInto('companies').values(row).execute();
    },
    async findCompany(companyId: string): Promise<CompanyRow | undefined> {
      return db.selectFrom('companies').selectAll().where('id', '=', companyId).executeTakeFirst();
    },
    async listCompanies(): Promise<CompanyRow[]> {
      return db.selectFrom('companies').selectAll().orderBy('created_at').orderBy('id').execute();
    },
    async countCompanies(): Promise<number> {
      const row = await db
        .selectFrom('companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async updateCompany(companyId: string, patch: Partial<Omit<CompanyRow, 'id' | 'created_at'>>): Promise<void> {
      await db.updateTable('companies').set(patch).where('id', '=', companyId).execute();
    },

    async insertLocation(row: LocationRow): Promise<void> {
      await db.insertInto('locations').values(row).execute();
    },
    /** Keeps an uploaded logo by its hash; the same image twice is one row. */
    async insertLogo(row: CompanyLogosTable): Promise<void> {
      await db
        .insertInto('company_logos')
        .values(row)
        .onConflict((oc) => oc.columns(['company_id', 'sha256']).doNothing())
        .execute();
    },
    async findLogo(companyId: string, sha256: string): Promise<CompanyLogosTable | undefined> {
      return db
        .selectFrom('company_logos')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('sha256', '=', sha256)
        .executeTakeFirst();
    },
    async findLocation(companyId: string, locationId: string): Promise<LocationRow | undefined> {
      return db
        .selectFrom('locations')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', locationId)
        .executeTakeFirst();
    },
    /**
     * The names of the given locations, each matched by its company and id, in one written-out
     * statement: a batch of inquiries reads its locations' names for its events this way (a
     * Kysely-built read per location and batch cost the reach-out a few µs a request).
     */
    async findLocationByCode(companyId: string, code: string): Promise<LocationRow | undefined> {
      return db
        .selectFrom('locations')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('code', '=', code)
        .executeTakeFirst();
    },
    async listLocations(companyId: string): Promise<LocationRow[]> {
      return db
        .selectFrom('locations')
        .selectAll()
        .where('company_id', '=', companyId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },

    async updateLocation(
      companyId: string,
      locationId: string,
      patch: Partial<Pick<LocationRow, 'name' | 'address' | 'fiscal_premises' | 'fiscal_device'>>,
    ): Promise<void> {
      await db
        .updateTable('locations')
        .set(patch)
        .where('company_id', '=', companyId)
        .where('id', '=', locationId)
        .execute();
    },
    async updateUser(
      companyId: string,
      userId: string,
      patch: Partial<Pick<UserRow, 'operator_oib' | 'operator_label' | 'hub_location_id'>>,
    ): Promise<void> {
      await db.updateTable('users').set(patch).where('company_id', '=', companyId).where('id', '=', userId).execute();
    },
    async insertUser(row: UserRow): Promise<void> {
      await db.insertInto('users').values(row).execute();
    },
    async findUser(companyId: string, userId: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', userId)
        .executeTakeFirst();
    },
    async findUserByEmail(companyId: string, email: string): Promise<UserRow | undefined> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('email', '=', email)
        .executeTakeFirst();
    },
    async listUsersWithRoles(companyId: string, roles: readonly string[]): Promise<UserRow[]> {
      return db
        .selectFrom('users')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('role', 'in', roles)
        .orderBy('id')
        .execute();
    },

    /**
     * Who to notify, for several companies at once: read once per group-committed batch of
     * inquiries, so written out like the batch's inserts (see written-statements.ts). The columns
     * are listed, not `*`: PostgreSQL keeps this text prepared, and a prepared `select *` fails
     * once a migration adds a column.
     */
    async listRecipients(companyIds: readonly string[], roles: readonly string[]): Promise<Recipient[]> {
      const text = cachedText(
        `${engine}:recipients:${companyIds.length}:${roles.length}`,
        () =>
          `select id, company_id, email from users where company_id in ${valuesList(engine, 1, companyIds.length)} and role in ${valuesList(engine, 1, roles.length, companyIds.length + 1)} order by id`,
      );
      return (await db.executeQuery<Recipient>(CompiledQuery.raw(text, [...companyIds, ...roles]))).rows;
    },

    async listMailRecipients(companyId: string, roles: readonly string[]): Promise<MailRecipient[]> {
      const rows = await db
        .selectFrom('users')
        .innerJoin('companies', 'companies.id', 'users.company_id')
        .select(['users.id', 'users.email', 'users.locale as own', 'companies.locale as company'])
        .where('users.company_id', '=', companyId)
        .where('users.role', 'in', [...roles])
        .where('users.disabled_at', 'is', null)
        .orderBy('users.id')
        .execute();
      return rows.map((r) => ({ id: r.id, email: r.email, locale: r.own ?? r.company }));
    },
  };
}
export type CompaniesRepository = ReturnType<typeof createCompaniesRepository>;
