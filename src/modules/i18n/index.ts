export {
  catalogs,
  LANGUAGES,
  placeholdersOf,
  translate,
  translator,
  type Catalog,
  type Language,
  type MessageArgs,
  type MessageKey,
  type Translate,
} from './catalog.ts';
export { createFormatter, type Formatter } from './format.ts';
export {
  canonicalLocaleTag,
  checkLocaleTag,
  DEFAULT_LANGUAGE,
  isSupportedLocaleTag,
  negotiateLanguage,
  resolveLanguage,
  type LocaleTagCheck,
} from './locale.ts';
