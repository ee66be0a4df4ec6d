// test-engines: both
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTenant, createTestApp, onPostgres, type TestApp } from '../../support/test-app.ts';
import { validReachOut } from '../../support/http-helpers.ts';

describe('inquiry writes', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test(`a write that fails in a group-committed batch fails alone; the others commit (${onPostgres() ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const d = await createTenant(t.c);
    const [loc] = d.locations;
    const caller = (companyId: string) => ({
      companyId,
      locationId: loc!.id,
      apiKeyId: d.locations[0]!.apiKey.split('_').slice(1, 3).join('_'),
    });
    // A company that does not exist breaks the foreign key inside the shared transaction.
    const attempts = Array.from({ length: 9 }, (_, i) =>
      t.c.inquiries.create(
        caller(i === 4 ? 'cmp_00000000doesnotexist' : d.companyId),
        validReachOut({ subject: `Batch ${i}` }),
      ),
    );
    const outcomes = await Promise.allSettled(attempts);
    assert.deepEqual(
      outcomes.map((o) => o.status),
      [
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'fulfilled',
      ],
    );

    const stored = await t.c.database.db
      .selectFrom('inquiries')
      .select(['id', 'subject'])
      .where('company_id', '=', d.companyId)
      .execute();
    assert.deepEqual(
      stored.map((r) => r.subject).sort(),
      [0, 1, 2, 3, 5, 6, 7, 8].map((i) => `Batch ${i}`),
    );
    const notified = await t.c.database.db
      .selectFrom('notifications')
      .select('subject_id')
      .where('company_id', '=', d.companyId)
      .execute();
    assert.equal(notified.length, stored.length * 2, 'admin and support user, once per stored inquiry');
    assert.equal(
      (
        await t.c.database.db
          .selectFrom('inquiries')
          .select('id')
          .where('company_id', '=', 'cmp_00000000doesnotexist')
          .execute()
      ).length,
      0,
    );

    // And writing goes on afterwards.
    const later = await t.c.inquiries.create(caller(d.companyId), validReachOut({ subject: 'After' }));
    assert.equal((await t.c.inquiries.get(d.companyId, later.id)).subject, 'After');
  });
});
