/** A translation of a source (English) message set: exactly its keys, each a string. */
export type Translation<Source> = { readonly [K in keyof Source]: string };

/**
 * One area's messages in the three languages, side by side. The English texts keep their
 * literal types (placeholders are read from them); a key missing or extra in Croatian or
 * German does not compile. The catalog test checks placeholders and non-empty texts.
 */
export function messages<const En extends Record<string, string>>(m: {
  en: En;
  hr: Translation<En>;
  de: Translation<En>;
}) {
  return m;
}
