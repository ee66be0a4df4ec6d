import type { FiscalPaymentMethod } from './fiscaliser.ts';

/**
 * How Croatia's CIS writes the values of a fiscal message (technical specification v2.5, the
 * XSD's IznosType, StopaType and DatumVrijeme patterns, chapter 12 and section 2.8). Pure.
 */

/** `1245.56`, `-105.50`: exactly two decimals, a dot, a leading minus when negative. */
export function cisAmount(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError('amount must be an integer number of cents');
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A rate as the documents state it (`25`, `13.0`, `5.5`) in StopaType form: `25.00`. */
export function cisRate(ratePercent: string): string {
  const match = /^(-?)(\d{1,3})(?:\.(\d{1,2}))?$/.exec(ratePercent.trim());
  if (!match) throw new RangeError(`tax rate ${ratePercent} is not a percentage with at most two decimals`);
  return `${match[1]}${Number(match[2])}.${(match[3] ?? '').padEnd(2, '0')}`;
}

export interface CisTimes {
  /** `dd.MM.yyyyTHH:mm:ss`: DatVrijeme and the header's DatumVrijeme. */
  xml: string;
  /** `dd.MM.yyyy HH:mm:ss`: the same instant as the ZKI's input writes it (a space, not a T). */
  zki: string;
  /** `yyyyMMdd_HHmm`: the verification URL's `datv`. */
  qr: string;
}

/** One instant in the company's wall-clock time, in the three forms the specification uses. */
// Building an Intl formatter costs far more than using one: one per time zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

export function cisTimes(instant: string | Date, timeZone: string): CisTimes {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${String(instant)}`);
  const parts = formatterFor(timeZone).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const [d, m, y, h, min, s] = [get('day'), get('month'), get('year'), get('hour'), get('minute'), get('second')];
  return {
    xml: `${d}.${m}.${y}T${h}:${min}:${s}`,
    zki: `${d}.${m}.${y} ${h}:${min}:${s}`,
    qr: `${y}${m}${d}_${h}${min}`,
  };
}

/** NacinPlac: G cash, K card, T bank transfer, O other (C, cheque, has no Portico method). */
export function cisPaymentCode(method: FiscalPaymentMethod): 'G' | 'K' | 'T' | 'O' {
  switch (method) {
    case 'cash':
      return 'G';
    case 'card':
      return 'K';
    case 'bank_transfer':
      return 'T';
    case 'other':
      return 'O';
  }
}

/**
 * The buyer's verification link printed as a QR code (section 2.8): by JIR once CIS answered,
 * by ZKI before; the amount in cents without separator, negative for a cancellation.
 */
export function verifyUrl(input: { jir: string | null; zki: string; qrTime: string; totalMinor: number }): string {
  const key = input.jir ? `jir=${input.jir}` : `zki=${input.zki}`;
  return `https://porezna.gov.hr/rn?${key}&datv=${input.qrTime}&izn=${input.totalMinor}`;
}

/** The OIB in a tax id as companies write it (`HR12345678903`, `12345678903`), or null. */
export function oibOf(taxId: string | null | undefined): string | null {
  const match = /^(?:HR)?(\d{11})$/i.exec((taxId ?? '').replace(/[\s-]/g, ''));
  return match ? match[1]! : null;
}
