/**
 * DejaVu Sans, parsed once per process and shared by every quotation PDF.
 *
 * pdfkit parses every TTF again for each document (fontkit.create, then the first layout decodes
 * cmap/GSUB/GPOS/hmtx: ~10 ms per face), shapes every word with GSUB/GPOS, decodes each used
 * glyph's header for its metrics and, at the end, re-reads every used glyph to subset the font.
 * We do that work once per process and share only *pure data*:
 *
 * - the fontkit font of each face ("base"), whose decoded tables never change;
 * - glyph metrics by glyph id, and the raw outline bytes + composite components that the
 *   subsetter copies (ttf-subset.ts);
 * - shaping results of words (shape-cache.ts).
 *
 * Everything fontkit and pdfkit keep *per document* stays per document: each document gets a
 * "view" of the base (Object.create(base)) with its own glyph objects and layout engine, and its
 * own pdfkit EmbeddedFont (document-font.ts: subset, widths, ToUnicode, caches, PDF refs). This
 * matters: fontkit glyph objects remember the code points they were first created with, and
 * those end up in the ToUnicode map, so sharing glyph objects would make text extraction (and
 * the bytes) depend on what the process rendered before.
 *
 * This depends on fontkit 2 / pdfkit 0.19 internals; render-document-pdf.test.ts compares the
 * result with plain pdfmake (text, pixels and the embedded font subsets) and must pass after any
 * upgrade.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sharedEmbeddedFontClass } from './document-font.ts';
import { noteGlyphCall, replayableCodePoints, type ShapeRecipe } from './shape-cache.ts';
import type { SubsetGlyph, SubsetSource } from './ttf-subset.ts';

export const PRINT_FONT_FAMILY = 'PorticoDejaVuSans';

const FONT_FILES = {
  normal: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italics: 'DejaVuSans-Oblique.ttf',
  bolditalics: 'DejaVuSans-BoldOblique.ttf',
} as const;

export type FontType = keyof typeof FONT_FILES;

// ---------------------------------------------------------------------------
// fontkit / pdfkit internals (typed locally; neither ships types for them).

interface GlyphMetrics {
  advanceWidth: number;
  leftBearing: number;
}

export interface FontkitGlyphLike {
  id: number;
  codePoints: number[];
  advanceWidth: number;
  _metrics?: GlyphMetrics;
  _getMetrics(): GlyphMetrics;
  _decode(): { numberOfContours: number; components?: Array<{ glyphID: number; pos: number }> } | null;
}

export interface FontkitFontLike {
  getGlyph(glyph: number, characters?: number[]): FontkitGlyphLike;
  layout(text: string): unknown;
  characterSet: number[];
  bbox: unknown;
  postscriptName: string;
  _cmapProcessor: { lookup(codePoint: number): number };
  _layoutEngine: object;
  _variationProcessor?: unknown;
  _getTableStream(tag: string): { buffer: Uint8Array; pos: number };
  loca: { version: number; offsets: number[] };
  directory: { tables: Record<string, { offset: number; length: number } | undefined> };
  createSubset(): { includeGlyph(glyph: number): number; encode(): Uint8Array };
}

/** What pdfkit reads from a (scaled) fontkit GlyphRun. */
export interface GlyphRunLike {
  glyphs: FontkitGlyphLike[];
  positions: Array<{ xAdvance: number; yAdvance: number; xOffset: number; yOffset: number; advanceWidth: number }>;
  advanceWidth: number;
}

/** A word as a content stream needs it (per document: subset ids are per document). */
export interface EncodedWord {
  /** Hex glyph ids and, between them, TJ adjustments (thousandths of the font size). */
  parts: Array<string | number>;
  /**
   * Sum of the glyph advances, in thousandths of the font size: where a viewer's text position
   * ends up. null when the font's widths disagree with the shaping (the next word then needs
   * its own text matrix).
   */
  advance: number | null;
  /** Set when some glyph is offset (e.g. a combining mark): then drawn glyph by glyph. */
  positioned: { hex: string[]; positions: GlyphRunLike['positions'] } | null;
}

/** pdfkit's EmbeddedFont (the parts we use). */
export interface EmbeddedFontLike {
  id: string;
  font: FontkitFontLike;
  ascender: number;
  subset: unknown;
  layoutCache?: Record<string, GlyphRunLike>;
  layoutRun(text: string, features?: unknown): GlyphRunLike;
  layoutCached(text: string): GlyphRunLike;
  widthOfString(text: string, size: number, features?: unknown): number;
  encode(text: string, features?: unknown): [string[], GlyphRunLike['positions']];
  ref(): { toString(): string };
  lineHeight(size: number): number;
}

/** A per-document view of a shared face: shared tables, own glyph objects (document-font.ts). */
export type DocumentView = FontkitFontLike & { _glyphs: Record<number, FontkitGlyphLike | undefined> };

/** A font of one document (createDocumentFont). */
export interface DocumentFont extends EmbeddedFontLike {
  encodeWord(text: string): EncodedWord;
}

export type EmbeddedFontCtor = new (document: unknown, fontkitFont: unknown, id: string) => EmbeddedFontLike;

/** A pdfkit document, as far as loading fonts is concerned. */
interface FontLoadingDocument {
  font(src: Uint8Array): { _font: EmbeddedFontLike };
}

// ---------------------------------------------------------------------------
// Shared faces

