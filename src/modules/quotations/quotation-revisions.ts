import { AppError, addFieldError, fieldErrors, type FieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { formatMoney } from '../../lib/money.ts';
import { searchKey } from '../../lib/search-key.ts';
import type { Store } from '../../db/store.ts';
import type { CatalogService } from '../catalog/index.ts';
import type { Company, LocationRow } from '../companies/index.ts';
import { lineRows, priceLines, totalsView, type DocumentLineRow, type TotalsView } from '../documents/index.ts';
import { said } from '../i18n/index.ts';
import { enqueueEvent } from '../webhooks/index.ts';
import type { DatasheetSource, PrintSlot } from '../printing/index.ts';
import type { QuotationConversionRepos } from './quotation-conversion.ts';
import type { QuotationRevisionRow, QuotationRow } from './quotations.repository.ts';
import { toQuotationPrint } from './quotation-print.ts';
import type { QuotationStatus } from './quotation-status.ts';
import type { NewQuotation, QuotationView } from './quotations.service.ts';

/** A revision says the whole quotation again, as a new one would, but never how it is answered. */
export type QuotationRevision = Omit<NewQuotation, 'format'>;

/** One revision of a quotation as a list shows it: the current one last. */
export interface RevisionSummary {
  revision: number;
  number: string;
  /** When this revision was made. */
  createdAt: string;
  total: string;
  /** When the next revision replaced it, and who made that; null for the current one. */
  replacedAt: string | null;
  replacedBy: string | null;
  current: boolean;
}

/** What a revision keeps of the one before it, whole, so it can be read and printed as it was. */
interface Snapshot {
  row: QuotationRow;
  lines: DocumentLineRow[];
}

/**
 * Only a quotation still open for the customer may be revised: approved (not yet converted or
 * cancelled) and not expired. What was sent must not change under an accepted answer.
 */
/** Why a quotation that is no longer approved cannot be revised, by its status. */
const NOT_REVISABLE: Readonly<Record<string, `error.quotation.revise.${Exclude<QuotationStatus, 'approved'>}`>> = {
  accepted: 'error.quotation.revise.accepted',
  declined: 'error.quotation.revise.declined',
  converted: 'error.quotation.revise.converted',
  cancelled: 'error.quotation.revise.cancelled',
};

export function isRevisable(row: Pick<QuotationRow, 'status' | 'expires_at'>, now: Date): boolean {
  return row.status === 'approved' && row.expires_at > now.toISOString();
}

/** The number of revision `revision` of a quotation first numbered `first` (`Q-ZG1-2026-00042` → `…-00042-2`). */
export function revisionNumber(first: string, revision: number): string {
  return revision === 1 ? first : `${first}-${revision}`;
}

/** The number revision 1 had, from the number of `revision` (which `revisionNumber` made). */
export function firstNumber(number: string, revision: number): string {
  return revision === 1 ? number : number.slice(0, number.length - `-${revision}`.length);
}

/**
 * Revisions of an open quotation. A revision keeps the quotation's id (whoever holds a link to it
 * sees the newest), replaces its lines, customer, note and totals, and takes the first number
 * with the revision's suffix; the revision it replaces is kept whole in `quotation_revisions`,
 * readable and printable as it was. The event is `quote.revised`.
 */
export function createQuotationRevisions(deps: {
  store: Store<QuotationConversionRepos & { customers: { find(companyId: string, id: string): Promise<unknown> } }>;
  clock: Clock;
  newId: IdGenerator;
  catalog: CatalogService;
  onEventQueued: () => void;
  load(
    companyId: string,
    id: string,
  ): Promise<{ row: QuotationRow; lines: DocumentLineRow[]; company: Company; location: LocationRow }>;
  directoryCustomer(companyId: string, id: string | null | undefined): Promise<string | null>;
  view(row: QuotationRow, lines: DocumentLineRow[]): Promise<QuotationView>;
  renderWith(companyId: string, quotationId: string, lines: readonly DocumentLineRow[]): Promise<DatasheetSource[]>;
}) {
  const { store, clock, newId } = deps;

  function notRevisable(row: QuotationRow, now: Date): AppError {
    if (row.status === 'approved' && row.expires_at <= now.toISOString())
      return new AppError('quotation_expired', said('error.quotation.revisionExpired', { number: row.number }));
    return new AppError(
      'quotation_not_open',
      said(NOT_REVISABLE[row.status] ?? NOT_REVISABLE.accepted!, { number: row.number }),
    );
  }

  async function snapshotOf(companyId: string, id: string, revision: number): Promise<Snapshot> {
    const found = await store.repos.quotations.findRevision(companyId, id, revision);
    if (!found) throw AppError.notFound('Quotation revision');
    return JSON.parse(found.snapshot) as Snapshot;
  }

  return {
    /** Revises an open quotation (see above); `userId` is recorded as who made the revision. */
    async revise(
      actor: { companyId: string; userId: string | null },
      id: string,
      input: QuotationRevision,
    ): Promise<QuotationView> {
      const now = clock.now();
      const current = await deps.load(actor.companyId, id);
      if (!isRevisable(current.row, now)) throw notRevisable(current.row, now);
      const details: FieldErrors = fieldErrors();
      const expiry = input.expiresAt === undefined ? null : Date.parse(input.expiresAt);
      if (expiry !== null && !Number.isFinite(expiry))
        addFieldError(details, 'expiresAt', said('error.timestamp.range'));
      else if (expiry !== null && expiry <= now.getTime()) addFieldError(details, 'expiresAt', said('error.future'));
      const priced = await priceLines(
        (requested) => deps.catalog.resolveLines(actor.companyId, requested),
        input.lines,
        details,
      );
      const directory = await deps.directoryCustomer(actor.companyId, input.directoryCustomerId);
      const from = current.row.revision ?? 1;
      const revision = from + 1;
      const number = revisionNumber(firstNumber(current.row.number, from), revision);
      const revisedAt = now.toISOString();
      const result = await store.unitOfWork(async (repos) => {
        const row: QuotationRow = {
          ...current.row,
          number,
          revision,
          revised_at: revisedAt,
          customer_name: input.customer.name,
          customer_email: input.customer.email ?? null,
          customer_phone: input.customer.phone ?? null,
          customer_name_key: searchKey(input.customer.name),
          directory_customer_id: directory,
          note: input.note ?? null,
          include_datasheets: input.includeDatasheets,
          // Unless the revision says otherwise, it is valid as long as the one it replaces.
          expires_at: input.expiresAt === undefined ? current.row.expires_at : new Date(input.expiresAt).toISOString(),
          net_minor: priced.totals.net,
          tax_minor: priced.totals.tax,
          total_minor: priced.totals.withTax,
        };
        const { id: _id, company_id: _company, ...fields } = row;
        const changed = await repos.quotations.revise(actor.companyId, id, from, {
          number: fields.number,
          revision: fields.revision,
          revised_at: fields.revised_at,
          customer_name: fields.customer_name,
          customer_email: fields.customer_email,
          customer_phone: fields.customer_phone,
          customer_name_key: fields.customer_name_key,
          directory_customer_id: fields.directory_customer_id,
          note: fields.note,
          include_datasheets: fields.include_datasheets,
          expires_at: fields.expires_at,
          net_minor: fields.net_minor,
          tax_minor: fields.tax_minor,
          total_minor: fields.total_minor,
        });
        // Converted, cancelled or revised by someone else since it was read: nothing is written.
        if (!changed)
          throw new AppError('conflict', said('error.quotation.changedMeanwhile', { number: current.row.number }));
        await repos.quotations.insertRevision({
          company_id: actor.companyId,
          quotation_id: id,
          revision: from,
          number: current.row.number,
          total_minor: Number(current.row.total_minor),
          created_at: current.row.revised_at ?? current.row.created_at,
          snapshot: JSON.stringify({ row: current.row, lines: current.lines } satisfies Snapshot),
          replaced_at: revisedAt,
          replaced_by: actor.userId,
        });
        await repos.quotations.deleteLines(actor.companyId, id);
        const lines = lineRows(priced.lines, actor.companyId, id, newId, 'quotationLine');
        await repos.quotations.insertLines(lines);
        await enqueueEvent(
          repos,
          {
            companyId: actor.companyId,
            locationId: row.location_id,
            livemode: row.mode === 'live',
            type: 'quote.revised',
            data: {
              quotationId: id,
              number,
              revision,
              previousNumber: current.row.number,
              customerName: row.customer_name,
              totalWithTax: formatMoney(row.total_minor),
              locationName: current.location.name,
              lineCount: lines.length,
            },
          },
          { now: revisedAt, newId },
        );
        return { row, lines };
      });
      deps.onEventQueued();
      return deps.view(result.row, result.lines);
    },

    /** Every revision of a quotation, the first first and the current one last. */
    async revisions(companyId: string, id: string): Promise<RevisionSummary[]> {
      const { row } = await deps.load(companyId, id);
      const earlier = await store.repos.quotations.listRevisions(companyId, id);
      return [
        ...earlier.map((r: QuotationRevisionRow) => ({
          revision: r.revision,
          number: r.number,
          createdAt: r.created_at,
          total: formatMoney(r.total_minor),
          replacedAt: r.replaced_at,
          replacedBy: r.replaced_by,
          current: false,
        })),
        {
          revision: row.revision ?? 1,
          number: row.number,
          createdAt: row.revised_at ?? row.created_at,
          total: formatMoney(row.total_minor),
          replacedAt: null,
          replacedBy: null,
          current: true,
        },
      ];
    },

    /** An earlier revision as it was: its number, customer, lines and totals. */
    async revision(
      companyId: string,
      id: string,
      revision: number,
    ): Promise<{
      number: string;
      revision: number;
      createdAt: string;
      lines: QuotationView['lines'];
      totals: TotalsView;
    }> {
      const { row, lines } = await snapshotOf(companyId, id, revision);
      const view = await deps.view(row, lines);
      return {
        number: row.number,
        revision,
        createdAt: row.revised_at ?? row.created_at,
        lines: view.lines,
        totals: totalsView(lines),
      };
    },

    /** An earlier revision printed as it was sent. */
    async renderRevisionPdf(
      companyId: string,
      id: string,
      revision: number,
      slot: PrintSlot,
    ): Promise<{ number: string; pdf: Buffer }> {
      const current = await deps.load(companyId, id);
      const { row, lines } = await snapshotOf(companyId, id, revision);
      const datasheets = row.include_datasheets ? await deps.renderWith(companyId, id, lines) : [];
      const printed = await slot.print({
        document: toQuotationPrint(row, lines, current.company, current.location),
        datasheets,
      });
      return {
        number: row.number,
        pdf: Buffer.from(printed.pdf.buffer, printed.pdf.byteOffset, printed.pdf.byteLength),
      };
    },
  };
}
