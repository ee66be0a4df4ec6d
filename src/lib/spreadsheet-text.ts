/**
 * Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, and tab or carriage return
 * that some programs strip first) gets a leading apostrophe: shown as written, never evaluated
 * (OWASP "CSV Injection"). Only for text cells: numbers written as numbers are never touched, so
 * −12,50 stays a negative amount.
 */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * What `neutralise` wrote, read back: a CSV that Portico exported, edited and imported again
 * keeps "-20 % Akcija" as it was, not as "'-20 % Akcija".
 */
export function unneutralise(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

const FORMULA_START = /^[=+\-@\t\r]/;
