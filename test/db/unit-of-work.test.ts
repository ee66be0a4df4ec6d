// test-engines: both
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createTenant, createTestApp, onPostgres, type TestApp } from '../support/test-app.ts';
import { validReachOut } from '../support/http-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

describe('unit of work', () => {
  const ENGINE = onPostgres() ? 'PostgreSQL' : 'SQLite';

  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const callerOf = (d: DemoCompany) => ({
    companyId: d.companyId,
    locationId: d.locations[0]!.id,
    apiKeyId: d.locations[0]!.apiKey.split('_').slice(1, 3).join('_'),
  });
  const subjects = async (companyId: string) =>
    (await t.c.database.db.selectFrom('inquiries').select('subject').where('company_id', '=', companyId).execute())
      .map((r) => r.subject)
      .sort();

  test(`a group-committed batch runs each request's commit hook with that request's inquiry, in the batch's transaction (${ENGINE})`, async () => {
    const d = await createTenant(t.c);
    const seen = new Map<number, { id: string; inTransaction: boolean }>();
    const attempts = Array.from({ length: 6 }, (_, i) =>
      t.c.store.withCommitHook(
        async (repos, id) => {
          seen.set(i, { id, inTransaction: repos !== t.c.store.repos });
          // A hook that fails rolls back its own inquiry only: the batch is retried item by item.
          if (i === 3) throw new Error('hook 3 refuses');
        },
        () => t.c.inquiries.create(callerOf(d), validReachOut({ subject: `Hooked ${i}` })),
      ),
    );
    // Requests without a hook share the batch.
    attempts.push(t.c.inquiries.create(callerOf(d), validReachOut({ subject: 'Unhooked' })));
    const outcomes = await Promise.allSettled(attempts);

    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled'],
    );
    for (const [i, o] of outcomes.slice(0, 6).entries()) {
      if (o.status === 'fulfilled')
        assert.equal(seen.get(i)?.id, o.value.id, `hook ${i} got its own request's inquiry`);
      assert.equal(seen.get(i)?.inTransaction, true, `hook ${i} ran inside the transaction`);
    }
    assert.deepEqual(await subjects(d.companyId), [
      'Hooked 0',
      'Hooked 1',
      'Hooked 2',
      'Hooked 4',
      'Hooked 5',
      'Unhooked',
    ]);
  });

  test(`a hook commits with the one creation it belongs to, never a second one (${ENGINE})`, async () => {
    const d = await createTenant(t.c);
    const ids: string[] = [];
    await t.c.store.withCommitHook(
      async (_repos, id) => {
        ids.push(id);
      },
      async () => {
        const first = await t.c.inquiries.create(callerOf(d), validReachOut({ subject: 'First' }));
        await t.c.inquiries.create(callerOf(d), validReachOut({ subject: 'Second' }));
        assert.deepEqual(ids, [first.id]);
      },
    );
  });

  test(`one statement without hooks: ${onPostgres() ? 'no transaction on PostgreSQL' : 'a transaction on SQLite, which writes it as several'}`, async () => {
    const inTransaction = await t.c.store.unitOfWork(async (repos) => repos !== t.c.store.repos, {
      oneStatement: true,
    });
    assert.equal(inTransaction, !onPostgres());
    const withHook = await t.c.store.withCommitHook(
      async () => {},
      () => t.c.store.unitOfWork(async (repos) => repos !== t.c.store.repos, { oneStatement: true, creates: 'x_1' }),
    );
    assert.equal(withHook, true, 'a pending hook needs a transaction on every engine');
  });
});
