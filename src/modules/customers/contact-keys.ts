import { nameWords } from './name-similarity.ts';
import {
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';

/**
 * The keys customers are searched and matched by. People write the same phone number as
 * "+385 91 234 5678", "00385912345678" or "091 234 5678"; the key is its E.164 form, worked out
 * with libphonenumber-js (Google's numbering-plan metadata, kept current upstream) because
 * trunk prefixes, international call prefixes and number lengths differ per country and a
 * hand-written table would rot. The default country is the company's: a national number
 * belongs to the shop's own country.
 */

/** E.164 ("+385912345678") when the text is a possible number; otherwise its digits, or null if it has fewer than three. */
export function phoneKey(text: string, defaultCountry?: string | null): string | null {
  const country = supportedCountry(defaultCountry);
  const parsed = parsePhoneNumberFromString(text, country);
  if (parsed?.isPossible()) return parsed.number;
  const digits = text.replace(/\D+/g, '');
  if (digits.length < 3) return null;
  return text.trim().startsWith('+') ? `+${digits}` : digits;
}

/**
 * A search prefix for a partly typed phone number, so "091 23" finds +385 91 234 5678: an
 * international prefix ("+" or "00") becomes "+"; a national number's trunk "0" is replaced by
 * the default country's calling code (the trunk prefix is "0" in Croatia, Germany, Austria,
 * Slovenia and most of Europe). Returns `{ prefix }` to compare with the start of the key, or
 * `{ digits }` when the text carries no prefix and may match anywhere; null when it is not a
 * phone number at all (letters, or fewer than three digits).
 */
export function phoneSearch(
  text: string,
  defaultCountry?: string | null,
): { prefix: string } | { digits: string } | null {
  const trimmed = text.trim();
  if (!/^[+0-9 ()./-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D+/g, '');
  if (digits.length < 3) return null;
  const country = supportedCountry(defaultCountry);
  const whole = parsePhoneNumberFromString(trimmed, country);
  if (whole?.isPossible()) return { prefix: whole.number };
  if (trimmed.startsWith('+')) return { prefix: `+${digits}` };
  if (digits.startsWith('00')) return { prefix: `+${digits.slice(2)}` };
  if (digits.startsWith('0') && country) return { prefix: `+${getCountryCallingCode(country)}${digits.slice(1)}` };
  return { digits };
}

/** Trimmed, Unicode-normalised and lower-cased: mailbox providers treat the local part case-insensitively in practice. */
export function emailKey(text: string): string {
  return text.trim().normalize('NFC').toLowerCase();
}

function supportedCountry(country: string | null | undefined): CountryCode | undefined {
  const upper = country?.toUpperCase();
  return upper && isSupportedCountry(upper) ? upper : undefined;
}

/**
 * The name as searched: folded words joined by one space ("Kovačević-Horvat, Ana" is
 * "kovacevic horvat ana"), so staff find a name by typing its start without its diacritics,
 * case or punctuation.
 */
export function nameKey(name: string): string {
  return nameWords(name).join(' ');
}

/**
 * The smallest text greater than every text that starts with `prefix`, by code point: a prefix
 * search is the range [prefix, prefixEnd(prefix)), which an index answers on both engines.
 */
export function prefixEnd(prefix: string): string | null {
  const points = [...prefix];
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last === 0x10ffff) continue;
    // Skip the surrogate block: it holds no characters of its own.
    return points.join('') + String.fromCodePoint(last === 0xd7ff ? 0xe000 : last + 1);
  }
  return null;
}
