import { AppError } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { PendingHooks, Store } from '../../db/store.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import { locationNamesPart, recipientsPart, type CompanyDirectory, type Recipient } from '../companies/index.ts';
import type { EmailOutbox, NotificationRow } from '../notifications/index.ts';
import {
  enqueueEvent,
  outboxParts,
  outboxRows,
  subscriptionsPart,
  type EventOutbox,
  type OutboxEvent,
} from '../webhooks/index.ts';
import type { InquiryReply } from './inquiry-replies.ts';
import type { InquiriesRepository } from './inquiries.repository.ts';
import type { InquiryFilter, InquiryRow } from './types.ts';
import { createGroupCommit } from '../../lib/group-commit.ts';
import { inquiryNotifications } from './inquiry-notifications.ts';
import type { InquiryDigestsRepository } from './inquiry-digests.repository.ts';
import { digestEmails, type HubLinks } from './inquiry-digest-mail.ts';
import { DIGEST_LOOK_BACK_MS, DIGEST_ROLES } from './inquiry-digests.ts';
import type { ProofOfWork, SolvedProof } from './proof-of-work.ts';
import type { HostedCaptcha } from './hosted-captcha.ts';
import { spamCheckOf } from './spam-check.ts';
import type { Dispatcher } from 'undici';
import { createHash } from 'node:crypto';
import { fetchPhoto } from './product-photo.ts';
import type { InquiryBudget } from './inquiry-budget.ts';

/**
 * Inquiries, and who is told of them. The inquiries repository writes the staff's notifications
 * and e-mails with the inquiries, in one statement (see insertWithNotifications).
 */
type InquiriesRepos = {
  inquiries: InquiriesRepository;
  companies: CompanyDirectory;
  webhooks: EventOutbox;
  notifications: EmailOutbox;
  inquiryDigests: InquiryDigestsRepository;
};

// Who hears about a new inquiry; staff users do not.
const RECIPIENT_ROLES = ['admin', 'support'] as const;

export interface NewInquiry {
  topic: string;
  subject: string;
  message: string;
  email: string;
  phone: string;
  name?: string;
  productPhotoUrl?: string;
}

export interface Inquiry {
  id: string;
  locationId: string;
  topic: string;
  subject: string;
  message: string;
  email: string;
  phone: string;
  name: string | null;
  productPhotoUrl: string | null;
  createdAt: string;
  /** When and by which user it was marked handled in the hub; null while open. */
  handledAt: string | null;
  handledBy: string | null;
  /** `test` when sent with a test key: never notified, listed only among test data. */
  mode: 'live' | 'test';
  /** Held back as spam (why: `proof_of_work`): nobody told, shown in the spam folder until released. */
  spamReason: string | null;
}

interface PendingInquiry {
  row: InquiryRow;
  /** A web page's solved proof of work, spent in this inquiry's commit; a replay makes it spam there. */
  proof?: SolvedProof;
  /** The submitting request's commit hooks: the batch runs in another async context. */
  hooks: PendingHooks;
}

