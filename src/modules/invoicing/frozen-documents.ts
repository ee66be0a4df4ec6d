import { createHash } from 'node:crypto';
import { AppError } from '../../lib/errors.ts';
import type { Store } from '../../db/store.ts';
import { toCompany, type CompanyDirectory, type LocationRow } from '../companies/index.ts';
import { resolveLanguage } from '../i18n/index.ts';
import type { PrintSlot } from '../printing/index.ts';
import type { IssueSnapshot, SaleRow, SaleRecords, SalesService } from '../sales/index.ts';
import type { IssuedDocumentsRepository } from './issued-documents.repository.ts';

export type { IssuedDocumentsRepository } from './issued-documents.repository.ts';

/** The renderings of an issued document that are stored as issued. */
export type IssuedFormat = 'a4' | 'receipt' | 'facturx' | 'ubl' | 'cii';

export interface IssuedFile {
  /** The internal number, free of the legal number's slashes: the file's name. */
  number: string;
  bytes: Buffer;
  contentType: string;
  sha256: string;
  /** The PDF carries its CII (Factur-X). */
  hybrid: boolean;
  /** The e-invoice's profile (XML only). */
  profile: string | null;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * In the issuing unit of work, after the document and whatever commits with it: the snapshot its
 * renderings are made from (issue-snapshot.ts). Rendering itself waits (see `createIssuedDocuments`):
 * a PDF costs more than the whole issue, and the counter does not wait for paper it may not print.
 */
export async function freezeAtIssue(
  repos: {
    companies: Pick<CompanyDirectory, 'findCompany' | 'findLocation'>;
    sales: Pick<SaleRecords, 'eInvoiceBuyer' | 'find'>;
    issuedDocuments: IssuedDocumentsRepository;
  },
  row: SaleRow,
  now: Date,
  paidMinor: number,
  /** What the issue has read already (undefined: read it here). */
  known: { location?: LocationRow; buyer?: IssueSnapshot['buyer']; refunds?: IssueSnapshot['refunds'] } = {},
): Promise<IssueSnapshot> {
  const [company, location, buyer] = await Promise.all([
    repos.companies.findCompany(row.company_id),
    known.location ?? repos.companies.findLocation(row.company_id, row.location_id),
    known.buyer !== undefined
      ? known.buyer
      : row.customer_id
        ? repos.sales.eInvoiceBuyer(row.company_id, row.customer_id)
        : Promise.resolve(undefined),
  ]);
  const snapshot: IssueSnapshot = {
    version: 1,
    company: toCompany(company!),
    location: location!,
    buyer: buyer ?? null,
    paidMinor,
    ...(known.refunds?.length ? { refunds: known.refunds } : {}),
  };
  const bytes = Buffer.from(JSON.stringify(snapshot), 'utf8');
  await repos.issuedDocuments.insertOnce({
    company_id: row.company_id,
    sale_id: row.id,
    format: 'snapshot',
    content_type: 'application/json',
    bytes,
    sha256: sha256Hex(bytes),
    created_at: now.toISOString(),
  });
  return snapshot;
}

const CONTENT_TYPES: Record<IssuedFormat, string> = {
  a4: 'application/pdf',
  receipt: 'application/pdf',
  facturx: 'application/pdf',
  ubl: 'application/xml',
  cii: 'application/xml',
};

/**
 * An issued document's files as issued. The first read of a format renders it from the snapshot
 * taken at issue and stores the bytes; every later read (download, e-mail, month archive) answers
 * those bytes, whatever changed since: payments, corrections, the company, the catalog, Portico.
 * A print in another language than the company's at issue (an e-mail in the customer's) is its
 * own stored file (`a4.de`), made from the same snapshot, frozen the same way.
 */
export function createIssuedDocuments(deps: {
  store: Store<{ issuedDocuments: IssuedDocumentsRepository; sales: Pick<SaleRecords, 'find'> }>;
  sales: Pick<SalesService, 'renderPdf' | 'eInvoiceXml'>;
  clock: { now(): Date };
}) {
  const { store } = deps;

  async function snapshotOf(companyId: string, id: string): Promise<{ row: SaleRow; snapshot: IssueSnapshot | null }> {
    const row = await store.repos.sales.find(companyId, id);
    if (!row) throw AppError.notFound('Sale');
    const stored = await store.repos.issuedDocuments.find(companyId, id, 'snapshot');
    // Issued before 0025: no snapshot; its first rendering freezes what the records say then.
    const snapshot = stored ? (JSON.parse(Buffer.from(stored.bytes).toString('utf8')) as IssueSnapshot) : null;
    return { row, snapshot };
  }

  return {
    /**
     * The stored file, rendered and stored first when this is its first read. `slot`: a place in
     * the print pool, needed only for a PDF not stored yet (asked lazily, so a stored one needs none).
     */
    async file(
      companyId: string,
      id: string,
      format: IssuedFormat,
      opts: { slot?: () => PrintSlot | Promise<PrintSlot>; locale?: string } = {},
    ): Promise<IssuedFile> {
      const { row, snapshot } = await snapshotOf(companyId, id);
      if (!row.invoice_number) throw AppError.notFound('Sale');
      const pdf = format === 'a4' || format === 'receipt' || format === 'facturx';
      // The document's own language is the company's at issue (`hr-HR` prints as `hr`): only
      // another language makes another file.
      const issuedLanguage = snapshot ? resolveLanguage(snapshot.company.locale) : null;
      const locale = pdf && opts.locale && resolveLanguage(opts.locale) !== issuedLanguage ? opts.locale : null;
      const key = locale ? `${format}.${locale}` : format;
      const stored = await store.repos.issuedDocuments.find(companyId, id, key);
      if (stored) return toFile(row, stored, format);
      let bytes: Buffer;
      let profile: string | null = null;
      if (pdf) {
        const slot = await opts.slot?.();
        if (!slot) throw new Error('a print slot is needed to render an issued PDF');
        try {
          const printed = await deps.sales.renderPdf(companyId, id, slot, {
            layout: format === 'receipt' ? 'receipt' : 'a4',
            hybrid: format === 'facturx' ? 'always' : format === 'receipt' ? 'never' : 'auto',
            ...(locale ? { locale } : {}),
            snapshot,
          });
          bytes = printed.pdf;
        } finally {
          slot.release();
        }
      } else {
        const xml = await deps.sales.eInvoiceXml(companyId, id, format as 'ubl' | 'cii', snapshot);
        bytes = Buffer.from(xml.xml, 'utf8');
        profile = xml.profile;
      }
      await store.repos.issuedDocuments.insertOnce({
        company_id: companyId,
        sale_id: id,
        format: key,
        content_type: profile ? `application/xml; profile=${profile}` : CONTENT_TYPES[format],
        bytes,
        sha256: sha256Hex(bytes),
        created_at: deps.clock.now().toISOString(),
      });
      // Read back: of two first reads at once, the bytes stored first are the document.
      return toFile(row, (await store.repos.issuedDocuments.find(companyId, id, key))!, format);
    },

    /** Stored renderings and their sizes per format (the bench's figure). */
    sizes: (companyId: string) => store.repos.issuedDocuments.sizes(companyId),
  };
}

function toFile(
  row: SaleRow,
  stored: { bytes: Uint8Array; sha256: string; content_type: string },
  format: IssuedFormat,
): IssuedFile {
  const bytes = Buffer.from(stored.bytes.buffer, stored.bytes.byteOffset, stored.bytes.byteLength);
  const profile = /profile=([^;]+)/.exec(stored.content_type)?.[1] ?? null;
  const isPdf = stored.content_type === 'application/pdf';
  return {
    number: row.number,
    bytes,
    contentType: isPdf ? 'application/pdf' : 'application/xml',
    sha256: stored.sha256,
    // A4 of a German company: a Factur-X whenever the document was a valid e-invoice at issue.
    hybrid: format === 'facturx' || (format === 'a4' && isPdf && hasEmbeddedCii(bytes)),
    profile,
  };
}

function hasEmbeddedCii(pdf: Buffer): boolean {
  return pdf.includes('factur-x.xml');
}
