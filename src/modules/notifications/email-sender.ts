import type { Transporter } from 'nodemailer';
import type { Clock } from '../../lib/clock.ts';
import { createPoller, type Poller } from '../../lib/poller.ts';
import type { Store } from '../../db/store.ts';
import type { NotificationsRepository } from './notifications.repository.ts';
import type { EmailMessageRow } from './types.ts';

// A mail server that is down for a while must not lose mail: retry for about a day.
const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000];
// The container gives the transport 10 s to connect and 20 s of socket silence, so a batch
// ends well within its lease and no other sender can take (and send again) its e-mails.
const LEASE_MS = 10 * 60_000;

export interface EmailLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * An attachment as the outbox keeps it: which document, as which file (its PDF in a language,
 * with its datasheets or not, or a sale's e-invoice XML). It is rendered when the e-mail is
 * sent, from the stored document.
 */
export interface MailAttachment {
  document: 'quotation' | 'sale';
  companyId: string;
  id: string;
  locale: string;
  datasheets: boolean;
  /** Absent (rows queued before e-invoices were attached) or `pdf`: the print; `e-invoice`: the sale's UBL XML. */
  file?: 'pdf' | 'e-invoice';
}

/** Renders an attachment's recipe into a file with its own name and type; the container wires the renderers in. */
export type AttachmentRenderer = (
  recipe: MailAttachment,
) => Promise<{ filename: string; content: Buffer; contentType: string }>;

/** An SMTP answer in the 500s refuses the message for good (RFC 5321 §4.2.1): retrying cannot help. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/**
 * Each e-mail's Message-ID is made from its outbox id, so every attempt of one e-mail (a retry
 * after a crash between the server's "250" and our record of it) carries the same one, and a
 * receiving server or client sees one message, not two.
 */
export function messageIdOf(email: Pick<EmailMessageRow, 'id'>, domain: string): string {
  return `<${email.id}@${domain}>`;
}

/** How many e-mails of each lane are sent at once by one process. */
export interface SendLanes {
  customer: number;
  staff: number;
}

/**
 * Sends queued e-mails after their transaction committed, with retries; never on a request's
 * path. Two lanes, each claimed and sent apart with its own bound of e-mails in flight: the
 * customers' documents and replies, and the staff's inquiry digests, so a slow mail server
 * busy with the one never holds up the other.
 */
export function createEmailSender(deps: {
  store: Store<{ notifications: NotificationsRepository }>;
  clock: Clock;
  transport: Transporter;
  from: string;
  logger: EmailLogger;
  retryDelaysMs?: readonly number[];
  renderAttachment?: AttachmentRenderer;
  lanes?: SendLanes;
}): Poller {
  const { store, clock, transport, logger } = deps;
  const delays = deps.retryDelaysMs ?? RETRY_DELAYS_MS;
  const domain = /@([^>\s]+)>?\s*$/.exec(deps.from)?.[1] ?? 'portico.localhost';
  const bounds: SendLanes = deps.lanes ?? { customer: 4, staff: 2 };
  const inFlight: SendLanes = { customer: 0, staff: 0 };
  const sending = new Set<Promise<void>>();

  async function attachmentsOf(email: EmailMessageRow) {
    if (!email.attachments) return [];
    const recipes = JSON.parse(email.attachments) as MailAttachment[];
    if (!deps.renderAttachment) throw new Error('no attachment renderer');
    const files = [];
    for (const recipe of recipes) files.push(await deps.renderAttachment(recipe));
    return files;
  }

  async function send(email: EmailMessageRow, lease: string): Promise<void> {
    const attempts = email.attempts + 1;
    try {
      const info = (await transport.sendMail({
        from: deps.from,
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
        ...(email.html_body ? { html: email.html_body } : {}),
        messageId: messageIdOf(email, domain),
        ...(email.reply_to ? { replyTo: email.reply_to } : {}),
        attachments: await attachmentsOf(email),
      })) as { response?: string };
      await store.repos.notifications.finishEmail(email.id, lease, {
        status: 'sent',
        attempts,
        next_attempt_at: email.next_attempt_at,
        last_error: null,
        sent_at: clock.now().toISOString(),
        smtp_response: typeof info.response === 'string' ? info.response.slice(0, 500) : null,
      });
      logger.info({ emailId: email.id, attempts }, 'e-mail sent');
    } catch (error) {
      const delay = isPermanent(error) ? undefined : delays[attempts - 1];
      const message = error instanceof Error ? error.message : String(error);
      await store.repos.notifications.finishEmail(email.id, lease, {
        status: delay === undefined ? 'failed' : 'pending',
        attempts,
        next_attempt_at: new Date(clock.now().getTime() + (delay ?? 0)).toISOString(),
        last_error: message.slice(0, 500),
        sent_at: null,
        smtp_response: null,
      });
      logger.warn(
        { emailId: email.id, attempts, err: message },
        delay === undefined ? 'e-mail failed for good' : 'e-mail failed, will retry',
      );
    }
  }

  /** Fills each lane's free places; a finished send wakes the loop to fill its place again. */
  async function tick(): Promise<boolean> {
    for (const lane of ['customer', 'staff'] as const) {
      const free = bounds[lane] - inFlight[lane];
      if (free <= 0) continue;
      const now = clock.now();
      const lease = new Date(now.getTime() + LEASE_MS).toISOString();
      const batch = await store.repos.notifications.claimDueEmails(now.toISOString(), lease, free, lane);
      for (const email of batch) {
        inFlight[lane]++;
        const work: Promise<void> = send(email, lease)
          .catch((error: unknown) => logger.error({ err: error, emailId: email.id }, 'e-mail send failed'))
          .finally(() => {
            inFlight[lane]--;
            sending.delete(work);
            poller.wake();
          });
        sending.add(work);
      }
    }
    return false;
  }

  const poller = createPoller({
    tick,
    idleMs: 5_000,
    onError: (error) => logger.error({ err: error }, 'e-mail sender tick failed'),
  });
  return {
    start: () => poller.start(),
    wake: () => poller.wake(),
    async stop() {
      await poller.stop();
      await Promise.all(sending);
    },
  };
}
