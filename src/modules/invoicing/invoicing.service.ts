import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { CatalogService } from '../catalog/index.ts';
import type { SalesService, SaleView } from '../sales/index.ts';
import { correctInvoice, refundOwed } from './correct-invoice.ts';
import { createCounterSales } from './counter-sale.ts';
import { createIssuedDocuments } from './frozen-documents.ts';
import { issuedView, type CustomerDirectory, type IssueRepos } from './issue-invoice.ts';
import type { IssueFiscaliser } from './issue-steps.ts';
import type { CounterTse } from './counter-tse.ts';

/**
 * The invoice lifecycle as the shells use it: the counter sale, corrections (cancellation,
 * credit note) and the issued documents' files as issued. Conversions of quotations and orders
 * call `issueInvoice` from their own services, in their own unit of work's terms.
 */
export function createInvoicingService(deps: {
  store: Store<IssueRepos>;
  clock: Clock;
  newId: IdGenerator;
  fiscaliser: IssueFiscaliser;
  onEventQueued: () => void;
  catalog: CatalogService;
  customers: CustomerDirectory;
  sales: Pick<SalesService, 'get' | 'renderPdf' | 'eInvoiceXml'>;
  /** Germany's TSE (KassenSichV) for counter transactions. */
  tse?: CounterTse;
}) {
  const { clock } = deps;
  const correct = async (
    companyId: string,
    saleId: string,
    reason: string,
    actorId: string | null,
    correction: Parameters<typeof correctInvoice>[2],
    refund?: { method: string } | null,
  ): Promise<SaleView> => {
    const issued = await correctInvoice(
      deps,
      { companyId, saleId, reason, actorId, now: clock.now(), refund },
      correction,
    );
    return issuedView(issued, { refunds: issued.refunds });
  };
  return {
    ...createCounterSales({ ...deps, get: deps.sales.get }),
    ...createIssuedDocuments(deps),

    /** Issues a cancellation invoice for an invoice: `sale.cancelled`, and `refund.recorded` when it was paid. */
    cancel: (
      companyId: string,
      saleId: string,
      reason: string,
      actorId: string | null,
      refund?: { method: string } | null,
    ) => correct(companyId, saleId, reason, actorId, { kind: 'cancellation' }, refund),

    /**
     * Gives back money owed on a corrected invoice later than its correction (`refund.recorded`):
     * the invoice as it then stands, its refunds listed.
     */
    refund: async (
      companyId: string,
      saleId: string,
      input: { method: string; amount?: string | null },
      actorId: string | null,
    ): Promise<SaleView> => {
      await refundOwed(deps, { companyId, saleId, ...input, actorId, now: clock.now() });
      deps.onEventQueued();
      return deps.sales.get(companyId, saleId);
    },

    /** Issues a credit note for part of an invoice (admins): `credit_note.created`. */
    creditNote: (
      companyId: string,
      saleId: string,
      input: {
        lines: ReadonlyArray<{ lineId: string; quantity: string }>;
        reason: string;
        refund?: { method: string } | null;
      },
      actorId: string | null,
    ) => correct(companyId, saleId, input.reason, actorId, { kind: 'credit_note', lines: input.lines }, input.refund),
  };
}
export type InvoicingService = ReturnType<typeof createInvoicingService>;
