import { formatMoney, formatScaled, MONEY_SCALE, parseScaled, RATE_SCALE } from '../../lib/money.ts';
import type { DayFlows, DrawerDayRow, DrawerMovementRow } from './till.repository.ts';

/** The till a location is: its premises and device labels, defaulted as its invoice numbers default them. */
export function tillOf(location: { code: string; fiscal_premises: string | null; fiscal_device: string | null }): {
  premises: string;
  device: string;
} {
  return { premises: location.fiscal_premises ?? location.code, device: location.fiscal_device ?? '1' };
}

/** The euro's notes and coins, in cents, largest first: what a count by denomination may name. */
export const EURO_DENOMINATIONS = [50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1] as const;

/**
 * A location's cash drawer for one day, as the admin API writes it (money as decimal strings):
 * what the interface names, and beside it the movements, the count by denomination and
 * the documents by kind, so the printed report needs nothing else.
 */
export interface DayReport {
  locationId: string;
  /**
   * The till this drawer is: the location's fiscal premises and device labels (`ZG1`, `2`) as its
   * legal numbers write them. A second till in one shop is a second location with the same
   * premises and another device (see README "Cash drawer per device").
   */
  premises: string;
  device: string;
  date: string;
  currency: string;
  openedAt: string;
  openedBy: string | null;
  closedAt: string | null;
  closedBy: string | null;
  float: string;
  cashIn: string;
  cashOut: string;
  cashSales: string;
  cashRefunds: string;
  /** float + cashIn − cashOut + cashSales − cashRefunds. */
  expected: string;
  counted: string | null;
  /** counted − expected: negative when cash is missing. */
  difference: string | null;
  denominations: Array<{ value: string; count: number; amount: string }> | null;
  byMethod: Array<{ method: string; sales: string; refunds: string }>;
  byRate: Array<{ rate: string; net: string; tax: string; total: string }>;
  invoices: { count: number; total: string };
  cancellations: { count: number; total: string };
  creditNotes: { count: number; total: string };
  documents: { first: string | null; last: string | null; count: number };
  movements: Array<{ kind: 'in' | 'out'; amount: string; reason: string; at: string; by: string | null }>;
}

/** The cash a drawer should hold, in cents. */
export function expectedCash(parts: {
  float: number;
  cashIn: number;
  cashOut: number;
  cashSales: number;
  cashRefunds: number;
}): number {
  return parts.float + parts.cashIn - parts.cashOut + parts.cashSales - parts.cashRefunds;
}

/** A count by denomination ({"50.00": 2, "0.20": 3}) in cents; throws naming the first value that is not the euro's. */
export function countDenominations(counts: Readonly<Record<string, number>>): {
  total: number;
  rows: Array<{ value: number; count: number }>;
} {
  const rows: Array<{ value: number; count: number }> = [];
  for (const [text, count] of Object.entries(counts)) {
    let value: number;
    try {
      value = Number(parseScaled(text, MONEY_SCALE));
    } catch {
      throw new DenominationError(text);
    }
    if (!(EURO_DENOMINATIONS as readonly number[]).includes(value) || !Number.isInteger(count) || count < 0)
      throw new DenominationError(text);
    if (count > 0) rows.push({ value, count });
  }
  rows.sort((a, b) => b.value - a.value);
  return { total: rows.reduce((sum, r) => sum + r.value * r.count, 0), rows };
}

export class DenominationError extends Error {
  readonly value: string;
  constructor(value: string) {
    super(`not a denomination: ${value}`);
    this.value = value;
  }
}

/** The day report from the day's row, its movements and what the location's documents and payments say. */
export function buildDayReport(
  day: DrawerDayRow,
  movements: readonly DrawerMovementRow[],
  flows: DayFlows,
  currency: string,
  till: { premises: string; device: string },
  close: {
    closedAt: string;
    closedBy: string | null;
    counted: number | null;
    denominations: Array<{ value: number; count: number }> | null;
  } | null,
): DayReport {
  const sum = (kind: 'in' | 'out') =>
    movements.filter((m) => m.kind === kind).reduce((s, m) => s + Number(m.amount_minor), 0);
  const cashIn = sum('in');
  const cashOut = sum('out');
  const cashSales = flows.payments.filter((p) => p.method === 'cash').reduce((s, p) => s + p.amount, 0);
  const cashRefunds = flows.refunds.filter((r) => r.method === 'cash').reduce((s, r) => s + r.amount, 0);
  const expected = expectedCash({ float: Number(day.float_minor), cashIn, cashOut, cashSales, cashRefunds });
  const methods = [...new Set([...flows.payments.map((p) => p.method), ...flows.refunds.map((r) => r.method)])].sort();
  const kind = (k: string) => {
    const r = flows.byKind.find((x) => x.kind === k);
    return { count: r?.count ?? 0, total: formatMoney(r?.total ?? 0) };
  };
  return {
    locationId: day.location_id,
    premises: till.premises,
    device: till.device,
    date: day.date,
    currency,
    openedAt: day.opened_at,
    openedBy: day.opened_by,
    closedAt: close?.closedAt ?? null,
    closedBy: close?.closedBy ?? null,
    float: formatMoney(day.float_minor),
    cashIn: formatMoney(cashIn),
    cashOut: formatMoney(cashOut),
    cashSales: formatMoney(cashSales),
    cashRefunds: formatMoney(cashRefunds),
    expected: formatMoney(expected),
    counted: close?.counted == null ? null : formatMoney(close.counted),
    difference: close?.counted == null ? null : formatMoney(close.counted - expected),
    denominations:
      close?.denominations?.map((d) => ({
        value: formatMoney(d.value),
        count: d.count,
        amount: formatMoney(d.value * d.count),
      })) ?? null,
    byMethod: methods.map((method) => ({
      method,
      sales: formatMoney(flows.payments.filter((p) => p.method === method).reduce((s, p) => s + p.amount, 0)),
      refunds: formatMoney(flows.refunds.filter((r) => r.method === method).reduce((s, r) => s + r.amount, 0)),
    })),
    byRate: flows.byRate.map((r) => ({
      rate: formatScaled(r.rateBp, RATE_SCALE),
      net: formatMoney(r.net),
      tax: formatMoney(r.tax),
      total: formatMoney(r.total),
    })),
    invoices: kind('invoice'),
    cancellations: kind('cancellation'),
    creditNotes: kind('credit_note'),
    documents: flows.documents,
    movements: movements.map((m) => ({
      kind: m.kind as 'in' | 'out',
      amount: formatMoney(m.amount_minor),
      reason: m.reason,
      at: m.created_at,
      by: m.recorded_by,
    })),
  };
}
