import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Repositories, Store } from '../../db/store.ts';
import type { ApiCaller } from '../api-keys/index.ts';
import type { InquiryRow } from './inquiries.repository.ts';
import { inquiryNotifications } from '../notifications/inquiry-notifications.ts';

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

export function createInquiriesService(deps: {
  store: Store;
  clock: Clock;
  newId: IdGenerator;
  emailEnabled: boolean;
  onEmailQueued: () => void;
}) {
  const { store, clock, newId } = deps;

  return {
    /** The inquiry, a notification for every admin and support user, and their e-mails commit together. */
    async create(caller: ApiCaller, input: NewInquiry, beforeCommit?: BeforeCommit): Promise<Inquiry> {
      const now = clock.now().toISOString();
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
        created_at: now,
      };
      const queuedEmails = await store.transaction(async (repos) => {
        await repos.inquiries.insert(row);
        const recipients = await repos.companies.listUsersWithRoles(caller.companyId, ['admin', 'support']);
        const { notifications, emails } = inquiryNotifications(row, recipients, { now, newId, withEmail: deps.emailEnabled });
        await repos.notifications.insertNotifications(notifications);
        await repos.notifications.insertEmails(emails);
        await beforeCommit?.(repos, row.id);
        return emails.length;
      });
      if (queuedEmails > 0) deps.onEmailQueued();
      return toInquiry(row);
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
