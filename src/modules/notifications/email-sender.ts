import type { Transporter } from 'nodemailer';
import type { Clock } from '../../lib/clock.ts';
import { createPoller, type Poller } from '../../lib/poller.ts';
import type { Store } from '../../db/store.ts';
import type { NotificationsRepository } from './notifications.repository.ts';

// A mail server that is down for a while must not lose mail: retry for about a day.
const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000];
const BATCH = 10;
// The container gives the transport 10 s to connect and 20 s of socket silence, so a batch
// ends well within its lease and no other sender can take (and send again) its e-mails.
const LEASE_MS = 10 * 60_000;

export interface EmailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Sends queued e-mails after their transaction committed, with retries; never on a request's path. */
export function createEmailSender(deps: {
  store: Store<{ notifications: NotificationsRepository }>;
  clock: Clock;
  transport: Transporter;
  from: string;
  logger: EmailLogger;
  retryDelaysMs?: readonly number[];
}): Poller {
  const { store, clock, transport, logger } = deps;
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;

  async function tick(): Promise<boolean> {
    const now = clock.now();
    const lease = new Date(now.getTime() + LEASE_MS).toISOString();
    const batch = await store.repos.notifications.claimDueEmails(now.toISOString(), lease, BATCH);
    for (const email of batch) {
      const attempts = email.attempts + 1;
      try {
        await transport.sendMail({
          from: deps.from,
          to: email.to_address,
          subject: email.subject,
          text: email.text_body,
        });
        await store.repos.notifications.finishEmail(email.id, lease, {
          status: 'sent',
          attempts,
          next_attempt_at: email.next_attempt_at,
          last_error: null,
          sent_at: clock.now().toISOString(),
        });
        logger.info({ emailId: email.id, attempts }, 'e-mail sent');
      } catch (error) {
        const delay = delays[attempts - 1];
        const message = error instanceof Error ? error.message : String(error);
        await store.repos.notifications.finishEmail(email.id, lease, {
          status: delay === undefined ? 'failed' : 'pending',
          attempts,
          next_attempt_at: new Date(clock.now().getTime() + (delay ?? 0)).toISOString(),
          last_error: message.slice(0, 500),
          sent_at: null,
        });
        logger.warn(
          { emailId: email.id, attempts, err: message },
          delay === undefined ? 'e-mail failed for good' : 'e-mail failed, will retry',
        );
      }
    }
    return batch.length === BATCH;
  }

  return createPoller({
    tick,
    idleMs: 5_000,
    onError: (error) => logger.error({ err: error }, 'e-mail sender tick failed'),
  });
}
