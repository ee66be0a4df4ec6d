/**
 * Exact decimal arithmetic on scaled integers. Money is kept in minor units (cents),
 * quantities in thousandths, tax rates in basis points; products are done in BigInt and
 * rounded half-up (away from zero) exactly once, so no float ever touches a total.
 */

export const MONEY_SCALE = 2;
export const QUANTITY_SCALE = 3;
export const RATE_SCALE = 2; // percent with two places: 25.00% = 2500 basis points

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** "12.4" → 1240n at scale 2. Throws RangeError for text that is not a plain decimal or has too many places. */
export function parseScaled(text: string, scale: number): bigint {
  if (!DECIMAL.test(text)) throw new RangeError(`not a decimal: ${text}`);
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.') as [string, string?];
  if (fraction.length > scale) throw new RangeError(`more than ${scale} decimal places: ${text}`);
  const value = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -value : value;
}

/** A JSON number such as 1.5 or 0.333 → thousandths, refusing values that need more places. */
export function numberToScaled(value: number, scale: number): bigint {
  if (!Number.isFinite(value)) throw new RangeError('not a finite number');
  // Shortest round-trip text of a double is exactly what the client wrote (1.5, 0.333).
  const text = value.toString();
  // Exponent notation only appears below 1e-6 or from 1e21: never a valid quantity or price.
  if (/e/i.test(text)) throw new RangeError(`out of range: ${text}`);
  return parseScaled(text, scale);
}

/** 1240n at scale 2 → "12.40". */
export function formatScaled(value: bigint | number, scale: number): string {
  const v = BigInt(value);
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** Like formatScaled but drops trailing zeros of the fraction: 1500n (scale 3) → "1.5", 25_00n (scale 2) → "25". */
export function formatScaledTrimmed(value: bigint | number, scale: number): string {
  const text = formatScaled(value, scale);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

export const formatMoney = (minor: bigint | number): string => formatScaled(minor, MONEY_SCALE);

/** A tax rate in basis points as people write it: 2500 → "25", 1300 → "13", 550 → "5.5". */
export const formatRate = (rateBp: number): string => formatScaledTrimmed(rateBp, RATE_SCALE);

/** a × b / divisor, rounded half away from zero. */
export function mulDivRound(a: bigint, b: bigint, divisor: bigint): bigint {
  const product = a * b;
  const negative = product < 0n !== divisor < 0n;
  const absP = product < 0n ? -product : product;
  const absD = divisor < 0n ? -divisor : divisor;
  const rounded = (absP * 2n + absD) / (absD * 2n);
  return negative ? -rounded : rounded;
}

/**
 * A decimal typed the Croatian or German way ("12,50") as the dot the services read: the first
 * comma becomes a point; anything else is left for the validator to refuse with its own message.
 */
export function decimalPoint(text: string): string {
  return text.replace(',', '.');
}
