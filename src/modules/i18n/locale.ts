import { LANGUAGES, type Language } from './catalog.ts';

/**
 * Locales are BCP 47 tags (what the company profile stores: "hr-HR", "de-AT", "en"): the region
 * shapes numbers and dates through Intl, the language picks the message catalog. A tag is
 * accepted for a company when it is well-formed and its language has a catalog.
 */

export const DEFAULT_LANGUAGE: Language = 'en';

/** The canonical spelling of a well-formed tag ("hr-hr" → "hr-HR"), or null when it is not BCP 47. */
export function canonicalLocaleTag(tag: string): string | null {
  try {
    const [canonical] = Intl.getCanonicalLocales(tag.trim());
    return canonical ?? null;
  } catch {
    return null;
  }
}

function languageOf(tag: string): string | null {
  const canonical = canonicalLocaleTag(tag);
  return canonical === null ? null : new Intl.Locale(canonical).language;
}

function isLanguage(value: string | null): value is Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '');
}

/** The catalog for a tag: hr-HR → hr, de-AT → de; anything else, malformed or missing → en. */
export function resolveLanguage(tag: string | null | undefined): Language {
  if (!tag) return DEFAULT_LANGUAGE;
  // Every hub page asks for its user's tag; Intl's parsing is the slow part, so answers are kept.
  let known = resolved.get(tag);
  if (known === undefined) {
    const language = languageOf(tag);
    known = isLanguage(language) ? language : DEFAULT_LANGUAGE;
    if (resolved.size > 256) resolved.clear();
    resolved.set(tag, known);
  }
  return known;
}
const resolved = new Map<string, Language>();

export type LocaleTagCheck = { ok: true; tag: string; language: Language } | { ok: false; message: string };

/** For settings: is this a tag the product can print and show in? */
export function checkLocaleTag(tag: string): LocaleTagCheck {
  const canonical = canonicalLocaleTag(tag);
  if (canonical === null) return { ok: false, message: 'Must be a BCP 47 language tag, such as hr-HR, de-AT or en.' };
  const language = new Intl.Locale(canonical).language;
  if (!isLanguage(language))
    return {
      ok: false,
      message: `No messages in "${language}" yet; use ${LANGUAGES.join(', ')} (with any region, such as hr-HR).`,
    };
  return { ok: true, tag: canonical, language };
}

export function isSupportedLocaleTag(tag: string): boolean {
  return checkLocaleTag(tag).ok;
}

/**
 * The hub's language from a browser's Accept-Language header, best quality first, or the
 * fallback (the company's language) when none of them has a catalog.
 */
export function negotiateLanguage(acceptLanguage: string | null | undefined, fallback: Language): Language {
  if (!acceptLanguage) return fallback;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { range: range.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.range !== '' && r.range !== '*' && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { range } of ranked) {
    const language = languageOf(range);
    if (isLanguage(language)) return language;
  }
  return fallback;
}
