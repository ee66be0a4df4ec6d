// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { up } from '../../src/db/migrations/0032-photo-blobs.ts';

/**
 * 0032 (issue 37, item 4, dedupe): photos stored before it, their bytes in each inquiry's row,
 * move to one blob per company and content; a refusal stays a refusal.
 */
test('0032 moves stored photos into one blob per company and content, and keeps refusals', async () => {
  const t = await createTestApp();
  try {
    const db = t.c.database.db;
    const [one, two] = [await createTenant(t.c), await createTenant(t.c)];
    const inquiry = async (d: typeof one) => {
      const res = await reachOut(
        t.app,
        d.locations[0]!.apiKey,
        validReachOut({ productPhotoUrl: 'https://x.example/p' }),
      );
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.id as string;
    };
    const [a, b, c, d] = [await inquiry(one), await inquiry(one), await inquiry(one), await inquiry(two)];

    // The tables as they were before 0032.
    await db.schema.dropIndex('inquiry_photos_blob').execute();
    await db.schema.alterTable('inquiry_photos').dropColumn('sha256').execute();
    await db.schema.alterTable('inquiry_photos').dropColumn('removed_at').execute();
    await db.schema.alterTable('inquiry_photos').addColumn('content_type', 'text').execute();
    await db.schema
      .alterTable('inquiry_photos')
      .addColumn('bytes', t.c.database.engine === 'postgres' ? 'bytea' : 'blob')
      .execute();
    await db.schema.dropTable('inquiry_photo_blobs').execute();
    const picture = Buffer.from('\x89PNG\r\n\x1a\n-the same picture-', 'latin1');
    const old = db as unknown as import('kysely').Kysely<any>;
    const at = new Date().toISOString();
    const row = (inquiry_id: string, company_id: string, bytes: Buffer | null) => ({
      inquiry_id,
      company_id,
      content_type: bytes ? 'image/png' : null,
      bytes,
      failure: bytes ? null : 'the server answered HTTP 404',
      fetched_at: at,
    });
    await old
      .insertInto('inquiry_photos')
      .values([
        row(a, one.companyId, picture),
        row(b, one.companyId, picture),
        row(c, one.companyId, null),
        row(d, two.companyId, picture),
      ])
      .execute();

    await up(old, t.c.database.engine);

    const sha = createHash('sha256').update(picture).digest('hex');
    const blobs = await db
      .selectFrom('inquiry_photo_blobs')
      .select(['company_id', 'sha256', 'size', 'content_type'])
      .orderBy('company_id')
      .execute();
    assert.deepEqual(
      blobs.map((x) => ({ ...x, size: Number(x.size) })),
      [one.companyId, two.companyId]
        .sort()
        .map((company_id) => ({ company_id, sha256: sha, size: picture.length, content_type: 'image/png' })),
      'one blob per company for the same bytes',
    );
    for (const [d0, id] of [
      [one, a],
      [one, b],
      [two, d],
    ] as const) {
      const p = await t.c.inquiries.photo(d0.companyId, id);
      assert.ok(p.state === 'fetched' && p.bytes.equals(picture) && p.contentType === 'image/png', id);
    }
    assert.deepEqual(await t.c.inquiries.photo(one.companyId, c), {
      state: 'failed',
      reason: 'the server answered HTTP 404',
    });
    const columns = (await db.introspection.getTables()).find((x) => x.name === 'inquiry_photos')!.columns;
    assert.deepEqual(columns.map((x) => x.name).sort(), [
      'company_id',
      'failure',
      'fetched_at',
      'inquiry_id',
      'removed_at',
      'sha256',
    ]);
  } finally {
    await t.close();
  }
});
