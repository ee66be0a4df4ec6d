import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Engine } from '../database.ts';
import { columnTypes } from './column-types.ts';

/**
 * Product photos stored once per company and content (issue 37, item 4: "dedupe by hash").
 *
 * A photo's bytes move from `inquiry_photos` to `inquiry_photo_blobs`, keyed by (company,
 * SHA-256 of the bytes as stored); an inquiry's photo row names its blob. The same picture sent
 * with forty inquiries is one blob, and a company's quota counts each blob once. A blob no
 * inquiry names any more (its inquiries' photos expired, or they were test data and deleted) is
 * deleted by the hourly sweep, once `last_used_at` is older than the sweep's grace: each store of
 * a photo sets it, in the transaction that names the blob, so a sweep never deletes a blob an
 * inquiry is being given. `removed_at` marks a photo taken away by the retention
 * (PRODUCT_PHOTO_RETENTION_DAYS), so staff are told why it is gone rather than "not fetched".
 *
 * Photos stored before this migration are hashed and moved here, in batches.
 */
export async function up(db: Kysely<any>, engine: Engine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('inquiry_photo_blobs')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('bytes', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('inquiry_photo_blobs_pkey', ['company_id', 'sha256'])
    .execute();
  await db.schema.alterTable('inquiry_photos').addColumn('sha256', 'text').execute();
  await db.schema.alterTable('inquiry_photos').addColumn('removed_at', t.timestamp).execute();
  // The sweep asks, per blob, whether any photo still names it.
  await db.schema.createIndex('inquiry_photos_blob').on('inquiry_photos').columns(['company_id', 'sha256']).execute();

  let after = '';
  for (;;) {
    const rows: { inquiry_id: string; company_id: string; content_type: string | null; bytes: Uint8Array | null }[] =
      await db
        .selectFrom('inquiry_photos')
        .select(['inquiry_id', 'company_id', 'content_type', 'bytes'])
        .where('inquiry_id', '>', after)
        .where('bytes', 'is not', null)
        .orderBy('inquiry_id')
        .limit(64)
        .execute();
    if (rows.length === 0) break;
    for (const row of rows) {
      const bytes = Buffer.from(row.bytes!);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await db
        .insertInto('inquiry_photo_blobs')
        .values({
          company_id: row.company_id,
          sha256,
          content_type: row.content_type ?? 'application/octet-stream',
          size: bytes.length,
          bytes,
          last_used_at: new Date().toISOString(),
        })
        .onConflict((oc) => oc.columns(['company_id', 'sha256']).doNothing())
        .execute();
      await db
        .updateTable('inquiry_photos')
        .set({ sha256 })
        .where('company_id', '=', row.company_id)
        .where('inquiry_id', '=', row.inquiry_id)
        .execute();
    }
    after = rows.at(-1)!.inquiry_id;
  }
  await db.schema.alterTable('inquiry_photos').dropColumn('bytes').execute();
  await db.schema.alterTable('inquiry_photos').dropColumn('content_type').execute();
}
