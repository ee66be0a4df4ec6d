import type { FiscalRepos } from './cis-fiscaliser.ts';
import type { Fiscaliser, FiscalStatus, FiscalStatusReader } from './fiscaliser.ts';
import type { GermanTse } from './tse-fiscaliser.ts';

/**
 * What fiscalising an issued document writes in the issuing unit of work: Croatia's request to
 * CIS (the fiscal outbox), or the German TSE's signed transaction, and a notice to the admins
 * when the TSE failed. Invoicing's repositories must carry these for the document to commit
 * with its fiscal record.
 */
export type FiscalWrites = FiscalRepos & Parameters<GermanTse['prepare']>[0];

/** The one fiscaliser the container hands issuing: prepare in the unit of work, deliver after, read statuses. */
export interface CountryFiscaliser extends Fiscaliser<FiscalWrites>, FiscalStatusReader {
  deliver(companyId: string, documentIds: readonly string[]): Promise<Map<string, FiscalStatus>>;
}
