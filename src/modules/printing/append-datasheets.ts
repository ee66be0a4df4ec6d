/**
 * Appends product datasheets (arbitrary third-party PDFs) after the pages of a rendered
 * sales document, using pdf-lib, and numbers their pages as part of the whole file.
 *
 * - A datasheet that cannot be read (corrupt, encrypted, no pages, ...) is skipped and reported
 *   through `onSkip`; it never breaks the document. They are read first (`loadDatasheets`), so
 *   the document's own pages can count the datasheet pages that follow them.
 * - Deterministic: documents are loaded with `updateMetadata: false`, so pdf-lib does not stamp
 *   Producer/ModDate with the clock; the document's own info dictionary (dates derived from
 *   issuedAt) and trailer /ID are kept.
 */
import { grayscale, ParseSpeeds, PDFDocument, StandardFonts } from 'pdf-lib';

const LOAD_OPTIONS = {
  updateMetadata: false,
  ignoreEncryption: false, // encrypted datasheets cannot be copied faithfully: skip them
  // Strict: pdf-lib's lenient mode only keeps unparsable objects as raw junk
  // (and console.warn()s about it); such a datasheet is skipped instead.
  throwOnInvalidObject: true,
  parseSpeed: ParseSpeeds.Fast,
} as const;

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

export interface LoadedDatasheet {
  name: string;
  pdf: PDFDocument;
  pages: number;
}

/** Parses each datasheet; those that cannot be appended are reported and left out. */
export async function loadDatasheets(
  datasheets: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
  onSkip: (name: string, error: Error) => void,
): Promise<LoadedDatasheet[]> {
  const loaded: LoadedDatasheet[] = [];
  for (const sheet of datasheets) {
    try {
      const pdf = await PDFDocument.load(sheet.bytes, LOAD_OPTIONS);
      const pages = pdf.getPageCount();
      if (pages === 0) throw new Error('datasheet has no pages');
      loaded.push({ name: sheet.name, pdf, pages });
    } catch (error) {
      onSkip(sheet.name, asError(error));
    }
  }
  return loaded;
}

/** "Page 3 of 5" for a page of the whole file. */
export type PageLabel = (page: number, pages: number) => string;

const LABEL_SIZE = 8;
const LABEL_MARGIN = 40;
const LABEL_BASELINE = 22;

/**
 * Appends the loaded datasheets; with `pageLabel`, each appended page is numbered at its bottom
 * right, as the document's own pages are.
 */
export async function appendLoadedDatasheets(
  documentPdf: Buffer,
  datasheets: readonly LoadedDatasheet[],
  onSkip: (name: string, error: Error) => void,
  pageLabel?: PageLabel,
): Promise<Buffer> {
  if (datasheets.length === 0) return documentPdf;
  const out = await PDFDocument.load(documentPdf, LOAD_OPTIONS);
  const own = out.getPageCount();
  let appended = 0;
  for (const sheet of datasheets) {
    try {
      const pages = await out.copyPages(sheet.pdf, sheet.pdf.getPageIndices());
      for (const page of pages) out.addPage(page);
      appended += pages.length;
    } catch (error) {
      onSkip(sheet.name, asError(error));
    }
  }
  if (appended === 0) return documentPdf;
  if (pageLabel) {
    const font = await out.embedFont(StandardFonts.Helvetica);
    const total = out.getPageCount();
    out.getPages().forEach((page, i) => {
      if (i < own) return;
      const label = pageLabel(i + 1, total);
      const box = page.getCropBox();
      const width = font.widthOfTextAtSize(label, LABEL_SIZE);
      page.drawText(label, {
        x: box.x + box.width - LABEL_MARGIN - width,
        y: box.y + LABEL_BASELINE,
        size: LABEL_SIZE,
        font,
        color: grayscale(0.33),
      });
    });
  }
  const bytes = await out.save({ useObjectStreams: true, objectsPerTick: 1000, updateFieldAppearances: false });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Loads and appends in one step (no page numbers on the appended pages). */
export async function appendDatasheets(
  documentPdf: Buffer,
  datasheets: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
  onSkip: (name: string, error: Error) => void,
): Promise<Buffer> {
  return appendLoadedDatasheets(documentPdf, await loadDatasheets(datasheets, onSkip), onSkip);
}
