import { de } from './messages.de.ts';
import { en } from './messages.en.ts';
import { hr } from './messages.hr.ts';

/**
 * Message catalogs in the languages the product speaks. English is the source: its keys are the
 * message keys, and a translation is typed as exactly those keys, so a label missing in one
 * language does not compile. Messages take {named} placeholders; the placeholders of a key are
 * read from the English text at the type level, so a call that forgets one does not compile
 * either. The domain's own catalog is the printed labels (messages.*.ts); a shell with texts of
 * its own (the hub) builds its catalogs on top of these with `translatorFor`.
 */

export const LANGUAGES = ['hr', 'de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

/** A source (English) message set: keys to texts, the texts' literal types kept. */
export type Source = Record<string, string>;
/** The catalogs of one source: every language with exactly the source's keys. */
export type CatalogsOf<En extends Source> = Readonly<Record<Language, { readonly [K in keyof En]: string }>>;

/** `{name}`, or `{name:money}` for an amount (a number) written with two decimals in the reader's locale. */
type NameOf<P extends string> = P extends `${infer N}:${string}` ? N : P;
type Placeholders<S extends string> = S extends `${string}{${infer P}}${infer Rest}`
  ? NameOf<P> | Placeholders<Rest>
  : never;

/** No argument for a text without placeholders; otherwise a value for each of them. */
export type ArgsOf<Text extends string> = [Placeholders<Text>] extends [never]
  ? []
  : [params: Record<Placeholders<Text>, string | number>];

/** `t(key, params)` over one source's keys, bound to one language. */
export type TranslateOf<En extends Source> = <K extends keyof En & string>(key: K, ...args: ArgsOf<En[K]>) => string;

const PLACEHOLDER = /\{(\w+)(?::(money))?\}/g;

/** The placeholder names of a message text, in order of appearance. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(language: Language, money: boolean): Intl.NumberFormat {
  const id = money ? `${language}:money` : language;
  let format = numberFormats.get(id);
  if (!format) {
    format = new Intl.NumberFormat(
      language,
      money ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : undefined,
    );
    numberFormats.set(id, format);
  }
  return format;
}

function fill(language: Language, key: string, text: string, params: Record<string, string | number> | undefined) {
  return text.replace(PLACEHOLDER, (_, name: string, kind: string | undefined) => {
    const value = params?.[name];
    if (value === undefined) throw new RangeError(`message ${key} needs {${name}}`);
    if (typeof value === 'string') return value;
    return numberFormat(language, kind === 'money').format(value);
  });
}

/** The translator of a set of catalogs: `translatorFor(catalogs)(language)` is its `t`. */
export function translatorFor<En extends Source>(catalogs: CatalogsOf<En>): (language: Language) => TranslateOf<En> {
  return (language) =>
    (key, ...args) =>
      fill(language, key, catalogs[language][key], args[0] as Record<string, string | number> | undefined);
}

// ---- The domain's catalog: the labels of a printed sales document.

/** The source of the printed labels, its texts with their literal types. */
export type PrintedSource = typeof en;
export type MessageKey = keyof typeof en;
export type Catalog = { readonly [K in MessageKey]: string };
export type MessageArgs<K extends MessageKey> = ArgsOf<(typeof en)[K]>;
export type Translate = TranslateOf<typeof en>;

export const catalogs: CatalogsOf<typeof en> = { hr, de, en };

/** `t(key, params)` bound to one language, as a print uses it. */
export const translator: (language: Language) => Translate = translatorFor(catalogs);

export function translate<K extends MessageKey>(language: Language, key: K, ...args: MessageArgs<K>): string {
  return translator(language)(key, ...args);
}