export interface SharedFace {
  /** pdfkit's EmbeddedFont, specialised for shared faces (see sharedEmbeddedFontClass). */
  Font: new (
    document: unknown,
    face: SharedFace,
    id: string,
  ) => DocumentFont;
  LayoutEngine: new (font: FontkitFontLike) => object;
  base: FontkitFontLike;
  /** Code points whose shaping can be replayed (shape-cache.ts). */
  replayable: Set<number>;
  shapes: Map<string, ShapeRecipe>;
  olderShapes: Map<string, ShapeRecipe>;
  subsetSource: SubsetSource;
}

let sharedFaces: Map<FontType, SharedFace> | undefined;

/**
 * Parses the four faces (once per process). `probe` is a throw-away pdfkit document, used only
 * to let pdfkit parse each face and to reach its (non-exported) EmbeddedFont class.
 */
export function loadSharedFaces(probe: FontLoadingDocument): void {
  if (sharedFaces !== undefined) return;
  const faces = new Map<FontType, SharedFace>();
  for (const [type, file] of Object.entries(FONT_FILES) as Array<[FontType, string]>) {
    const buffer = readFileSync(fileURLToPath(import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
    const embedded = probe.font(buffer)._font;
    const base = embedded.font;
    // Decode the layout tables and cached getters now rather than during the first render.
    base.layout('Quotation 0123456789 ,.%€ ČĆŠŽĐ čćšžđ ß äöü m²');
    void base.bbox;
    const metrics = shareGlyphMetrics(base);
    faces.set(type, {
      Font: sharedEmbeddedFontClass(embedded.constructor as EmbeddedFontCtor),
      LayoutEngine: base._layoutEngine.constructor as SharedFace['LayoutEngine'],
      base,
      replayable: replayableCodePoints(base),
      shapes: new Map(),
      olderShapes: new Map(),
      subsetSource: subsetSourceOf(base, metrics),
    });
  }
  sharedFaces = faces;
}

/**
 * Creates the pdfkit font of one face for one document. `id` must follow pdfkit's numbering
 * (F1, F2, ...): it also derives the subset tag.
 */
export function createDocumentFont(document: unknown, type: FontType, id: string): DocumentFont {
  const face = sharedFaces?.get(type);
  if (face === undefined) throw new Error(`font style not loaded: ${type}`);
  return new face.Font(document, face, id);
}

/*
 * Glyph metrics. pdfkit reads every glyph's advance width, which makes fontkit decode the glyph
 * header (for its bounding box) once per glyph object, i.e. once per document. For static
 * (non-variable) fonts the metrics are a pure function of the glyph id and only read, so glyph
 * objects created through the base or any view get them from a per-process table.
 */
function shareGlyphMetrics(base: FontkitFontLike): Map<number, GlyphMetrics> {
  const metrics = new Map<number, GlyphMetrics>();
  const isStatic = !base._variationProcessor; // variable fonts compute metrics per instance
  const getGlyph = base.getGlyph;
  Object.defineProperty(base, 'getGlyph', {
    configurable: true,
    writable: true,
    value: function getGlyphWithSharedMetrics(
      this: FontkitFontLike,
      id: number,
      characters?: number[],
    ): FontkitGlyphLike {
      noteGlyphCall(id, characters);
      const glyph = getGlyph.call(this, id, characters);
      if (isStatic && glyph !== null && glyph._metrics === undefined) {
        const shared = metrics.get(id);
        if (shared === undefined) metrics.set(id, glyph._getMetrics());
        else glyph._metrics = shared;
      }
      return glyph;
    },
  });
  return metrics;
}

/** What the subsetter needs from a face: static tables and, per glyph, outline bytes and metrics. */
function subsetSourceOf(base: FontkitFontLike, metrics: Map<number, GlyphMetrics>): SubsetSource {
  if (base._variationProcessor) throw new Error('variable fonts are not supported by the quotation subsetter');
  const rawTable = (tag: string): Uint8Array | null => {
    const entry = base.directory.tables[tag];
    if (entry === undefined) return null;
    const stream = base._getTableStream(tag);
    return stream.buffer.subarray(entry.offset, entry.offset + entry.length);
  };
  const glyphs = new Map<number, SubsetGlyph>();
  // Glyph objects for subsetting come from a private view, so that nothing a document can see
  // (the base's or a document view's glyph cache) is touched.
  const reader = Object.create(base) as FontkitFontLike & { _glyphs: Record<number, unknown> };
  reader._glyphs = {};
  const glyf = rawTable('glyf');
  return {
    locaVersion: base.loca.version,
    tables: {
      head: rawTable('head'),
      hhea: rawTable('hhea'),
      maxp: rawTable('maxp'),
      cvt: rawTable('cvt '),
      prep: rawTable('prep'),
      fpgm: rawTable('fpgm'),
    },
    glyph(id) {
      let glyph = glyphs.get(id);
      if (glyph === undefined) {
        const fontkitGlyph = reader.getGlyph(id);
        const decoded = fontkitGlyph._decode();
        const start = base.loca.offsets[id] ?? 0;
        const end = base.loca.offsets[id + 1] ?? start;
        const m = metrics.get(id) ?? fontkitGlyph._getMetrics();
        glyph = {
          bytes: glyf === null ? new Uint8Array(0) : glyf.subarray(start, end),
          components:
            decoded !== null && decoded.numberOfContours < 0
              ? (decoded.components ?? []).map((c) => ({ glyphID: c.glyphID, pos: c.pos }))
              : null,
          advance: m.advanceWidth,
          bearing: m.leftBearing,
        };
        glyphs.set(id, glyph);
        delete reader._glyphs[id]; // keep only the plain data above
      }
      return glyph;
    },
  };
}
