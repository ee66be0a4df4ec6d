import { PDFDict, PDFDocument, PDFName, type PDFObject } from 'pdf-lib';

/**
 * What in a PDF runs or carries something by itself when opened: JavaScript, actions fired on
 * opening or on events (/AA), launched programs, embedded files. A datasheet is shown to
 * customers and printed into quotations; it needs none of these, so such a file is refused at
 * upload rather than served. A /OpenAction that only opens a page (a destination or GoTo) is
 * harmless and common, and stays allowed.
 *
 * Two looks: every object pdf-lib parses (compressed object streams included), and, for a file
 * it cannot parse, the raw bytes with `#xx` name escapes decoded.
 * Returns what was found, in words for the 400, or null.
 */
export function findActiveContent(bytes: Uint8Array): Promise<string | null> {
  return parsed(bytes).then((found) => found ?? raw(bytes));
}

const KEYS: Record<string, string> = {
  JS: 'JavaScript',
  JavaScript: 'JavaScript',
  AA: 'automatic actions (/AA)',
  EmbeddedFiles: 'embedded files',
  EmbeddedFile: 'embedded files',
  RichMedia: 'embedded media',
  Launch: 'a program launch',
};
const ACTIONS: Record<string, string> = {
  JavaScript: 'JavaScript',
  Launch: 'a program launch',
  ImportData: 'a data import action',
  SubmitForm: 'a form submission',
  RichMediaExecute: 'embedded media',
};

async function parsed(bytes: Uint8Array): Promise<string | null> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return null; // the raw look decides
  }
  const context = doc.context;
  const dicts: PDFDict[] = [];
  for (const [, object] of context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict) dicts.push(object);
    else if ('dict' in object && (object as { dict: unknown }).dict instanceof PDFDict)
      dicts.push((object as { dict: PDFDict }).dict);
  }
  // A file with no document catalog (`%PDF-1.4 %%EOF`) has no root to look into: pdf-lib leaves
  // `doc.catalog` undefined rather than failing the load.
  const root = context.trailerInfo.Root instanceof PDFDict ? context.trailerInfo.Root : doc.catalog;
  if (root instanceof PDFDict) dicts.push(root);
  for (const dict of dicts) {
    const found = inDict(dict, (o) => context.lookup(o));
    if (found) return found;
  }
  return null;
}

function inDict(dict: PDFDict, lookup: (o: PDFObject) => PDFObject | undefined): string | null {
  for (const [key, value] of dict.entries()) {
    const name = key.decodeText();
    if (KEYS[name]) return KEYS[name]!;
    if (name === 'S' && value instanceof PDFName && ACTIONS[value.decodeText()]) return ACTIONS[value.decodeText()]!;
    if (name === 'OpenAction') {
      const action = lookup(value);
      if (action instanceof PDFDict) {
        const kind = action.get(PDFName.of('S'));
        if (!(kind instanceof PDFName) || kind.decodeText() !== 'GoTo')
          return inDict(action, lookup) ?? 'an action run on opening (/OpenAction)';
      }
    }
    // Direct (not indirect) dictionaries nested inside this one, an /OpenAction << … >> say.
    if (value instanceof PDFDict) {
      const found = inDict(value, lookup);
      if (found) return found;
    }
  }
  return null;
}

function raw(bytes: Uint8Array): string | null {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  const match = /\/(JS|JavaScript|AA|EmbeddedFiles?|RichMedia|Launch)(?![A-Za-z0-9_.-])/.exec(text);
  if (match) return KEYS[match[1]!]!;
  const action = /\/S\s*\/(JavaScript|Launch|ImportData|SubmitForm)(?![A-Za-z0-9_.-])/.exec(text);
  if (action) return ACTIONS[action[1]!]!;
  // An /OpenAction that is a dictionary (an action) rather than a destination array or reference.
  const open = /\/OpenAction\s*<</.exec(text);
  if (open && !/^\/OpenAction\s*<<[^>]*\/S\s*\/GoTo/.test(text.slice(open.index, open.index + 300)))
    return 'an action run on opening (/OpenAction)';
  return null;
}

/**
 * Whether the PDF shows anything: false for a file pdf-lib reads but finds no page in (a header
 * and `%%EOF`, a catalog without pages), which could neither be shown to a customer nor appended
 * to a quotation. A file pdf-lib cannot read at all is not judged here (true): the raw look and
 * the printer decide about it, as before.
 */
export async function hasPages(bytes: Uint8Array): Promise<boolean> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return true;
  }
  try {
    return doc.getPageCount() > 0;
  } catch {
    return false; // no catalog or no page tree
  }
}
