import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Repositories, Store } from '../../db/store.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import type { InquiryRow } from './inquiries.repository.ts';
import { createGroupCommit } from '../../lib/group-commit.ts';
import { writeInquiries } from './write-inquiries.ts';
import type { InquiryWriterThread } from './inquiry-writer.ts';

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
}

/** Runs inside the creating transaction, after the record is written (idempotency bookkeeping). */
export type BeforeCommit = (repos: Repositories, resourceId: string) => Promise<void>;

interface PendingInquiry {
  row: InquiryRow;
  beforeCommit?: BeforeCommit;
}

export function createInquiriesService(deps: {
  store: Store;
  clock: Clock;
  newId: IdGenerator;
  emailEnabled: boolean;
  onEmailQueued: () => void;
  /** SQLite: where batches are committed off the event loop. */
  writerThread?: InquiryWriterThread | null;
}) {
  const { store, clock, newId } = deps;
  const writerThread = deps.writerThread ?? null;

  // A contact form is the busiest write of the public API: concurrent inquiries share one
  // transaction (group commit), so a burst costs one commit instead of one each.
  const writes = createGroupCommit<PendingInquiry, void>(async (batch) => {
    const rows = batch.map((p) => p.row);
    // Idempotency bookkeeping is a callback into this thread's transaction, so such batches
    // (rare) are written here; so is everything if the writer thread has died.
    const queuedEmails = writerThread && !batch.some((p) => p.beforeCommit) && !writerThread.failed()
      ? await writerThread.write(rows, deps.emailEnabled)
      : await store.transaction(async (repos) => {
          const queued = await writeInquiries(repos, rows, { newId, withEmail: deps.emailEnabled });
          for (const p of batch) await p.beforeCommit?.(repos, p.row.id);
          return queued;
        });
    if (queuedEmails > 0) deps.onEmailQueued();
    return batch.map(() => undefined);
    // PostgreSQL has a pool; the SQLite writer thread takes the next batch while one commits.
  }, { maxBatch: 64, maxInFlight: store.engine === 'postgres' ? 4 : writerThread ? 2 : 1 });

  return {
    /** The inquiry, a notification for every admin and support user, and their e-mails commit together. */
    async create(caller: ApiCaller, input: NewInquiry, beforeCommit?: BeforeCommit): Promise<Inquiry> {
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
      };
      await writes.submit({ row, ...(beforeCommit ? { beforeCommit } : {}) });
      return toInquiry(row);
    },

    /** Waits for queued writes, then stops the writer thread. */
    async close(): Promise<void> {
      await writes.drain();
      await writerThread?.close();
    },

    async get(companyId: string, id: string): Promise<Inquiry> {
      const row = await store.repos.inquiries.find(companyId, id);
      if (!row) throw AppError.notFound('Inquiry');
      return toInquiry(row);
    },

    async list(companyId: string, opts: { limit: number; before?: { createdAt: string; id: string } }): Promise<Inquiry[]> {
      return (await store.repos.inquiries.list(companyId, opts)).map(toInquiry);
    },
  };
}
export type InquiriesService = ReturnType<typeof createInquiriesService>;

function toInquiry(row: InquiryRow): Inquiry {
  return {
    id: row.id, locationId: row.location_id, topic: row.topic, subject: row.subject, message: row.message,
    email: row.email, phone: row.phone, name: row.name, productPhotoUrl: row.product_photo_url, createdAt: row.created_at,
  };
}
