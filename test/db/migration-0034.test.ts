// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { up } from '../../src/db/migrations/0034-inquiry-digested.ts';

/**
 * 0034: what the span-taking digests had already covered counts as digested, so the first digest
 * after the upgrade (which looks back an hour) sends none of it again; what they had not yet
 * reached stays to be digested, and a company that never had a digest has nothing to send.
 */
test('0034 marks as digested what the old digests covered, and leaves what they had not reached', async () => {
  const t = await createTestApp();
  try {
    const db = t.c.database.db;
    const [digested, neverDigested] = [await createTenant(t.c), await createTenant(t.c)];
    const inquiry = async (d: typeof digested, subject: string) => {
      const res = await reachOut(t.app, d.locations[0]!.apiKey, validReachOut({ subject }));
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.id as string;
    };
    const covered = await inquiry(digested, 'covered');
    const pending = await inquiry(digested, 'pending');
    const other = await inquiry(neverDigested, 'no digest');

    // As before 0034: no column; the first company's last digest covered up to its first inquiry.
    await db.schema.alterTable('inquiries').dropColumn('digested_at').execute();
    const createdAt = async (id: string) =>
      (await db.selectFrom('inquiries').select('created_at').where('id', '=', id).executeTakeFirstOrThrow()).created_at;
    await db.deleteFrom('inquiry_digests').execute();
    await db
      .insertInto('inquiry_digests')
      .values({
        company_id: digested.companyId,
        due_at: null,
        covered_until: await createdAt(covered),
        last_sent_at: await createdAt(covered),
      })
      .execute();
    assert.ok((await createdAt(pending)) > (await createdAt(covered)));

    await up(db as unknown as Kysely<any>, t.c.database.engine);

    const marks = await db.selectFrom('inquiries').select(['id', 'digested_at', 'created_at']).execute();
    const digestedAt = (id: string) => marks.find((m) => m.id === id)!.digested_at;
    assert.equal(digestedAt(covered), await createdAt(covered), 'covered by the last digest');
    assert.equal(digestedAt(pending), null, 'after the last digest: the next one takes it');
    assert.equal(digestedAt(other), await createdAt(other), 'a company without digests');
  } finally {
    await t.close();
  }
});
