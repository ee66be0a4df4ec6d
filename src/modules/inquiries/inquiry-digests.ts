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
 * Inquiries committed this long ago or more are the digest's; younger ones wait for the next.
 * A batch takes its creation time before its commit, so a digest read at `now` could miss one
 * still committing with an earlier time; none takes seconds to commit.
 */
const SETTLE_MS = 2_000;

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
      const upTo = new Date(now.getTime() - SETTLE_MS).toISOString();
      const sent = await store.unitOfWork(async (repos) => {
        const found = await repos.inquiryDigests.inquiriesBetween(
          digest.company_id,
          digest.covered_until,
          upTo,
          DIGEST_LIST_MAX,
        );
        // Inquiries younger than the settle time are the next digest's, due once the window passes.
        const nextDue = found.later ? now.toISOString() : null;
        if (found.total === 0) {
          if (!found.later)
            await repos.inquiryDigests.take(digest, { coveredUntil: upTo, sentAt: digest.last_sent_at, nextDue: null });
          return false;
        }
        const taken = await repos.inquiryDigests.take(digest, {
          coveredUntil: upTo,
          sentAt: now.toISOString(),
          nextDue,
        });
        if (!taken) return false; // another process took it
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
