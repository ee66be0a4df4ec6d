// test-engines: postgres
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createDatabase } from '../../src/db/database.ts';
import { createRepositories } from '../../src/repositories.ts';
import { newId } from '../../src/lib/ids.ts';
import { createTenant, createTestApp, type TestApp } from '../support/test-app.ts';

describe('prepared statements', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('PostgreSQL keeps the written-out statements prepared, and only those', async () => {
    const d = await createTenant(t.c);
    // One connection, so that pg_prepared_statements (per session) shows everything this pool prepared.
    const database = createDatabase(t.c.database.url, { poolSize: 1 });
    try {
      const repos = createRepositories(database.db, 'postgres');
      const apiKeyId = (await repos.apiKeys.listApiKeys(d.companyId))[0]!.id;
      const inquiry = (subject: string) => ({
        id: newId('inquiry'),
        company_id: d.companyId,
        location_id: d.locations[0]!.id,
        api_key_id: apiKeyId,
        topic: 'Prepared',
        subject,
        message: 'm',
        email: 'a@example.com',
        phone: '+385 1 234 5678',
        name: null,
        product_photo_url: null,
        created_at: new Date().toISOString(),
        handled_at: null,
        handled_by: null,
        mode: 'live',
        spam_reason: null,
      });
      const insert = (...rows: ReturnType<typeof inquiry>[]) => repos.inquiries.insertWithNotifications(rows, [], []);
      await insert(inquiry('one'), inquiry('two'));
      await insert(inquiry('three'), inquiry('four'), inquiry('five')); // the same text again, whatever the count: bound, not parsed
      await repos.companies.listRecipients([d.companyId], ['admin', 'support']);
      await repos.companies.findCompany(d.companyId); // built by Kysely: sent unnamed

      const prepared = await sql<{
        statement: string;
      }>`select statement from pg_prepared_statements order by statement`.execute(database.db);
      assert.deepEqual(
        prepared.rows.map((r) => r.statement.split(' (')[0]),
        ['insert into inquiries', 'select id, company_id, email from users where company_id in'],
      );

      // A migration adding columns, under a running server: PostgreSQL re-plans what this
      // connection keeps prepared, and none of it may start failing (as a prepared `select *` would).
      await sql`alter table users add column nickname text`.execute(database.db);
      await sql`alter table inquiries add column note text`.execute(database.db);
      assert.equal((await repos.companies.listRecipients([d.companyId], ['admin', 'support'])).length, 2);
      await insert(inquiry('six'), inquiry('seven'));

      const stored = await database.db
        .selectFrom('inquiries')
        .select('subject')
        .where('topic', '=', 'Prepared')
        .orderBy('subject')
        .execute();
      assert.deepEqual(
        stored.map((r) => r.subject),
        ['five', 'four', 'one', 'seven', 'six', 'three', 'two'],
      );
    } finally {
      await database.close();
    }
  });
});
