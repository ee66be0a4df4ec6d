import { de as printDe } from './messages.de.ts';
import { en as printEn } from './messages.en.ts';
import { hr as printHr } from './messages.hr.ts';
import { HUB_MESSAGES } from './hub/index.ts';

/**
 * One message catalog for the print and the hub, in the languages the product speaks. English
 * is the source: its keys are the message keys, and a translation is typed as exactly those
 * keys, so a label missing in one language does not compile. Messages take {named} placeholders;
 * the placeholders of a key are read from the English text at the type level, so a call that
 * forgets one does not compile either.
 */

type HubAreas = typeof HUB_MESSAGES;
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
// The print's messages (messages.*.ts) and the hub's, one file per area with its three languages.
const en = Object.assign({}, printEn, ...HUB_MESSAGES.map((area) => area.en)) as typeof printEn &
  Merge<HubAreas[number]['en']>;
const hr = Object.assign({}, printHr, ...HUB_MESSAGES.map((area) => area.hr)) as Catalog;
const de = Object.assign({}, printDe, ...HUB_MESSAGES.map((area) => area.de)) as Catalog;

export type MessageKey = keyof typeof en;
export type Catalog = { readonly [K in MessageKey]: string };

export const LANGUAGES = ['hr', 'de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const catalogs: Readonly<Record<Language, Catalog>> = { hr, de, en };

type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | Placeholders<Rest> : never;

/** No argument for a message without placeholders; otherwise a value for each of them. */
export type MessageArgs<K extends MessageKey> = [Placeholders<(typeof en)[K]>] extends [never]
  ? []
  : [params: Record<Placeholders<(typeof en)[K]>, string | number>];

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholder names of a message text, in order of appearance. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

const numberFormats = new Map<Language, Intl.NumberFormat>();

export function translate<K extends MessageKey>(language: Language, key: K, ...args: MessageArgs<K>): string {
  const text = catalogs[language][key];
  const params = args[0] as Record<string, string | number> | undefined;
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new RangeError(`message ${key} needs {${name}}`);
    if (typeof value === 'string') return value;
    let format = numberFormats.get(language);
    if (!format) numberFormats.set(language, (format = new Intl.NumberFormat(language)));
    return format.format(value);
  });
}

export type Translate = <K extends MessageKey>(key: K, ...args: MessageArgs<K>) => string;

/** `t(key, params)` bound to one language, as a page or a print uses it. */
export function translator(language: Language): Translate {
  return (key, ...args) => translate(language, key, ...args);
}
