/**
 * The smallest XML writer the two syntaxes need: elements in the order given (UBL's and CII's
 * schemas are sequences, so order is the schema's), attributes and text escaped, an empty or
 * absent value leaving the element out (EN 16931 and HR-BR-33 forbid empty elements).
 */
export type Node = string | null | undefined | false | Node[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
// XML 1.0 cannot carry these at all, not even escaped.
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

export function escapeXml(text: string): string {
  return text.replace(FORBIDDEN, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** `<name a="…">text</name>`; nothing when the text is null or blank. */
export function leaf(name: string, text: string | number | null | undefined, attrs: Record<string, string> = {}): Node {
  if (text === null || text === undefined) return null;
  const value = String(text);
  if (value.trim() === '') return null;
  return `<${name}${attributes(attrs)}>${escapeXml(value)}</${name}>`;
}

/** `<name>children</name>`; nothing when every child is empty. */
export function el(name: string, children: Node[], attrs: Record<string, string> = {}): Node {
  const inner = flatten(children);
  if (inner === '') return null;
  return `<${name}${attributes(attrs)}>${inner}</${name}>`;
}

export function flatten(nodes: Node[]): string {
  let out = '';
  for (const node of nodes) {
    if (!node) continue;
    out += Array.isArray(node) ? flatten(node) : node;
  }
  return out;
}

export function document(root: Node): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${flatten([root])}\n`;
}

function attributes(attrs: Record<string, string>): string {
  let out = '';
  for (const [key, value] of Object.entries(attrs)) out += ` ${key}="${escapeXml(value)}"`;
  return out;
}
