import type { SaleTotalsTable } from '../../db/schema.ts';
import type { DocumentLineRow } from '../documents/index.ts';
import type { SaleRow } from './types.ts';

export type SaleTotalsRow = SaleTotalsTable;

/**
 * How much of a 0 % row's exemption reason keys its totals: every reason a company writes is far
 * shorter, and the cap keeps the key within what a PostgreSQL index entry may hold, so no reason
 * can make issuing a document fail.
 */
const EXEMPTION_KEY_CHARS = 500;

/**
 * What one issued document adds to the running totals: a row per tax rate with the rate's base,
 * tax and gross as its tax summary prints them (the sums of its stored lines per rate), and the
 * document counted once, on its highest rate's row; for its day, and the same rows again for its
 * month (keyed by the month's first day). `day` is the date of issue where the company is, the
 * day the reports count it in.
 */
export function documentTotals(row: SaleRow, lines: readonly DocumentLineRow[], day: string): SaleTotalsRow[] {
  const byRate = new Map<number, SaleTotalsRow>();
  for (const l of lines) {
    let r = byRate.get(l.tax_rate_bp);
    if (!r) {
      r = {
        company_id: row.company_id,
        mode: row.mode,
        grain: 'day',
        day,
        location_id: row.location_id,
        operator_id: row.created_by ?? '',
        kind: row.kind,
        tax_rate_bp: l.tax_rate_bp,
        exemption: l.tax_rate_bp === 0 ? exemptionKey(row.exemption_reason) : '',
        operator_name: row.operator_name,
        documents: 0,
        net_minor: 0,
        tax_minor: 0,
        total_minor: 0,
      };
      byRate.set(l.tax_rate_bp, r);
    }
    r.net_minor += l.net_minor;
    r.tax_minor += l.tax_minor;
    r.total_minor += l.total_minor;
  }
  // Highest rate first, as printed, days before months: concurrent issuers take the rows' locks in one order.
  const days = [...byRate.values()].sort((a, b) => b.tax_rate_bp - a.tax_rate_bp);
  if (days[0]) days[0].documents = 1;
  return [...days, ...days.map((r) => ({ ...r, grain: 'month', day: `${day.slice(0, 8)}01` }))];
}

/** The reason's first characters (code points, as SQL's substr counts them: the backfill cuts alike). */
function exemptionKey(reason: string | null): string {
  if (!reason) return '';
  const chars = Array.from(reason);
  return chars.length <= EXEMPTION_KEY_CHARS ? reason : chars.slice(0, EXEMPTION_KEY_CHARS).join('');
}