export function createInquiriesService(deps: {
  store: Store<InquiriesRepos>;
  clock: Clock;
  newId: IdGenerator;
  emailEnabled: boolean;
  /** Staff e-mails: a digest per window (inquiry-digests.ts), its links to the hub. */
  digest: { windowMs: number; links: HubLinks };
  onEmailQueued: () => void;
  onEventQueued: () => void;
  proofOfWork: ProofOfWork;
  /** Live inquiries per key and per company past which the rest are held as spam (`budget`). */
  budget?: InquiryBudget;
  /** A hosted captcha checked instead of the proof of work, when configured. */
  captcha?: HostedCaptcha;
  /** How product photos are fetched (the webhooks' guarded agent); without it they are not. */
  photos?: { agent: Dispatcher; allowPrivate: boolean; timeoutMs: number; quotaBytes: number };
  /** Days a photo is kept after its inquiry arrived (PRODUCT_PHOTO_RETENTION_DAYS); 0 keeps them. */
  photoRetentionDays?: number;
}) {
  const { store, clock, newId } = deps;

  /**
   * What a batch needs to know before its write, in one read (issue 37, item 9: three reads per
   * batch were most of what the contact form had become slower by): every admin and support user
   * of the rows' companies, the rows' location names and the companies' webhook subscriptions. It
   * is read before the write, as READ COMMITTED would see it at the start of the INSERT anyway;
   * the write then holds no lock while it waits for the read. An endpoint created while the
   * batch is in flight may miss it, as it would had it been created a moment later.
   */
  async function batchContext(rows: readonly InquiryRow[]) {
    const companies = [...new Set(rows.map((r) => r.company_id))];
    const [recipients, locations, subscriptions] = await store.repos.inquiries.readBatchContext([
      recipientsPart(companies, RECIPIENT_ROLES),
      locationNamesPart(rows.map((r) => ({ companyId: r.company_id, locationId: r.location_id }))),
      subscriptionsPart(companies),
    ]);
    return {
      told: notificationsFor(
        rows,
        recipients!
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map((u) => ({ id: u.id, company_id: u.company_id, email: u.value })),
      ),
      locations: new Map(locations!.map((l) => [`${l.company_id}\u0000${l.id}`, l.value])),
      subscriptions: subscriptions!,
    };
  }

  /**
   * A hub notification for every admin and support user of each inquiry's company, per inquiry
   * (one found to be a replayed proof of work is then left untold). E-mail is the digest's.
   */
  function notificationsFor(
    rows: readonly InquiryRow[],
    users: readonly Recipient[],
  ): Map<InquiryRow, NotificationRow[]> {
    const recipients = Map.groupBy(users, (user) => user.company_id);
    const out = new Map<InquiryRow, NotificationRow[]>();
    // A developer's test inquiry tells nobody, nor does one held back as spam (until released).
    for (const row of rows.filter((r) => r.mode === 'live' && r.spam_reason === null))
      out.set(row, inquiryNotifications(row, recipients.get(row.company_id) ?? [], { now: row.created_at, newId }));
    return out;
  }

  /**
   * Each company's digest comes due a little after its first new inquiry, to gather a burst into
   * one; a company's first digest looks back from that inquiry (inquiry-digests.ts).
   */
  function digestsDue(rows: readonly InquiryRow[]) {
    const gatherMs = Math.min(10_000, deps.digest.windowMs);
    const first = new Map<string, string>();
    for (const r of rows)
      if (!first.has(r.company_id) || r.created_at < first.get(r.company_id)!) first.set(r.company_id, r.created_at);
    const dueAt = new Date(clock.now().getTime() + gatherMs).toISOString();
    return [...first].map(([companyId, createdAt]) => ({
      companyId,
      dueAt,
      coveredUntil: new Date(Date.parse(createdAt) - DIGEST_LOOK_BACK_MS).toISOString(),
    }));
  }

  /** Marks the inquiries whose proof was spent before (or twice in this batch) as spam; in the batch's unit of work. */
  async function spendProofs(repos: InquiriesRepos, batch: readonly PendingInquiry[]): Promise<void> {
    const proofs = batch.flatMap((p) => (p.proof ? [p.proof] : []));
    if (proofs.length === 0) return;
    const fresh = await repos.inquiries.spendProofs(proofs);
    const taken = new Set<string>();
    for (const p of batch) {
      if (!p.proof) continue;
      if (fresh.has(p.proof.signature) && !taken.has(p.proof.signature)) taken.add(p.proof.signature);
      else p.row.spam_reason = 'proof_of_work';
    }
  }

  function inquiryEvent(row: InquiryRow, locations: Map<string, string>): OutboxEvent {
    return {
      companyId: row.company_id,
      locationId: row.location_id,
      livemode: row.mode !== 'test',
      type: 'inquiry.created',
      data: {
        inquiryId: row.id,
        topic: row.topic,
        subject: row.subject,
        name: row.name,
        email: row.email,
        phone: row.phone,
        locationName: locations.get(`${row.company_id}\u0000${row.location_id}`) ?? '',
      },
    };
  }

  // A contact form is the busiest write of the public API: concurrent inquiries share one
  // commit (group commit; one statement where the store can), so a burst costs one commit
  // instead of one each. On SQLite the batch commits on the event loop: a commit of a few dozen inquiries takes a few hundred
  // microseconds, less than handing it to another thread and waking this one again costs when
  // the cores are busy (measured; see bench/README.md).
  const writes = createGroupCommit<PendingInquiry, void>(
    async (batch) => {
      const rows = batch.map((p) => p.row);
      const { told, locations, subscriptions } = await batchContext(rows);
      const withProofs = batch.some((p) => p.proof);
      const announcing = rows.some((r) => r.spam_reason === null);
      let delivering = false;
      await store.unitOfWork(
        async (repos) => {
          // A web page's proofs are spent in the same commit as their inquiries: one write per burst.
          await spendProofs(repos, batch);
          const announced = rows.filter((r) => r.spam_reason === null);
          const kept = announced.flatMap((r) => told.get(r) ?? []);
          // inquiry.created commits with the inquiry (not for spam: its release announces it), in
          // the same statement on PostgreSQL.
          const outbox = outboxRows(
            announced.map((row) => inquiryEvent(row, locations)),
            subscriptions,
            { now: clock.now().toISOString(), newId },
          );
          await repos.inquiries.insertWithNotifications(rows, kept, [], outboxParts(outbox.events, outbox.deliveries));
          // Staff hear of them by e-mail in the next digest: one write per company and batch,
          // none while a digest is already due.
          if (deps.emailEnabled) await repos.inquiryDigests.markDue(digestsDue(announced.filter((r) => told.has(r))));
          delivering = outbox.deliveries.length > 0;
          if (delivering) await repos.webhooks.announce();
        },
        {
          creates: batch.map((p) => ({ id: p.row.id, hooks: p.hooks })),
          // One statement only when the inserts are all: no proof to spend, no digest to mark,
          // no endpoint to wake.
          oneStatement: !withProofs && (!announcing || (!deps.emailEnabled && subscriptions.length === 0)),
        },
      );
      // The dispatcher is woken for deliveries only: an event no endpoint wants has none.
      if (delivering) deps.onEventQueued();
      return batch.map(() => undefined);
    },
    { maxBatch: 64, maxInFlight: store.writeConcurrency },
  );

  // Photos are fetched after the inquiry is stored, off the request's path; close() waits for them.
  const fetching = new Set<Promise<void>>();
  function fetchPhotoOf(row: InquiryRow): void {
    const photos = deps.photos;
    if (!photos || !row.product_photo_url || row.spam_reason !== null) return;
    const work = (async () => {
      const result = await fetchPhoto(row.product_photo_url!, photos);
      const sha256 = result.ok ? createHash('sha256').update(result.bytes).digest('hex') : null;
      await store.transaction(async (repos) => {
        let failure = result.ok ? null : result.reason;
        // A company's photos are bounded as a whole (issue 37), each content counted once: the
        // same picture sent again costs nothing; past the quota a new one is not kept.
        if (result.ok && !(await repos.inquiries.hasPhotoBlob(row.company_id, sha256!))) {
          const kept = await repos.inquiries.photoBytes(row.company_id);
          if (kept + result.bytes.length > photos.quotaBytes)
            failure = `not stored: the company's photos take ${Math.ceil(kept / 1048576)} of its ${Math.floor(photos.quotaBytes / 1048576)} MB`;
        }
        const now = clock.now().toISOString();
        await repos.inquiries.insertPhoto(
          { inquiry_id: row.id, company_id: row.company_id, sha256: failure ? null : sha256, failure, fetched_at: now },
          result.ok && !failure
            ? { content_type: result.contentType, size: result.bytes.length, bytes: result.bytes, last_used_at: now }
            : null,
        );
      });
    })()
      .catch(() => {}) // the photo then shows as its link, "not fetched"
      .finally(() => fetching.delete(work));
    fetching.add(work);
  }

  return {
    /**
     * The inquiry, a notification for every admin and support user, their e-mails and the hooks
     * the request registered (its Idempotency-Key) commit together.
     */
    async create(
      caller: ApiCaller,
      input: NewInquiry,
      options: { spamReason?: string; proof?: SolvedProof } = {},
    ): Promise<Inquiry> {
      const row: InquiryRow = {
        id: newId('inquiry'),
        company_id: caller.companyId,
        location_id: caller.locationId,
        api_key_id: caller.apiKeyId,
        topic: input.topic,
        subject: input.subject,
        message: input.message,
        email: input.email,
        phone: input.phone,
        name: input.name ?? null,
        product_photo_url: input.productPhotoUrl ?? null,
        created_at: clock.now().toISOString(),
        handled_at: null,
        handled_by: null,
        mode: caller.mode ?? 'live',
        spam_reason: options.spamReason ?? null,
      };
      await writes.submit({ row, hooks: store.pendingHooks(), ...(options.proof ? { proof: options.proof } : {}) });
      fetchPhotoOf(row);
      return toInquiry(row);
    },

    /** Every test inquiry of the company, gone; how many. */
    async deleteTestData(companyId: string): Promise<number> {
      return store.repos.inquiries.deleteTest(companyId);
    },

    /**
     * An inquiry from the public API: from a web page (a publishable key) it must carry a solved
     * proof of work, or it is stored as spam (see spam-check.ts).
     */
    async receive(
      caller: ApiCaller,
      input: NewInquiry,
      from: { publishable: boolean; altcha?: string; captchaToken?: string; remoteIp?: string },
    ): Promise<Inquiry> {
      const checked = await spamCheckOf(
        { proofOfWork: deps.proofOfWork, captcha: deps.captcha },
        { ...from, companyId: caller.companyId },
      );
      if (checked.spamReason !== null) return this.create(caller, input, { spamReason: checked.spamReason });
      // Past its budget a live inquiry tells nobody: a flood reaches the spam folder, not mailboxes.
      if ((caller.mode ?? 'live') === 'live' && deps.budget && !deps.budget.take(caller.companyId, caller.apiKeyId))
        return this.create(caller, input, { spamReason: 'budget' });
      return this.create(caller, input, checked.proof ? { proof: checked.proof } : {});
    },

    /** What a bot that filled the honeypot is answered with: an inquiry's shape, never stored. */
    decoy(caller: ApiCaller, input: NewInquiry): Inquiry {
      return {
        id: newId('inquiry'),
        locationId: caller.locationId,
        topic: input.topic,
        subject: input.subject,
        message: input.message,
        email: input.email,
        phone: input.phone,
        name: input.name ?? null,
        productPhotoUrl: input.productPhotoUrl ?? null,
        createdAt: clock.now().toISOString(),
        handledAt: null,
        handledBy: null,
        mode: caller.mode ?? 'live',
        spamReason: null,
      };
    },

    challenge: (companyId: string) => deps.proofOfWork.challenge(companyId),

    /**
     * The product photo as fetched by the server: the image, why it could not be fetched, or
     * not (yet) fetched. Staff see this, never the sender's URL loaded by their browser.
     */
    async photo(
      companyId: string,
      id: string,
    ): Promise<
      | { state: 'fetched'; contentType: string; bytes: Buffer }
      | { state: 'failed'; reason: string }
      | { state: 'removed'; days: number }
      | { state: 'none' }
    > {
      const row = await store.repos.inquiries.findPhoto(companyId, id);
      if (!row) return { state: 'none' };
      if (row.bytes && row.content_type)
        return { state: 'fetched', contentType: row.content_type, bytes: Buffer.from(row.bytes) };
      if (row.removed_at) return { state: 'removed', days: deps.photoRetentionDays ?? 0 };
      return { state: 'failed', reason: row.failure ?? 'not fetched' };
    },

    /**
     * The photos' retention (issue 37, item 4): an inquiry's photo goes PRODUCT_PHOTO_RETENTION_DAYS
     * after the inquiry arrived, and an image no inquiry names any more (expired, or its inquiries
     * were test data and deleted) is deleted once it has not been given to one for `graceMs`.
     */
    async expirePhotos(graceMs = 3_600_000): Promise<{ removed: number; deleted: number }> {
      const now = clock.now();
      const days = deps.photoRetentionDays ?? 0;
      const removed =
        days > 0
          ? await store.repos.inquiries.removePhotosBefore(
              new Date(now.getTime() - days * 86_400_000).toISOString(),
              now.toISOString(),
            )
          : 0;
      const deleted = await store.repos.inquiries.deleteUnusedPhotoBlobs(
        new Date(now.getTime() - graceMs).toISOString(),
      );
      return { removed, deleted };
    },

    /** Waits for queued writes and photo fetches. */
    async close(): Promise<void> {
      await writes.drain();
      await Promise.all(fetching);
    },

    /** With `mode`, one of the other mode is not found (a test key never reads live data). */
    async get(companyId: string, id: string, mode?: 'live' | 'test'): Promise<Inquiry> {
      const row = await store.repos.inquiries.find(companyId, id, mode);
      if (!row) throw AppError.notFound('Inquiry');
      return toInquiry(row);
    },

    async list(
      companyId: string,
      opts: { limit: number; before?: { createdAt: string; id: string } },
      filter: InquiryFilter = {},
    ): Promise<Inquiry[]> {
      return (await store.repos.inquiries.list(companyId, opts, filter)).map(toInquiry);
    },

    /** How many are not handled yet, up to COUNT_CAP (src/db/capped-count.ts). */
    async countOpen(companyId: string): Promise<number> {
      return store.repos.inquiries.countOpen(companyId);
    },

    /**
     * A false positive out of the spam folder: from now on an inquiry like any other, and its
     * admin and support users are told of it then, in the same unit of work.
     */
    async release(companyId: string, id: string): Promise<Inquiry> {
      const row = await store.repos.inquiries.find(companyId, id);
      if (!row) throw AppError.notFound('Inquiry');
      if (row.spam_reason === null) return toInquiry(row);
      const released: InquiryRow = { ...row, spam_reason: null };
      const { told, locations } = await batchContext([released]);
      const notifications = told.get(released) ?? [];
      // Released by hand, one at a time: its e-mail is a digest of one, sent now.
      const emails = deps.emailEnabled
        ? digestEmails(
            companyId,
            [released],
            1,
            await store.repos.companies.listMailRecipients(companyId, DIGEST_ROLES),
            {
              now: clock.now().toISOString(),
              newId,
              links: deps.digest.links,
            },
          )
        : [];
      const changed = await store.unitOfWork(async (repos) => {
        if (!(await repos.inquiries.release(companyId, id))) return false; // released meanwhile
        await repos.inquiries.insertWithNotifications([], notifications, []);
        for (const email of emails) await repos.notifications.insertEmail(email);
        await enqueueEvent(repos, inquiryEvent(released, locations), { now: clock.now().toISOString(), newId });
        return true;
      });
      if (changed && emails.length > 0) deps.onEmailQueued();
      if (changed) deps.onEventQueued();
      if (changed) fetchPhotoOf(released);
      return toInquiry(released);
    },

    /** Open again, to be handled anew. */
    async reopen(companyId: string, id: string): Promise<Inquiry> {
      if (!(await store.repos.inquiries.find(companyId, id))) throw AppError.notFound('Inquiry');
      await store.repos.inquiries.reopen(companyId, id);
      return toInquiry((await store.repos.inquiries.find(companyId, id))!);
    },

    /**
     * A reply written in the hub: kept on the inquiry with its author, e-mailed to the inquirer
     * from the outbox (Reply-To: the shop's address), and the inquiry marked handled, together.
     */
    async reply(
      actor: { companyId: string; userId: string },
      id: string,
      message: string,
      mail: { replyTo: string | null; subject: string; quoteIntro: string | null },
    ): Promise<InquiryReply> {
      const row = await store.repos.inquiries.find(actor.companyId, id);
      if (!row) throw AppError.notFound('Inquiry');
      const text = message.trim();
      if (text === '') throw AppError.invalid({ message: [said('error.inquiry.emptyReply')] });
      if (row.spam_reason !== null) throw new AppError('conflict', said('error.inquiry.releaseFirst'));
      if (!deps.emailEnabled) throw new AppError('unavailable', said('error.mail.notConfigured'));
      const now = clock.now().toISOString();
      const replyId = newId('inquiryReply');
      const emailId = newId('email');
      // The customer's own words below the reply, quoted as e-mail clients do.
      const quoted = row.message
        .split('\n')
        .map((l) => `> ${l}`)
        .join('\n');
      await store.unitOfWork(async (repos) => {
        await repos.notifications.insertEmail({
          id: emailId,
          company_id: actor.companyId,
          to_address: row.email,
          subject: mail.subject.replace(/[\r\n]+/g, ' '),
          text_body: `${text}\n\n${mail.quoteIntro ? `${mail.quoteIntro}\n` : ''}${quoted}\n`,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          locked_until: null,
          last_error: null,
          sent_at: null,
          created_at: now,
          reply_to: mail.replyTo,
          attachments: null,
          smtp_response: null,
        });
        await repos.inquiries.insertReply({
          id: replyId,
          company_id: actor.companyId,
          inquiry_id: id,
          message: text,
          author_id: actor.userId,
          email_id: emailId,
          created_at: now,
        });
        await repos.inquiries.markHandled(actor.companyId, id, actor.userId, now);
      });
      deps.onEmailQueued();
      return (await this.replies(actor.companyId, id)).find((r) => r.id === replyId)!;
    },

    async replies(companyId: string, id: string): Promise<InquiryReply[]> {
      return (await store.repos.inquiries.listReplies(companyId, id)).map((r) => ({
        id: r.id,
        message: r.message,
        author: { id: r.author_id, name: r.author_name },
        createdAt: r.created_at,
        emailStatus: r.email_status === 'sent' ? 'sent' : r.email_status === 'failed' ? 'failed' : 'pending',
        lastError: r.last_error,
      }));
    },

    /** Marks it handled by the user; one already handled keeps its first handler. */
    async markHandled(companyId: string, id: string, userId: string): Promise<Inquiry> {
      if (!(await store.repos.inquiries.find(companyId, id))) throw AppError.notFound('Inquiry');
      await store.repos.inquiries.markHandled(companyId, id, userId, clock.now().toISOString());
      return toInquiry((await store.repos.inquiries.find(companyId, id))!);
    },
  };
}
export type InquiriesService = ReturnType<typeof createInquiriesService>;

function toInquiry(row: InquiryRow): Inquiry {
  return {
    id: row.id,
    locationId: row.location_id,
    topic: row.topic,
    subject: row.subject,
    message: row.message,
    email: row.email,
    phone: row.phone,
    name: row.name,
    productPhotoUrl: row.product_photo_url,
    createdAt: row.created_at,
    handledAt: row.handled_at,
    handledBy: row.handled_by,
    mode: row.mode === 'test' ? 'test' : 'live',
    spamReason: row.spam_reason,
  };
}
