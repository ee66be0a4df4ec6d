import type { IdGenerator } from '../../lib/ids.ts';
import { assertReady, queueSend, routesThroughExchange, type OutboundRepos } from '../einvoice/index.ts';
import { saleEInvoice, type IssueSnapshot, type SaleLineRow, type SaleRow, type SaleRecords } from '../sales/index.ts';
import type { CompanyDirectory } from '../companies/index.ts';

export type SendRepos = OutboundRepos & {
  companies: Pick<CompanyDirectory, 'findCompany'>;
  sales: Pick<SaleRecords, 'find'>;
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
 * In the issuing unit of work, after the snapshot: the document checked as an HR-CIUS e-invoice
 * from what the transaction holds (a 409 naming every missing field when it cannot be a valid
 * one, so nothing is issued that cannot be sent) and its send queued in the exchange's outbox.
 * The call names the issued document's `ubl` file rather than carrying the XML: the worker reads
 * that file (written once from the snapshot this transaction commits, then stored as issued), so
 * what is sent and what every later download answers are the same bytes, and the issue writes
 * no XML at all (the bench: bench/README.md, "Outbound e-invoices").
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
  await queueSend(
    repos,
    { companyId: row.company_id, saleId: row.id },
    { now: opts.now.toISOString(), newId: opts.newId },
  );
}
