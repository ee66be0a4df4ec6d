import type { CroatianFiscaliser } from './cis-fiscaliser.ts';
import type { FiscalStatus } from './fiscaliser.ts';
import type { GermanTse } from './tse-fiscaliser.ts';
import type { CountryFiscaliser } from './types.ts';

/**
 * The one fiscaliser invoicing holds, one adapter per country behind it: a document the German
 * TSE signed before its unit of work goes to the TSE adapter, every other to Croatia's CIS
 * adapter (which does nothing for a company without a certificate). Reading a status asks CIS, then the TSE for the rest.
 */
export function createCountryFiscaliser(cis: CroatianFiscaliser, tse: GermanTse): CountryFiscaliser {
  return {
    prepare: (repos, doc) => (tse.holds(doc.documentId) ? tse.prepare(repos, doc) : cis.prepare(repos, doc)),
    deliver: (companyId, documentIds) => cis.deliver(companyId, documentIds),
    changePayment: (repos, change) => cis.changePayment!(repos, change),
    // A document has a CIS request or TSE rows, never both: the TSE is asked only for those CIS
    // does not know, so a Croatian list costs one query (the hub's pages have a query budget).
    async statusOf(companyId, documentIds) {
      const hr = await cis.statusOf(companyId, documentIds);
      const rest = documentIds.filter((id) => !hr.has(id));
      if (rest.length === 0) return hr;
      const de = await tse.statusOf(companyId, rest);
      return new Map<string, FiscalStatus>([...hr, ...de]);
    },
  };
}
