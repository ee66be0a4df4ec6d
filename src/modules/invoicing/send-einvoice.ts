import { createHash } from 'node:crypto';
import type { IdGenerator } from '../../lib/ids.ts';
import { assertReady, queueSend, routesThroughExchange, toUbl, type OutboundRepos } from '../einvoice/index.ts';
import {
  saleEInvoice,
  type IssueSnapshot,
  type SaleLineRow,
  type SaleRow,
  type SalesRepository,
} from '../sales/index.ts';
import type { CompaniesRepository } from '../companies/index.ts';
import type { IssuedDocumentsRepository } from './issued-documents.repository.ts';

export type SendRepos = OutboundRepos & {
  companies: Pick<CompaniesRepository, 'findCompany'>;
  sales: Pick<SalesRepository, 'find'>;
  issuedDocuments: IssuedDocumentsRepository;
};

/**
 * In the issuing unit of work, before the fiscal step: whether the document goes to the buyer as
 * an e-invoice through the company's exchange (einvoice/outbound.ts), in which case no receipt
 * goes to CIS for it.
 */
export async function goesAsEInvoice(repos: Pick<SendRepos, 'exchange' | 'companies'>, row: SaleRow): Promise<boolean> {
  if (row.mode !== 'live') return false;
  const company = (await repos.companies.findCompany(row.company_id))!;
  return routesThroughExchange(
    repos,
    { country: company.country ?? '', vatRegistered: Boolean(company.vat_registered) },
    row,
  );
}

/**
 * In the issuing unit of work, after the snapshot: the document's HR-CIUS UBL, written from what
 * the transaction holds (a 409 naming every missing field when it cannot be a valid e-invoice,
 * so nothing is issued that cannot be sent), stored as the issued document's `ubl` file (what
 * every later download answers is what was sent) and handed to the exchange's outbox.
 */
export async function sendAsEInvoice(
  repos: SendRepos,
  issued: { row: SaleRow; lines: readonly SaleLineRow[] },
  snapshot: IssueSnapshot,
  opts: { now: Date; newId: IdGenerator },
): Promise<void> {
  const { row } = issued;
  const original = row.corrects_sale_id
    ? ((await repos.sales.find(row.company_id, row.corrects_sale_id)) ?? null)
    : null;
  const { model, buyerKind } = saleEInvoice(row, issued.lines, snapshot, original);
  assertReady(model, buyerKind);
  const xml = toUbl(model);
  const bytes = Buffer.from(xml, 'utf8');
  const now = opts.now.toISOString();
  await repos.issuedDocuments.insertOnce({
    company_id: row.company_id,
    sale_id: row.id,
    format: 'ubl',
    content_type: `application/xml; profile=${model.profile}`,
    bytes,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    created_at: now,
  });
  await queueSend(repos, { companyId: row.company_id, saleId: row.id, xml }, { now, newId: opts.newId });
}
