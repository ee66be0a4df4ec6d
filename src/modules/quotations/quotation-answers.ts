import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import { toCompany, type CompanyDirectory, type Company } from '../companies/index.ts';
import { said } from '../i18n/index.ts';
import { enqueueEvent, type EventOutbox } from '../webhooks/index.ts';
import type { AdminNoticeRepos } from '../notifications/index.ts';
import type { QuotationLinksRepository } from './quotation-links.repository.ts';
import type { QuotationAnswerRow, QuotationLinkRow } from './types.ts';
import type { QuotationView } from './quotations.service.ts';

/** How long a sent quotation's link works: past the quotation's own validity, so the page can say it expired. */
export const LINK_LIFETIME_DAYS = 60;

/** The token's SHA-256: all that is stored, so a copy of the database opens no customer's page. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A new link to a quotation, written in the caller's unit of work (the sending's): 256 random
 * bits, URL-safe, returned once for the e-mail and kept only as its hash.
 */
export async function issueQuotationLink(
  repos: { quotationLinks: Pick<QuotationLinksRepository, 'insertLink'> },
  link: { companyId: string; quotationId: string; locale: string; now: Date },
): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(link.now.getTime() + LINK_LIFETIME_DAYS * 86_400_000).toISOString();
  await repos.quotationLinks.insertLink({
    token_hash: hashLinkToken(token),
    company_id: link.companyId,
    quotation_id: link.quotationId,
    locale: link.locale,
    expires_at: expiresAt,
    created_at: link.now.toISOString(),
  });
  return { token, expiresAt };
}

/** What the customer's page shows: nothing at all for an unknown or expired link. */
export type CustomerQuotation =
  | { state: 'unknown' }
  | { state: 'link_expired' }
  | {
      state: 'open' | 'answered' | 'expired' | 'closed';
      link: QuotationLinkRow;
      quotation: QuotationView;
      company: Company;
      answer: {
        answer: 'accepted' | 'declined';
        name: string | null;
        reference: string | null;
        note: string | null;
        at: string;
      } | null;
    };

export interface QuotationAnswerView {
  answer: 'accepted' | 'declined';
  name: string | null;
  reference: string | null;
  /** The acceptance's note, or why it was declined. */
  note: string | null;
  at: string;
}

function toAnswer(row: QuotationAnswerRow): QuotationAnswerView {
  return {
    answer: row.answer as 'accepted' | 'declined',
    name: row.name,
    reference: row.reference,
    note: row.note,
    at: row.answered_at,
  };
}

export type CustomerAnswer =
  | { answer: 'accepted'; name: string; reference?: string; note?: string }
  | { answer: 'declined'; reason: string };

type AnswerRepos = {
  quotationLinks: QuotationLinksRepository;
  companies: Pick<CompanyDirectory, 'findCompany' | 'findLocation'> & AdminNoticeRepos['companies'];
  webhooks: EventOutbox;
  notifications: AdminNoticeRepos['notifications'];
};

type Notify = (
  repos: AdminNoticeRepos,
  companyId: string,
  note: {
    kind: string;
    title: string;
    body: string;
    params: Record<string, string>;
    subject?: { type: string; id: string };
  },
  roles: readonly string[],
) => Promise<void>;

