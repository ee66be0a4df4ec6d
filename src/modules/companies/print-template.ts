/**
 * The print template's placeholders: texts a company writes once ("poziv na broj: {number}")
 * and each document fills with its own values. A placeholder the printer does not know would
 * print as it is on every document, so saving one is refused, naming the field.
 */
export const PRINT_TEMPLATE_PLACEHOLDERS = ['number', 'total', 'dueDate', 'customerName', 'reference'] as const;
export type PrintTemplatePlaceholder = (typeof PRINT_TEMPLATE_PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([^{}\s]*)\}/g;

/** The placeholders of a text that no document can fill, in order, once each. */
export function unknownPlaceholders(text: string): string[] {
  const unknown = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (!(PRINT_TEMPLATE_PLACEHOLDERS as readonly string[]).includes(match[1]!)) unknown.add(`{${match[1]}}`);
  }
  return [...unknown];
}

/** Fills every known placeholder; a text saved before the check may hold unknown ones, which stay as written. */
export function fillPrintTemplate(
  text: string | null,
  values: Readonly<Record<Exclude<PrintTemplatePlaceholder, 'reference'>, string> & { reference?: string }>,
): string | null {
  if (text === null) return null;
  return text.replace(PLACEHOLDER, (whole, name: string, at: number, all: string) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name as PrintTemplatePlaceholder];
    if (value === undefined) return whole;
    // Croatian and German dates end in a full stop ("23. 12. 2026."): a sentence that ends
    // with the date must not print two.
    return value.endsWith('.') && all[at + whole.length] === '.' ? value.slice(0, -1) : value;
  });
}
