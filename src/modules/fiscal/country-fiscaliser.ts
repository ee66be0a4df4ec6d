import type { CroatianFiscaliser } from './cis-fiscaliser.ts';
import type { FiscalStatus } from './fiscaliser.ts';
import type { GermanTse } from './tse-fiscaliser.ts';

/**
 * The one fiscaliser invoicing holds, one adapter per country behind it: a document the German
 * TSE signed before its unit of work goes to the TSE adapter, every other to Croatia's CIS
 * adapter (which does nothing for a company without a certificate). Reading a status asks both.
 */
export function createCountryFiscaliser(cis: CroatianFiscaliser, tse: GermanTse): CroatianFiscaliser {
  return {
    prepare: (repos, doc) =>
      tse.holds(doc.documentId)
        ? tse.prepare(repos as unknown as Parameters<GermanTse['prepare']>[0], doc)
        : cis.prepare(repos, doc),
    deliver: (companyId, documentIds) => cis.deliver(companyId, documentIds),
    changePayment: (repos, change) => cis.changePayment!(repos, change),
    async statusOf(companyId, documentIds) {
      const [hr, de] = await Promise.all([cis.statusOf(companyId, documentIds), tse.statusOf(companyId, documentIds)]);
      return new Map<string, FiscalStatus>([...hr, ...de]);
    },
  };
}
