/**
 * HTML from tagged templates, escaped by default: every interpolated value is text unless it
 * is already `Html` (made by `html` itself, or by `raw` for markup we wrote). Arrays are
 * joined, and null, undefined and false render nothing, so lists and conditions read as code.
 */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type Value = Html | string | number | bigint | boolean | null | undefined | readonly Value[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (ch) => ESCAPES[ch]!);
}

function render(value: Value): string {
  if (value instanceof Html) return value.value;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** Markup that is ours and trusted (a constant, an inline SVG); never anything a user typed. */
export function raw(markup: string): Html {
  return new Html(markup);
}
