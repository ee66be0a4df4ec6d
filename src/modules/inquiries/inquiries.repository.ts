import { sql, type SqlBool } from 'kysely';
import type { Engine, Executor } from '../../db/database.ts';
import {
  allColumns,
  insertTogether,
  readTogether,
  type ReadPart,
  type TableRows,
} from '../../db/written-statements.ts';
import { newestFirst, type NewestFirstPage } from '../../db/keyset.ts';
import { cappedCount } from '../../db/capped-count.ts';
import type { InquiryPhotoBlobsTable, InquiryPhotosTable, InquiryRepliesTable } from '../../db/schema.ts';
import { notificationParts, type EmailMessageRow, type NotificationRow } from '../notifications/index.ts';
import type { InquiryFilter, InquiryRow } from './types.ts';

const INQUIRY_COLUMNS = allColumns<InquiryRow>()([
  'id',
  'company_id',
  'location_id',
  'api_key_id',
  'topic',
  'subject',
  'message',
  'email',
  'phone',
  'name',
  'product_photo_url',
  'created_at',
  'handled_at',
  'handled_by',
  'mode',
  'spam_reason',
]);

export function createInquiriesRepository(db: Executor, engine: Engine) {
  return {
    /**
     * A group-committed batch of inquiries with their notifications and e-mails, and the outbox's
     * rows (`outbox`: the webhooks module's outboxParts), as one unit (insertTogether): one
     * statement on PostgreSQL; on SQLite, call it inside a transaction.
     */
    async insertWithNotifications(
      rows: readonly InquiryRow[],
      notifications: readonly NotificationRow[],
      emails: readonly EmailMessageRow[],
      outbox: readonly TableRows[] = [],
    ): Promise<void> {
      await insertTogether(db, engine, [
        { table: 'inquiries', columns: INQUIRY_COLUMNS, rows },
        ...notificationParts(notifications, emails),
        ...outbox,
      ]);
    },
    /**
     * What a batch of inquiries needs to know before it is written (its recipients, location
     * names and webhook subscriptions: the other modules' parts), in one statement.
     */
    async readBatchContext(parts: readonly ReadPart[]) {
      return readTogether(db, engine, parts);
    },
    async find(companyId: string, id: string, mode?: 'live' | 'test'): Promise<InquiryRow | undefined> {
      return db
        .selectFrom('inquiries')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .$if(mode !== undefined, (q) => q.where('mode', '=', mode!))
        .executeTakeFirst();
    },
    /**
     * Newest first. The state and dates narrow the index range (open ones have their own
     * index); topic and `q` (a substring) are checked on the rows walked in that order, so the
     * walk stops as soon as a page is full.
     */
    async list(companyId: string, page: NewestFirstPage, filter: InquiryFilter = {}): Promise<InquiryRow[]> {
      const like = filter.q ? `%${filter.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : undefined;
      const query = db
        .selectFrom('inquiries')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('mode', '=', filter.mode ?? 'live')
        .where('spam_reason', filter.folder === 'spam' ? 'is not' : 'is', null)
        .$if(filter.topic !== undefined, (q) => q.where('topic', '=', filter.topic!))
        .$if(filter.state === 'open', (q) => q.where('handled_at', 'is', null))
        .$if(filter.state === 'handled', (q) => q.where('handled_at', 'is not', null))
        .$if(filter.from !== undefined, (q) => q.where('created_at', '>=', filter.from!))
        .$if(filter.to !== undefined, (q) => q.where('created_at', '<', filter.to!))
        .$if(like !== undefined, (q) =>
          q.where(
            sql<SqlBool>`(lower(subject) like ${like} escape '\\' or lower(email) like ${like} escape '\\' or lower(coalesce(name, '')) like ${like} escape '\\')`,
          ),
        );
      return newestFirst(query, page).execute();
    },

    /** Open (unhandled) inquiries, counted up to COUNT_CAP. */
    async countOpen(companyId: string): Promise<number> {
      return cappedCount(
        db,
        db
          .selectFrom('inquiries')
          .select('id')
          .where('company_id', '=', companyId)
          .where('handled_at', 'is', null)
          .where('mode', '=', 'live')
          .where('spam_reason', 'is', null),
      );
    },

    /** Out of the spam folder; false if it was not in it. */
    async release(companyId: string, id: string): Promise<boolean> {
      const result = await db
        .updateTable('inquiries')
        .set({ spam_reason: null })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('spam_reason', 'is not', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Spends solved proof-of-work challenges in one statement: the signatures seen for the first
     * time (a replay, until it expires, is not among them). Not a company's record: a challenge
     * is signed with the deployment's key, so one solution must not pass twice, whichever
     * company's form it reaches.
     */
    async spendProofs(proofs: ReadonlyArray<{ signature: string; expiresAt: string }>): Promise<Set<string>> {
      if (proofs.length === 0) return new Set();
      const rows = await db
        .insertInto('used_proofs')
        .values(proofs.map((p) => ({ signature: p.signature, expires_at: p.expiresAt })))
        .onConflict((oc) => oc.columns(['expires_at', 'signature']).doNothing())
        .returning('signature')
        .execute();
      return new Set(rows.map((r) => r.signature));
    },

    /** Forgets spent challenges that have expired (a replay of one fails its expiry check anyway). */
    async pruneProofs(now: string): Promise<void> {
      await db.deleteFrom('used_proofs').where('expires_at', '<=', now).execute();
    },

    /**
     * An inquiry's photo: the image it names (its bytes stored once per company and content,
     * `blob`), or why none is kept. Call inside a transaction: the blob's `last_used_at` is set in
     * the same commit that names it, so the sweep (deleteUnusedPhotoBlobs) cannot take it between.
     */
    async insertPhoto(
      row: Omit<InquiryPhotosTable, 'removed_at'>,
      blob: Omit<InquiryPhotoBlobsTable, 'company_id' | 'sha256'> | null,
    ): Promise<void> {
      if (blob && row.sha256)
        await db
          .insertInto('inquiry_photo_blobs')
          .values({ ...blob, company_id: row.company_id, sha256: row.sha256 })
          .onConflict((oc) =>
            oc.columns(['company_id', 'sha256']).doUpdateSet({ last_used_at: (eb) => eb.ref('excluded.last_used_at') }),
          )
          .execute();
      await db
        .insertInto('inquiry_photos')
        .values({ ...row, removed_at: null })
        .onConflict((oc) => oc.column('inquiry_id').doNothing())
        .execute();
    },

    /** The bytes of the company's stored photos, each content once (what its quota counts). */
    async photoBytes(companyId: string): Promise<number> {
      const row = await db
        .selectFrom('inquiry_photo_blobs')
        .select(sql<number>`coalesce(sum(size), 0)`.as('total'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return Number(row.total);
    },

    /** Whether the company already keeps these bytes (a photo of them then costs its quota nothing). */
    async hasPhotoBlob(companyId: string, sha256: string): Promise<boolean> {
      const row = await db
        .selectFrom('inquiry_photo_blobs')
        .select('size')
        .where('company_id', '=', companyId)
        .where('sha256', '=', sha256)
        .executeTakeFirst();
      return row !== undefined;
    },

    async findPhoto(companyId: string, inquiryId: string) {
      return db
        .selectFrom('inquiry_photos')
        .leftJoin('inquiry_photo_blobs as b', (j) =>
          j.onRef('b.company_id', '=', 'inquiry_photos.company_id').onRef('b.sha256', '=', 'inquiry_photos.sha256'),
        )
        .select([
          'inquiry_photos.failure',
          'inquiry_photos.fetched_at',
          'inquiry_photos.removed_at',
          'b.content_type',
          'b.bytes',
        ])
        .where('inquiry_photos.company_id', '=', companyId)
        .where('inquiry_photos.inquiry_id', '=', inquiryId)
        .executeTakeFirst();
    },

    /**
     * The retention: photos of inquiries that arrived before `cutoff` no longer name their image
     * (marked removed at `now`). Every company's, in one statement (a maintenance sweep).
     */
    async removePhotosBefore(cutoff: string, now: string): Promise<number> {
      const result = await db
        .updateTable('inquiry_photos')
        .set({ sha256: null, removed_at: now })
        .where('sha256', 'is not', null)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('inquiries')
              .select(sql`1`.as('one'))
              .whereRef('inquiries.company_id', '=', 'inquiry_photos.company_id')
              .whereRef('inquiries.id', '=', 'inquiry_photos.inquiry_id')
              .where('inquiries.created_at', '<', cutoff),
          ),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    /**
     * Deletes the images no inquiry names any more and none was given since `usedBefore` (a blob
     * being given to a photo right now has a fresh `last_used_at`, set in that commit).
     */
    async deleteUnusedPhotoBlobs(usedBefore: string): Promise<number> {
      const result = await db
        .deleteFrom('inquiry_photo_blobs')
        .where('last_used_at', '<', usedBefore)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('inquiry_photos as p')
                .select(sql`1`.as('one'))
                .whereRef('p.company_id', '=', 'inquiry_photo_blobs.company_id')
                .whereRef('p.sha256', '=', 'inquiry_photo_blobs.sha256'),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    async deleteTest(companyId: string): Promise<number> {
      await db
        .deleteFrom('inquiry_photos')
        .where('company_id', '=', companyId)
        .where(
          'inquiry_id',
          'in',
          db.selectFrom('inquiries').select('id').where('company_id', '=', companyId).where('mode', '=', 'test'),
        )
        .execute();
      const result = await db
        .deleteFrom('inquiries')
        .where('company_id', '=', companyId)
        .where('mode', '=', 'test')
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Only an open one changes: of two people marking it at once, the first one's name stays. */
    async markHandled(companyId: string, id: string, userId: string, at: string): Promise<void> {
      await db
        .updateTable('inquiries')
        .set({ handled_at: at, handled_by: userId })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .where('handled_at', 'is', null)
        .execute();
    },

    /** Open again: a reply of the customer's came back, or it was marked handled too soon. */
    async reopen(companyId: string, id: string): Promise<void> {
      await db
        .updateTable('inquiries')
        .set({ handled_at: null, handled_by: null })
        .where('company_id', '=', companyId)
        .where('id', '=', id)
        .execute();
    },

    async insertReply(row: InquiryRepliesTable): Promise<void> {
      await db.insertInto('inquiry_replies').values(row).execute();
    },

    /** An inquiry's replies, oldest first, with their authors' names and their e-mails' state. */
    async listReplies(companyId: string, inquiryId: string) {
      return db
        .selectFrom('inquiry_replies')
        .innerJoin('users', (j) =>
          j
            .onRef('users.id', '=', 'inquiry_replies.author_id')
            .onRef('users.company_id', '=', 'inquiry_replies.company_id'),
        )
        .leftJoin('email_messages', 'email_messages.id', 'inquiry_replies.email_id')
        .selectAll('inquiry_replies')
        .select(['users.name as author_name', 'email_messages.status as email_status', 'email_messages.last_error'])
        .where('inquiry_replies.company_id', '=', companyId)
        .where('inquiry_replies.inquiry_id', '=', inquiryId)
        .orderBy('inquiry_replies.created_at')
        .orderBy('inquiry_replies.id')
        .execute();
    },
  };
}
export type InquiriesRepository = ReturnType<typeof createInquiriesRepository>;
