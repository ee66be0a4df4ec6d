import type { Page } from 'playwright-core';
import { hubCatalogs, type HubMessageKey } from '../../src/http/hub/texts/index.ts';

type Reader = 'hr' | 'de';

/**
 * The English source texts of the hub's catalog that a reader's page must not show: every
 * English text that its translation does not repeat, cut at its {placeholders}, the pieces long
 * enough to be telling (a word of five letters or more, or several words). A page rendering one
 * of them has a text that did not go through the catalog in the reader's language, or one that
 * was never in the catalog and happens to match.
 */
function sourcesFor(language: Reader): string[] {
  return [
    ...new Set(
      (Object.keys(hubCatalogs.en) as HubMessageKey[])
        .filter((key) => hubCatalogs.en[key] !== hubCatalogs[language][key])
        .flatMap((key) => {
          const translated = hubCatalogs[language][key];
          return hubCatalogs.en[key]
            .split(/\{\w+(?::\w+)?\}/)
            .map((piece) => piece.trim().replace(/^[\s,.:;·()–-]+|[\s,.:;·()–-]+$/g, ''))
            .filter((piece) => /[A-Za-z]{5,}/.test(piece) && !translated.includes(piece));
        }),
    ),
  ];
}

/** Texts that are the same word in the reader's language or names, not translations that were missed. */
const SAME_WORD: Record<Reader, ReadonlySet<string>> = {
  hr: new Set(['Portico', 'Telegram', 'Webhook', 'webhook', 'Status', 'Hrvatski', 'Deutsch', 'English']),
  de: new Set(['Portico', 'Telegram', 'Webhook', 'webhook', 'Status', 'Hrvatski', 'Deutsch', 'English']),
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PATTERNS = Object.fromEntries(
  (['hr', 'de'] as const).map((language) => [
    language,
    sourcesFor(language)
      .filter((s) => !SAME_WORD[language].has(s))
      .map((source) => ({ source, pattern: new RegExp(`(^|[^\\p{L}])${escapeRegExp(source)}($|[^\\p{L}])`, 'u') })),
  ]),
) as Record<Reader, Array<{ source: string; pattern: RegExp }>>;

/** The English catalog texts the page shows: in its text, or in a label, title or placeholder. */
export async function englishLeaks(page: Page, language: Reader = 'hr'): Promise<string[]> {
  const shown = await page.evaluate(() => {
    // Identifiers in <code> (an event's name such as `einvoice.delivered`) are not prose.
    const codes = [...document.querySelectorAll('code')].map((c) => c.textContent ?? '');
    // A help guide is written in English and marked so (`lang="en"`): it is not a missed translation.
    const english = [...document.querySelectorAll('main [lang="en"]')].map((e) => (e as HTMLElement).innerText);
    let body = document.body.innerText;
    for (const code of [...english, ...codes]) if (code) body = body.split(code).join(' ');
    const texts = [document.title, body];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt], input[type="submit"]'))
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'value'])
        if (el.hasAttribute(name)) texts.push(el.getAttribute(name)!);
    return texts.join('\n');
  });
  return PATTERNS[language].filter(({ pattern }) => pattern.test(shown)).map(({ source }) => source);
}