/** The customer's side of a sent quotation: the page behind its link, accept and decline. */
export function createQuotationAnswers(deps: {
  store: Store<AnswerRepos>;
  clock: Clock;
  newId: IdGenerator;
  get: (companyId: string, id: string) => Promise<QuotationView>;
  notify: Notify;
  onEventQueued: () => void;
}) {
  const { store, clock } = deps;

  async function open(token: string): Promise<CustomerQuotation> {
    // A token of any other shape is not looked up: it cannot be one we made.
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { state: 'unknown' };
    const link = await store.repos.quotationLinks.findLink(hashLinkToken(token));
    if (!link) return { state: 'unknown' };
    if (link.expires_at <= clock.now().toISOString()) return { state: 'link_expired' };
    // The quotation as it is now: a revision keeps its id, so an older link shows the newest.
    const [quotation, companyRow, answerRow] = await Promise.all([
      deps.get(link.company_id, link.quotation_id),
      store.repos.companies.findCompany(link.company_id),
      store.repos.quotationLinks.findAnswer(link.company_id, link.quotation_id),
    ]);
    const answer = answerRow ? toAnswer(answerRow) : null;
    const state =
      quotation.status === 'accepted' || quotation.status === 'declined'
        ? 'answered'
        : quotation.status !== 'approved'
          ? 'closed'
          : quotation.expired
            ? 'expired'
            : 'open';
    return { state, link, quotation, company: toCompany(companyRow!), answer };
  }

  return {
    open,

    /** The customer's answer as the hub shows it beside the quotation; null when there is none. */
    async answerOf(companyId: string, quotationId: string): Promise<QuotationAnswerView | null> {
      const row = await store.repos.quotationLinks.findAnswer(companyId, quotationId);
      return row ? toAnswer(row) : null;
    },

    /**
     * The customer's answer: the quotation's status, the answer, the event and the staff's
     * notifications commit together, or (answered, converted or cancelled meanwhile) nothing.
     */
    async answer(token: string, given: CustomerAnswer, shownRevision: number): Promise<CustomerQuotation> {
      const page = await open(token);
      if (page.state === 'unknown' || page.state === 'link_expired') throw AppError.notFound('Quotation');
      if (page.state === 'expired') throw new AppError('quotation_expired', said('error.quotation.answerExpired'));
      if (page.state !== 'open') throw new AppError('quotation_not_open', said('error.quotation.answered'));
      const { quotation, link } = page;
      // The answer binds to the revision the customer saw: a newer one is shown to them first.
      const revised = () =>
        new AppError('conflict', said('error.quotation.revised', { revision: String(quotation.revision) }));
      if (quotation.revision !== shownRevision) throw revised();
      const now = clock.now().toISOString();
      const changed = await store.unitOfWork(async (repos) => {
        const ok = await repos.quotationLinks.answer(shownRevision, {
          quotation_id: quotation.id,
          company_id: link.company_id,
          answer: given.answer,
          name: given.answer === 'accepted' ? given.name : null,
          reference: given.answer === 'accepted' ? (given.reference ?? null) : null,
          note: given.answer === 'accepted' ? (given.note ?? null) : given.reason,
          answered_at: now,
        });
        if (ok === 'revised') throw revised();
        if (!ok) return false;
        const location = await repos.companies.findLocation(link.company_id, quotation.locationId);
        const common = {
          quotationId: quotation.id,
          number: quotation.number,
          revision: quotation.revision,
          customerName: quotation.customer.name,
          totalWithTax: quotation.totals.withTax,
          locationName: location?.name ?? '',
        };
        await enqueueEvent(
          repos,
          {
            companyId: link.company_id,
            locationId: quotation.locationId,
            ...(given.answer === 'accepted'
              ? {
                  type: 'quote.accepted' as const,
                  data: {
                    ...common,
                    acceptedBy: given.name,
                    purchaseOrderReference: given.reference ?? null,
                    note: given.note ?? null,
                  },
                }
              : { type: 'quote.declined' as const, data: { ...common, reason: given.reason } }),
          },
          { now, newId: deps.newId },
        );
        const by = given.answer === 'accepted' ? given.name : quotation.customer.name;
        await deps.notify(
          repos,
          link.company_id,
          {
            kind: `quote.${given.answer}`,
            title: `Quotation ${quotation.number} ${given.answer}`,
            body:
              given.answer === 'accepted'
                ? `${by} accepted quotation ${quotation.number} (revision ${quotation.revision}).`
                : `${by} declined quotation ${quotation.number} (revision ${quotation.revision}): ${given.reason}`,
            params: {
              number: quotation.number,
              revision: String(quotation.revision),
              name: by,
              reason: given.answer === 'declined' ? given.reason : '',
            },
            subject: { type: 'quotation', id: quotation.id },
          },
          ['admin', 'staff'],
        );
        return true;
      });
      if (!changed) throw new AppError('quotation_not_open', said('error.quotation.answered'));
      deps.onEventQueued();
      return open(token);
    },
  };
}
export type QuotationAnswers = ReturnType<typeof createQuotationAnswers>;
