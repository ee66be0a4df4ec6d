export {
  catalogs,
  LANGUAGES,
  placeholdersOf,
  translate,
  translator,
  translatorFor,
  type ArgsOf,
  type Catalog,
  type CatalogsOf,
  type Language,
  type MessageArgs,
  type MessageKey,
  type PrintedSource,
  type Source,
  type Translate,
  type TranslateOf,
} from './catalog.ts';
export { messages, type Translation } from './define.ts';
export { createFormatter, type Formatter } from './format.ts';
export {
  checkLocaleTag,
  negotiateLanguage,
  resolveLanguage,
  type LocaleTagCheck,
} from './locale.ts';
export {
  errorSources,
  refusalsOf,
  said,
  saidOf,
  type ErrorMessageKey,
  type ErrorSource,
} from './error-messages.ts';
export { taxIdLabel } from './tax-id-label.ts';
