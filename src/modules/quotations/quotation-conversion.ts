import { AppError } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { CatalogReads } from '../catalog/index.ts';
import { toCompany, type CompanyDirectory } from '../companies/index.ts';
import {
  previewConversion,
  repriceLines,
  type ConversionPreview,
  type InvoicePaymentMethod,
  type SaleView,
} from '../sales/index.ts';
import {
  customerForSale,
  DEFAULT_PAYMENT_METHOD,
  issueInvoice,
  issuedView,
  type CustomerDirectory,
  type IssueFiscaliser,
  type IssueRepos,
} from '../invoicing/index.ts';
import type { QuotationRow, QuotationsRepository } from './quotations.repository.ts';
import type { QuotationLinksRepository } from './quotation-links.repository.ts';
import { isQuotationOpen } from './quotation-status.ts';

/** A quotation's way out, and the invoice a conversion issues (invoicing.issueInvoice) at quoted or today's prices. */
export type QuotationConversionRepos = IssueRepos & {
  quotations: QuotationsRepository;
  companies: CompanyDirectory;
  catalog: CatalogReads;
  quotationLinks: Pick<QuotationLinksRepository, 'findAnswer'>;
};

/** Who acts in the hub: the sale records its user. */
export interface Actor {
  companyId: string;
  userId: string;
}

function notOpen(row: QuotationRow): AppError {
  const { number } = row;
  return new AppError(
    'quotation_not_open',
    row.status === 'converted'
      ? said('error.quotation.converted', { number, saleId: row.sale_id ?? '' })
      : row.status === 'cancelled'
        ? said('error.quotation.cancelled', { number })
        : said('error.quotation.notOpen', { number }),
  );
}

/**
 * A quotation's way out of `approved`: converted into a sale, or cancelled. Both are read-only
 * afterwards; expiry is derived from `expiresAt`, never stored.
 */
export function createQuotationConversion(deps: {
  store: Store<QuotationConversionRepos>;
  clock: Clock;
  newId: IdGenerator;
  customers: CustomerDirectory;
  onEventQueued: () => void;
  /** The fiscal step of the invoice a conversion issues. */
  fiscaliser: IssueFiscaliser;
}) {
  const { store, clock, newId } = deps;

  async function find(companyId: string, id: string): Promise<QuotationRow> {
    const row = await store.repos.quotations.find(companyId, id);
    if (!row) throw AppError.notFound('Quotation');
    return row;
  }

  /** The order number the customer gave when accepting the quotation online (BT-13), if any. */
  async function acceptedReference(companyId: string, id: string): Promise<string | null> {
    const answer = await store.repos.quotationLinks.findAnswer(companyId, id);
    return answer?.answer === 'accepted' ? answer.reference : null;
  }

  return {
    /** Line by line the quoted and today's unit price, lines whose product or unit is gone, both totals. */
    async conversionPreview(
      companyId: string,
      id: string,
    ): Promise<ConversionPreview & { expired: boolean; status: string }> {
      const row = await find(companyId, id);
      const companyRow = await store.repos.companies.findCompany(companyId);
      const lines = await store.repos.quotations.listLines(companyId, id);
      const preview = await previewConversion(store.repos, companyId, lines, toCompany(companyRow!).pricesIncludeTax);
      return { ...preview, status: row.status, expired: row.expires_at <= clock.now().toISOString() };
    },

    /**
     * Converts an approved quotation into a sale, in one unit of work with the sale's event and
     * the request's Idempotency-Key. An expired one converts only with `reprice` (the route lets
     * only admins ask for it); `reprice` prices every line at today's catalog price.
     */
    async convert(
      actor: Actor,
      id: string,
      opts: {
        reprice: boolean;
        paymentMethod?: InvoicePaymentMethod;
        /** When the goods were delivered (BT-72); the day of issue when absent. */
        deliveryDate?: string | null;
        /** The buyer's order number (BT-13); the one given when accepting online when absent. */
        orderReference?: string | null;
      },
    ): Promise<SaleView> {
      const row = await find(actor.companyId, id);
      if (!isQuotationOpen(row.status)) throw notOpen(row);
      const now = clock.now();
      if (row.expires_at <= now.toISOString() && !opts.reprice) {
        throw new AppError(
          'quotation_expired',
          said('error.quotation.expired', { number: row.number, expiredOn: row.expires_at.slice(0, 10) }),
        );
      }
      const customer = await customerForSale(deps.customers, actor.companyId, row.directory_customer_id, 'quotation');
      const company = toCompany((await store.repos.companies.findCompany(actor.companyId))!);
      const saleId = newId('sale');
      const result = await issueInvoice(deps, {
        companyId: actor.companyId,
        saleId,
        customer,
        repriced: opts.reprice,
        createdBy: actor.userId,
        now,
        timezone: company.timezone,
        paymentMethod: opts.paymentMethod ?? DEFAULT_PAYMENT_METHOD,
        deliveryDate: opts.deliveryDate ?? null,
        // The buyer's order number: as given now, else as the customer gave it accepting online.
        orderReference: opts.orderReference ?? (await acceptedReference(actor.companyId, id)),
        source: async (repos) => {
          const quoted = await repos.quotations.listLines(actor.companyId, id);
          const lines = opts.reprice
            ? await repriceLines(repos, actor.companyId, quoted, company.pricesIncludeTax)
            : quoted;
          // The conditional update is the gate: of two concurrent converts one moves the row, the other finds it moved.
          if (
            !(await repos.quotations.close(
              actor.companyId,
              id,
              { status: 'converted', sale_id: saleId },
              row.revision ?? 1,
            ))
          ) {
            const now = (await repos.quotations.find(actor.companyId, id))!;
            // Still approved: it was revised since it was read, and converts only as it now reads.
            if (now.status === 'approved')
              throw new AppError(
                'conflict',
                said('error.quotation.revisedMeanwhile', { number: row.number, now: now.number }),
              );
            throw notOpen(now);
          }
          return {
            type: 'quotation',
            id,
            number: row.number,
            locationId: row.location_id,
            note: row.note,
            currency: row.currency,
            pricesIncludeTax: opts.reprice ? company.pricesIncludeTax : Boolean(row.prices_include_tax),
            mode: row.mode === 'test' ? 'test' : 'live',
            lines,
          };
        },
      });
      return issuedView(result);
    },

    async cancel(companyId: string, id: string, reason: string): Promise<void> {
      const row = await find(companyId, id);
      if (!isQuotationOpen(row.status)) throw notOpen(row);
      const changed = await store.repos.quotations.close(companyId, id, {
        status: 'cancelled',
        cancelled_at: clock.now().toISOString(),
        cancellation_reason: reason,
      });
      if (!changed) throw notOpen((await store.repos.quotations.find(companyId, id))!);
    },
  };
}
