import type { TaxSummary } from '../documents/index.ts';
import type { TseAmounts, TseRecord, TseSale } from '../fiscal/index.ts';

/** What the counter asks of Germany's TSE: sign one transaction before the unit of work that issues its document. */
export interface CounterTse {
  sign(sale: TseSale): Promise<void>;
  /** An abandoned basket: its own transaction, finished as aborted; null where there is no TSE. */
  abort(companyId: string, locationId: string, amounts: TseAmounts): Promise<TseRecord | null>;
}

/**
 * A document's TSE amounts from its tax summary: gross per rate exactly as printed (base plus
 * tax per rate, the printed breakdown), the whole total paid by the one method (a counter sale
 * or its storno is paid, or paid back, at once).
 */
export function tseAmountsOf(taxes: readonly TaxSummary[], method: string): TseAmounts {
  const grossByRateBp = taxes.map((t) => ({ rateBp: t.rateBp, grossMinor: t.base + t.tax }));
  const total = grossByRateBp.reduce((sum, t) => sum + t.grossMinor, 0);
  return {
    grossByRateBp,
    cashMinor: method === 'cash' ? total : 0,
    nonCashMinor: method === 'cash' ? 0 : total,
  };
}
