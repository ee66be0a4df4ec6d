import {
  catalogs as printed,
  translatorFor,
  type ArgsOf,
  type CatalogsOf,
  type Language,
  type PrintedSource,
  type TranslateOf,
} from '../../../modules/i18n/index.ts';
import { HUB_AREAS } from './areas.ts';

/**
 * The hub's catalog: the domain's labels (documents, statuses, actions, navigation words) and
 * the hub's own texts, one file per area in this folder with its three languages. The domain's
 * i18n does the translating; the texts of the pages live with the pages.
 */

type Areas = typeof HUB_AREAS;
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type HubSource = PrintedSource & Merge<Areas[number]['en']>;

function merged(language: Language) {
  return Object.assign({}, printed[language], ...HUB_AREAS.map((area) => area[language]));
}

export const hubCatalogs: CatalogsOf<HubSource> = { hr: merged('hr'), de: merged('de'), en: merged('en') };

export type HubMessageKey = keyof HubSource & string;
export type HubMessageArgs<K extends HubMessageKey> = ArgsOf<HubSource[K]>;
export type HubTranslate = TranslateOf<HubSource>;

/** `t(key, params)` of the hub, bound to one language. */
export const hubTranslator: (language: Language) => HubTranslate = translatorFor(hubCatalogs);
