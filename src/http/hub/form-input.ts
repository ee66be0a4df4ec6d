/** Reading input: a body or query is unknown, and a repeated field arrives as an array. */

/**
 * A posted field's value as text exactly as typed (passwords are not trimmed); '' when absent,
 * and when repeated (an array), so the form's own validation names the field rather than
 * one of two values being picked for the user.
 */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * A hub route's parts as Fastify types them: the path parameters the router matched, and a
 * query of text by name whose shape is not trusted (read with the helpers below).
 */
export interface Route<P extends Record<string, string> = Record<never, string>> {
  Params: P;
  Querystring: Readonly<Record<string, unknown>>;
}
export type IdRoute = Route<{ id: string }>;

/** A field posted any number of times (checkboxes, a multiple select) as its texts; [] when absent. */
export function bodyList(body: unknown, name: string): string[] {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return [value ?? []].flat().filter((v): v is string => typeof v === 'string');
}

/** The named field of a posted body (or query) as text, '' when absent. */
export function bodyText(body: unknown, name: string): string {
  return body && typeof body === 'object' ? textOf((body as Record<string, unknown>)[name]) : '';
}

export type FormBody = Record<string, string>;

/** The posted fields as trimmed text, the CSRF token and blanks left out. */
export function formFields(body: unknown): FormBody {
  const out: FormBody = Object.create(null) as FormBody;
  if (!body || typeof body !== 'object') return out;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const text = Array.isArray(value) ? value[0] : value;
    if (key === '_csrf' || typeof text !== 'string') continue;
    const trimmed = text.trim();
    if (trimmed !== '') out[key] = trimmed;
  }
  return out;
}

/** A query-string value as text: the first when repeated, trimmed, bounded; absent when blank. */
export function queryText(value: unknown, max = 200): string | undefined {
  const trimmed = textOf(Array.isArray(value) ? value[0] : value)
    .trim()
    .slice(0, max);
  return trimmed === '' ? undefined : trimmed;
}

/** One of the allowed values, or absent (an unknown filter value shows everything, as no filter). */
export function queryChoice<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  const text = queryText(value, 40);
  return text !== undefined && (allowed as readonly string[]).includes(text) ? (text as T) : undefined;
}
