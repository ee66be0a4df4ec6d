/**
 * Appends product datasheets (arbitrary third-party PDFs) after the pages of
 * a rendered quotation, using pdf-lib.
 *
 * - A datasheet that cannot be read (corrupt, encrypted, no pages, ...) is
 *   skipped and reported through `onSkip`; it never breaks the quotation.
 * - Deterministic: documents are loaded with `updateMetadata: false`, so
 *   pdf-lib does not stamp Producer/ModDate with the clock; the quotation's
 *   own info dictionary (dates derived from issuedAt) and trailer /ID are kept.
 */
import { ParseSpeeds, PDFDocument } from 'pdf-lib';

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

export async function appendDatasheets(
  quotationPdf: Buffer,
  datasheets: ReadonlyArray<{ name: string; bytes: Uint8Array }>,
  onSkip: (name: string, error: Error) => void,
): Promise<Buffer> {
  if (datasheets.length === 0) return quotationPdf;

  const out = await PDFDocument.load(quotationPdf, LOAD_OPTIONS);
  let appended = 0;
  for (const sheet of datasheets) {
    try {
      const source = await PDFDocument.load(sheet.bytes, LOAD_OPTIONS);
      const indices = source.getPageIndices();
      if (indices.length === 0) throw new Error('datasheet has no pages');
      const pages = await out.copyPages(source, indices);
      for (const page of pages) out.addPage(page);
      appended += pages.length;
    } catch (error) {
      onSkip(sheet.name, asError(error));
    }
  }
  if (appended === 0) return quotationPdf;

  const bytes = await out.save({ useObjectStreams: true, objectsPerTick: 1000, updateFieldAppearances: false });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
