/**
 * Turns a pdfmake document definition into PDF bytes: pdfmake's layout engine, our content
 * stream renderer (content-stream-renderer.ts) and pdfkit's document writer, with fonts shared
 * across renders (shared-fonts.ts).
 *
 * This is what pdfmake's Printer#createPdfKitDocument does, minus what quotations never use
 * (URL and local file resolution, attachments, patterns; images only from the definition's
 * `images`, as PNG) and with two parts replaced:
 * fonts come from the per-process DejaVu cache instead of being parsed per document (the
 * document class overrides pdfmake's provideFont), and pages are drawn by our renderer. Output
 * is collected synchronously instead of through pdfkit's Readable stream (pdfkit writes the
 * whole file inside end()). Nothing here changes pdfmake or pdfkit for anyone else.
 *
 * Depends on pdfmake 0.3 / pdfkit 0.19 internals: render-document-pdf.test.ts compares our
 * output with plain pdfmake's and must pass after any upgrade.
 */
import { createRequire } from 'node:module';
import { deflateSync } from 'node:zlib';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';
import {
  createDocumentFont,
  loadSharedFaces,
  PRINT_FONT_FAMILY,
  type DocumentFont,
  type EmbeddedFontLike,
  type FontType,
} from './shared-fonts.ts';
import { renderPages, type LaidOutPage, type RenderTarget } from './content-stream-renderer.ts';
import { FastLayoutBuilder } from './layout-builder.ts';
import { isFontProgram } from './ttf-subset.ts';

export { PRINT_FONT_FAMILY } from './shared-fonts.ts';

// ---------------------------------------------------------------------------
// pdfmake internals (typed locally: @types/pdfmake only describes the browser-style API).

/** pdfkit's PDFReference (an indirect object, possibly a stream). */
interface PdfReference {
  buffer: Uint8Array[];
  compress: boolean;
  finalize(): void;
}

interface PdfmakeDocumentInstance extends RenderTarget {
  fontCache: Record<string, Partial<Record<FontType, DocumentFont>>>;
  _fontCount: number;
  _fontFamilies: Record<string, unknown>;
  ref(data?: object): PdfReference;
  _offset: number;
  getFontType(bold: boolean, italics: boolean): FontType;
  font(src: Uint8Array): { _font: EmbeddedFontLike };
  end(): void;
}

type PdfmakeDocumentClass = new (
  fonts: object,
  images: object,
  patterns: object,
  attachments: object,
  options: object,
  virtualfs?: unknown,
  localAccessPolicy?: (path: string) => boolean,
) => PdfmakeDocumentInstance;

interface PageSize {
  width: number;
  height: number;
}

const require = createRequire(import.meta.url);
const PdfmakeDocument = (require('pdfmake/js/PDFDocument.js') as { default: PdfmakeDocumentClass }).default;
const SVGMeasure = (require('pdfmake/js/SVGMeasure.js') as { default: new () => object }).default;
const { normalizePageSize, normalizePageMargin } = require('pdfmake/js/PageSize.js') as {
  normalizePageSize(pageSize: unknown, orientation: unknown): PageSize;
  normalizePageMargin(margin: unknown): object;
};
const { tableLayouts } = require('pdfmake/js/tableLayouts.js') as { tableLayouts: object };
const { convertToDynamicContent } = require('pdfmake/js/helpers/tools.js') as {
  convertToDynamicContent(content: unknown): unknown;
};

/*
 * Font programs (binary glyph outlines, ~34 KB for a 10-line quotation) gain only 1% from
 * pdfkit's zlib level 6 over level 1, which is ~30% faster; page content keeps level 6 (text
 * operators compress much better there).
 */
const FONT_PROGRAM_LEVEL = 1;

// ---------------------------------------------------------------------------

/**
 * A pdfmake document whose fonts are the shared DejaVu faces and whose output is collected
 * synchronously (pdfkit writes the whole file inside end()).
 */
class PrintPdfDocument extends PdfmakeDocument {
  // pdfkit already writes the file header from its constructor, before field initialisers
  // would run: hence `declare` and lazy creation in _write.
  declare chunks: Array<string | Uint8Array> | undefined;

  provideFont(familyName: string, bold: boolean, italics: boolean): DocumentFont {
    const type = this.getFontType(bold, italics);
    if (familyName !== PRINT_FONT_FAMILY) {
      throw new Error(`Font '${familyName}' in style '${type}' is not available for quotation PDFs.`);
    }
    this.fontCache[familyName] ??= {};
    const cache = this.fontCache[familyName];
    let font = cache[type];
    if (font === undefined) {
      // Same bookkeeping as pdfkit's PDFDocument#font(): sequential ids (which also make the
      // subset tag deterministic) and registration in _fontFamilies, so that end() embeds the
      // subset of every font that was used on a page.
      font = createDocumentFont(this, type, `F${++this._fontCount}`);
      this._fontFamilies[`${PRINT_FONT_FAMILY}-${type}`] = font;
      cache[type] = font;
    }
    return font;
  }

  /** pdfkit's PDFDocument#ref; font programs are deflated at FONT_PROGRAM_LEVEL. */
  override ref(data?: object): PdfReference {
    const ref = super.ref(data);
    const finalize = ref.finalize;
    ref.finalize = () => {
      const raw = ref.buffer.length === 1 ? ref.buffer[0] : undefined;
      if (ref.compress && raw !== undefined && isFontProgram(raw)) {
        // write() has already set /Filter /FlateDecode; pdfkit then writes the buffer as it is.
        ref.buffer = [deflateSync(raw, { level: FONT_PROGRAM_LEVEL })];
        ref.compress = false;
      }
      finalize.call(ref);
    };
    return ref;
  }

