import type { Page } from 'playwright-core';
import { hubCatalogs, type HubMessageKey } from '../../src/http/hub/texts/index.ts';

/**
 * The English source texts of the hub's catalog that a Croatian page must not show: every
 * English text that its Croatian translation does not repeat, cut at its {placeholders}, the
 * pieces long enough to be telling (a word of five letters or more, or several words). A page
 * rendering one of them has a text that did not go through the catalog in the reader's language,
 * or one that was never in the catalog and happens to match.
 */
const SOURCES: readonly string[] = [
  ...new Set(
    (Object.keys(hubCatalogs.en) as HubMessageKey[])
      .filter((key) => hubCatalogs.en[key] !== hubCatalogs.hr[key])
      .flatMap((key) => {
        const hr = hubCatalogs.hr[key];
        return hubCatalogs.en[key]
          .split(/\{\w+\}/)
          .map((piece) => piece.trim().replace(/^[\s,.:;·()–-]+|[\s,.:;·()–-]+$/g, ''))
          .filter((piece) => /[A-Za-z]{5,}/.test(piece) && !hr.includes(piece));
      }),
  ),
];

/** Texts that are the same word in both languages or names, not translations that were missed. */
const SAME_IN_CROATIAN = new Set([
  'Portico',
  'Telegram',
  'Webhook',
  'webhook',
  'Status',
  'Hrvatski',
  'Deutsch',
  'English',
]);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const PATTERNS = SOURCES.filter((s) => !SAME_IN_CROATIAN.has(s)).map((source) => ({
  source,
  pattern: new RegExp(`(^|[^\\p{L}])${escape(source)}($|[^\\p{L}])`, 'u'),
}));

/** The English catalog texts the page shows: in its text, or in a label, title or placeholder. */
export async function englishLeaks(page: Page): Promise<string[]> {
  const shown = await page.evaluate(() => {
    const texts = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt], input[type="submit"]'))
      for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'value'])
        if (el.hasAttribute(name)) texts.push(el.getAttribute(name)!);
    return texts.join('\n');
  });
  return PATTERNS.filter(({ pattern }) => pattern.test(shown)).map(({ source }) => source);
}
