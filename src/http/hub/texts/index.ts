import {
  catalogs as printed,
  translatorFor,
  type ArgsOf,
  type CatalogsOf,
  type Language,
  type PrintedSource,
  type TranslateOf,
} from '../../../modules/i18n/index.ts';
import { httpErrorCatalogs, saidOf, type HttpErrorSource } from '../../request-messages.ts';
import { HUB_AREAS } from './areas.ts';

/**
 * The hub's catalog: the domain's labels (documents, statuses, actions, navigation words), the
 * services' refusals (`error.*`, said by key in an AppError) and the hub's own texts, one file per area in this folder with its three languages. The domain's
 * i18n does the translating; the texts of the pages live with the pages.
 */

type Areas = typeof HUB_AREAS;
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type HubSource = PrintedSource & HttpErrorSource & Merge<Areas[number]['en']>;

function merged(language: Language) {
  return Object.assign({}, printed[language], httpErrorCatalogs[language], ...HUB_AREAS.map((area) => area[language]));
}

export const hubCatalogs: CatalogsOf<HubSource> = { hr: merged('hr'), de: merged('de'), en: merged('en') };

export type HubMessageKey = keyof HubSource & string;
export type HubMessageArgs<K extends HubMessageKey> = ArgsOf<HubSource[K]>;
export type HubTranslate = TranslateOf<HubSource>;

/** `t(key, params)` of the hub, bound to one language. */
export const hubTranslator: (language: Language) => HubTranslate = translatorFor(hubCatalogs);

/**
 * A message said by key, in the reader's language; the English text it came with when the key
 * is unknown here (a newer server's message) or its parameters do not fit.
 */
export function sayMessage(
  t: HubTranslate,
  text: string,
  said: { key: string; params: Record<string, string | number> } | null | undefined,
): string {
  if (!said || !Object.hasOwn(hubCatalogs.en, said.key)) return text;
  try {
    return (t as (key: string, params: Record<string, string | number>) => string)(said.key, said.params);
  } catch {
    return text;
  }
}

/** An English text a rule wrote (an import report's row), in the reader's language where the catalog has it. */
export function sayText(t: HubTranslate, text: string): string {
  const found = saidOf(text);
  return typeof found === 'string' ? text : sayMessage(t, text, { key: found.key, params: { ...found.params } });
}