  /**
   * pdfkit's PDFDocument#_write (strings are binary strings, one byte per character, followed
   * by a newline), without the stream; bytes() joins everything once.
   */
  _write(data: string | Uint8Array): void {
    const chunk = typeof data === 'string' ? `${data}\n` : data;
    this.chunks ??= [];
    this.chunks.push(chunk);
    this._offset += chunk.length;
  }

  /**
   * pdfkit ends its Readable stream with push(null) from end(); nobody reads this document as a
   * stream, and the scheduled end-of-stream tick would keep the whole document alive until the
   * event loop turns (a loop of awaited renders never lets it).
   */
  push(): boolean {
    return false;
  }

  /** The finished file (after end()). */
  bytes(): Buffer {
    const out = Buffer.allocUnsafe(this._offset);
    let at = 0;
    for (const chunk of this.chunks ?? []) {
      if (typeof chunk === 'string') at += out.write(chunk, at, 'latin1');
      else {
        out.set(chunk, at);
        at += chunk.length;
      }
    }
    if (at !== out.length) throw new Error('PDF length mismatch');
    return out;
  }
}

/** pdfmake's createMetadata: the info dictionary with PDF key names. */
function metadata(info: TDocumentDefinitions['info']): Record<string, unknown> {
  const standard = [
    'Title',
    'Author',
    'Subject',
    'Keywords',
    'Creator',
    'Producer',
    'CreationDate',
    'ModDate',
    'Trapped',
  ];
  const out: Record<string, unknown> = { Producer: 'pdfmake', Creator: 'pdfmake' };
  for (const [key, value] of Object.entries(info ?? {})) {
    if (!value) continue;
    const capitalised = key.charAt(0).toUpperCase() + key.slice(1);
    out[standard.includes(capitalised) ? capitalised : key.replace(/\s+/g, '')] = value;
  }
  return out;
}

let fontsLoaded = false;

function loadFonts(): void {
  if (fontsLoaded) return;
  // A throw-away document lets pdfkit parse each face (and hands us its EmbeddedFont class).
  loadSharedFaces(new PdfmakeDocument({}, {}, {}, {}, { autoFirstPage: false, font: null, compress: true }));
  fontsLoaded = true;
}

const denyLocalFiles = (): boolean => false;

/**
 * Called once the definition is laid out (pdfmake has recorded positions and measured column
 * widths on its nodes): a definition to lay out instead, or null to keep the layout.
 */
export type Relayout = (pages: LaidOutPage[]) => TDocumentDefinitions | null;

/** Lays out and writes a document definition; synchronous CPU work. */
export function printPdf(definition: TDocumentDefinitions, relayout?: Relayout): Buffer {
  loadFonts();
  if (definition.attachments || definition.files || definition.patterns) {
    throw new Error('attachments and patterns are not supported in quotation PDFs');
  }
  const pageSize = normalizePageSize(definition.pageSize, definition.pageOrientation);
  const doc = new PrintPdfDocument(
    {},
    definition.images ?? {},
    {},
    {},
    {
      size: [pageSize.width, pageSize.height],
      pdfVersion: definition.version ?? '1.3',
      tagged: false,
      displayTitle: definition.displayTitle ?? false,
      compress: definition.compress ?? true,
      lang: definition.language,
      fontLayoutCache: true,
      bufferPages: false,
      autoFirstPage: false,
      info: metadata(definition.info),
      font: null,
    },
    null,
    denyLocalFiles,
  );
  let pages = layout(doc, pageSize, definition);
  const second = relayout?.(pages);
  // The same document measures both layouts: fonts and images are the same, and only what is
  // drawn is embedded.
  if (second) pages = layout(doc, pageSize, second);
  // A roll (`height: 'auto'`, a receipt) is cut where its content ends, as pdfmake's own printer does.
  if (pageSize.height === Infinity) {
    const margins = normalizePageMargin(definition.pageMargins ?? 40) as { top: number; bottom: number };
    for (const page of pages)
      page.pageSize = { ...page.pageSize, height: contentBottom(page, margins.top) + margins.bottom };
  }
  renderPages(doc, pages);
  doc.end();
  return doc.bytes();
}

/** Where the lowest item of a laid-out page ends (pdfmake's calculatePageHeight, for the item kinds we draw). */
function contentBottom(page: LaidOutPage, top: number): number {
  let bottom = top;
  for (const { type, item } of page.items) {
    const it = item as { y?: number; getHeight?: () => number; _height?: number; y1?: number; y2?: number; h?: number };
    const height =
      typeof it.getHeight === 'function'
        ? it.getHeight()
        : it._height
          ? it._height
          : type === 'vector'
            ? it.y1 !== undefined
              ? Math.max(it.y1, it.y2 ?? 0)
              : (it.h ?? 0)
            : 0;
    bottom = Math.max(bottom, (it.y ?? 0) + height);
  }
  return bottom;
}

function layout(doc: PrintPdfDocument, pageSize: PageSize, definition: TDocumentDefinitions) {
  const builder = new FastLayoutBuilder(pageSize, normalizePageMargin(definition.pageMargins ?? 40), new SVGMeasure());
  builder.registerTableLayouts(tableLayouts);
  const dynamic = (content: unknown): unknown =>
    content && typeof content !== 'function' ? convertToDynamicContent(content) : content;
  return builder.layoutDocument(
    definition.content,
    doc,
    definition.styles ?? {},
    definition.defaultStyle ?? { fontSize: 12, font: 'Roboto' },
    definition.background,
    dynamic(definition.header),
    dynamic(definition.footer),
    definition.watermark,
    definition.pageBreakBefore,
  );
}

/** Loads the fonts eagerly (e.g. at service start-up) so the first render does not pay for it. */
export function warmUpPrinter(): void {
  loadFonts();
}
