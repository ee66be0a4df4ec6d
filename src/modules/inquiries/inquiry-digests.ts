import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { createPoller, type Poller } from '../../lib/poller.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory } from '../companies/index.ts';
import type { EmailOutbox } from '../notifications/index.ts';
import type { InquiryDigestsRepository } from './inquiry-digests.repository.ts';
import { DIGEST_LIST_MAX, digestEmails, type HubLinks } from './inquiry-digest-mail.ts';

type DigestRepos = {
  inquiryDigests: InquiryDigestsRepository;
  companies: Pick<CompanyDirectory, 'listMailRecipients'>;
  notifications: EmailOutbox;
};

/** Who is e-mailed about new inquiries: the roles that read and handle them. */
export const DIGEST_ROLES = ['admin', 'support'] as const;

/**
 * How far back a digest looks for inquiries not yet digested: the lower end of its index range
 * (`covered_until`), an hour before the company's first new inquiry, then an hour before each
 * digest. An inquiry takes its time before its group commit; none commits an hour later.
 */
export const DIGEST_LOOK_BACK_MS = 60 * 60 * 1000;

/**
 * Sends staff a digest of new inquiries per company: the first soon after a quiet spell, then at
 * most one per `windowMs`, each listing what came since the last (the first DIGEST_LIST_MAX, and
 * how many more), one e-mail per admin and support user in their language. A flood of inquiries
 * costs staff one e-mail per window, not one per inquiry and recipient.
 */
export function createInquiryDigests(deps: {
  store: Store<DigestRepos>;
  clock: Clock;
  newId: IdGenerator;
  windowMs: number;
  links: HubLinks;
  onEmailQueued: () => void;
  onError: (error: unknown) => void;
}): Poller {
  const { store, clock } = deps;
  async function tick(): Promise<boolean> {
    const now = clock.now();
    const due = await store.repos.inquiryDigests.due(
      now.toISOString(),
      new Date(now.getTime() - deps.windowMs).toISOString(),
      20,
    );
    let queued = false;
    for (const digest of due) {
      const sent = await store.unitOfWork(async (repos) => {
        // Taken first: the row stays locked until this commits, so an inquiry batch marking the
        // company due waits for it, and a later inquiry makes the next digest due (never neither).
        const lookBack = new Date(now.getTime() - DIGEST_LOOK_BACK_MS).toISOString();
        const coveredUntil = digest.covered_until > lookBack ? digest.covered_until : lookBack;
        const taken = await repos.inquiryDigests.take(digest, {
          coveredUntil,
          sentAt: now.toISOString(),
          nextDue: null,
        });
        if (!taken) return false; // another process took it
        const found = await repos.inquiryDigests.takeUndigested(
          digest.company_id,
          digest.covered_until,
          now.toISOString(),
          DIGEST_LIST_MAX,
        );
        if (found.total === 0) {
          // Nothing to send (they went to spam, or were deleted): the window is not spent.
          await repos.inquiryDigests.setLastSent(digest.company_id, digest.last_sent_at);
          return false;
        }
        const recipients = await repos.companies.listMailRecipients(digest.company_id, DIGEST_ROLES);
        for (const email of digestEmails(digest.company_id, found.rows, found.total, recipients, {
          now: now.toISOString(),
          newId: deps.newId,
          links: deps.links,
        }))
          await repos.notifications.insertEmail(email);
        return recipients.length > 0;
      });
      queued ||= sent;
    }
    if (queued) deps.onEmailQueued();
    return due.length === 20;
  }
  return createPoller({ tick, idleMs: Math.min(5_000, Math.max(250, deps.windowMs / 4)), onError: deps.onError });
}
