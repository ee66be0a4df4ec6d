/**
 * The pdfmake printer for quotations, with fonts shared across renders.
 *
 * DejaVu Sans (regular, bold, oblique, bold oblique) is read from the `dejavu-fonts-ttf` package
 * once per process and served to pdfmake from a private in-memory file system, so č ć š ž đ ß ä ö
 * ü m² € print. Parsed font tables and decoded glyph outlines are shared between renders (about
 * four times faster); glyph objects and layout stay per document, so no render changes another's
 * bytes. We use pdfmake's Printer class directly instead of the `pdfmake` singleton (whose
 * setFonts/setUrlAccessPolicy are process-wide), with no URL resolution and no local file access.
 * The one process-wide change is a wrap of pdfmake's PDFDocument#provideFont that only acts for
 * documents created here. This depends on pdfmake 0.3 internals: the byte-identity test in
 * render-quotation-pdf.test.ts must pass after any pdfmake or pdfkit upgrade.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TDocumentDefinitions } from 'pdfmake/interfaces.js';

// ---------------------------------------------------------------------------
// pdfmake internals (typed locally: @types/pdfmake only describes the
// browser-style singleton API).

interface PdfKitDocumentLike {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): void;
}

interface VirtualFs {
  existsSync(filename: string): boolean;
  readFileSync(filename: string, options?: unknown): Buffer;
}

interface UrlResolverLike {
  resolve(url: string, headers?: Record<string, string>): Promise<void>;
  resolved(): Promise<unknown>;
}

type FontDescriptors = Record<string, { normal: string; bold: string; italics: string; bolditalics: string }>;

interface PdfPrinterLike {
  createPdfKitDocument(docDefinition: TDocumentDefinitions, options?: Record<string, unknown>): Promise<PdfKitDocumentLike>;
}

type PdfPrinterCtor = new (
  fontDescriptors: FontDescriptors,
  virtualfs: VirtualFs,
  urlResolver: UrlResolverLike,
  localAccessPolicy: (path: string) => boolean,
) => PdfPrinterLike;

const require = createRequire(import.meta.url);
const PdfPrinter = (require('pdfmake/js/Printer.js') as { default: PdfPrinterCtor }).default;

// ---------------------------------------------------------------------------
// Fonts: loaded once per process.

export const QUOTATION_FONT_FAMILY = 'PorticoDejaVuSans';
const FONT_FAMILY = QUOTATION_FONT_FAMILY;
const FONT_FILES = {
  normal: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italics: 'DejaVuSans-Oblique.ttf',
  bolditalics: 'DejaVuSans-BoldOblique.ttf',
} as const;

function loadFontFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const file of Object.values(FONT_FILES)) {
    const path = fileURLToPath(import.meta.resolve(`dejavu-fonts-ttf/ttf/${file}`));
    files.set(`portico-fonts/${file}`, readFileSync(path));
  }
  return files;
}

let fontStore: Map<string, Buffer> | undefined;

function getFontStore(): Map<string, Buffer> {
  return (fontStore ??= loadFontFiles());
}

/*
 * Shared parsed fonts.
 *
 * pdfkit parses every TTF again for each document (fontkit.create, then the
 * first layout decodes cmap/GSUB/GPOS/hmtx: ~10 ms per DejaVu face), and
 * fontkit's subsetter re-decodes every used glyph outline at the end of each
 * document. We do that work once per process and keep only *pure data*
 * shared:
 *
 * - the fontkit font object of each face ("base"), whose decoded tables
 *   (cmap, GSUB, GPOS, hmtx, loca, ...) never change;
 * - decoded glyph outlines by glyph id (what TTFSubset#_addGlyph needs);
 *
 * while everything fontkit and pdfkit keep *per document* stays per document:
 * every document gets a "view" of the base (Object.create(base)) with its own
 * glyph-object cache and its own layout engine, and its own pdfkit
 * EmbeddedFont (subset, widths, ToUnicode, layout cache, PDF refs). This
 * matters: fontkit glyph objects remember the code points they were first
 * created with, and those end up in the ToUnicode map, so sharing glyph
 * objects between documents would make text extraction (and the bytes)
 * depend on what the process rendered before. With views, a render is
 * byte-identical to plain pdfmake's (checked by the tests).
 *
 * Mechanism: pdfmake's PDFDocument#provideFont is wrapped once per process;
 * the wrapper only acts for documents whose virtual file system carries our
 * provider symbol (i.e. documents created by this module) and defers to the
 * original implementation for everybody else.
 */
type FontType = keyof typeof FONT_FILES;

interface FontkitGlyphLike {
  _decode(): unknown;
}

interface FontkitFontLike {
  getGlyph(glyph: number, characters?: number[]): FontkitGlyphLike;
  layout(text: string): unknown;
  characterSet: number[];
  _cmapProcessor: { lookup(codePoint: number): number };
  _layoutEngine: object;
  _variationProcessor?: unknown;
}

/** pdfkit's EmbeddedFont (the parts we use). */
interface EmbeddedFontInstance {
  layoutCache?: Record<string, GlyphRunLike>;
  layoutRun(text: string): GlyphRunLike;
  layoutCached(text: string): GlyphRunLike;
}

/** What pdfkit reads from a (scaled) fontkit GlyphRun. */
interface GlyphRunLike {
  glyphs: Array<FontkitGlyphLike & { id: number }>;
  positions: object[];
  advanceWidth: number;
}

interface EmbeddedFontLike {
  /** The parsed fontkit font. */
  font: FontkitFontLike;
  constructor: new (document: unknown, fontkitFont: unknown, id: string) => unknown;
}

interface PdfmakeDocumentInternals {
  virtualfs: unknown;
  fontCache: Record<string, Partial<Record<FontType, unknown>>>;
  _fontCount: number;
  _fontFamilies: Record<string, unknown>;
  getFontType(bold: boolean, italics: boolean): FontType;
  font(src: Uint8Array): { _font: EmbeddedFontLike };
}

type ProvideFont = (this: PdfmakeDocumentInternals, familyName: string, bold: boolean, italics: boolean) => unknown;

interface PdfmakeDocumentClass {
  new (
    fonts: object,
    images: object,
    patterns: object,
    attachments: object,
    options: object,
    virtualfs?: unknown,
  ): PdfmakeDocumentInternals;
  prototype: { provideFont: ProvideFont };
}

const SHARED_FONT_PROVIDER = Symbol.for('portico.quotation-pdf.shared-font-provider');
const PROVIDE_FONT_WRAPPED = Symbol.for('portico.quotation-pdf.provide-font-wrapped');

type SharedFontProvider = (doc: PdfmakeDocumentInternals, familyName: string, bold: boolean, italics: boolean) => unknown;

const PdfmakeDocument = (require('pdfmake/js/PDFDocument.js') as { default: PdfmakeDocumentClass }).default;

interface SharedFace {
  EmbeddedFont: EmbeddedFontLike['constructor'];
  LayoutEngine: new (font: FontkitFontLike) => object;
  base: FontkitFontLike;
  /** Code points whose shaping can be replayed (see cachedLayout). */
  replayable: Set<number>;
  shapes: Map<string, ShapeRecipe>;
}

let sharedFonts: Map<FontType, SharedFace> | undefined;

function loadSharedFonts(): Map<FontType, SharedFace> {
  const store = getFontStore();
  // A throw-away pdfkit document is used only to let pdfkit parse each face
  // and to obtain its (non-exported) EmbeddedFont class.
  const probe = new PdfmakeDocument({}, {}, {}, {}, { autoFirstPage: false, font: null, compress: true });
  const fonts = new Map<FontType, SharedFace>();
  for (const [type, file] of Object.entries(FONT_FILES) as Array<[FontType, string]>) {
    const buffer = store.get(`portico-fonts/${file}`);
    if (buffer === undefined) throw new Error(`font file not loaded: ${file}`);
    const embedded = probe.font(buffer)._font;
    const base = embedded.font;
    // Decode the layout tables now rather than during the first render.
    base.layout('Quotation 0123456789 ,.%€ ČĆŠŽĐ čćšžđ ß äöü m²');
    shareGlyphOutlines(base);
    fonts.set(type, {
      EmbeddedFont: embedded.constructor,
      LayoutEngine: base._layoutEngine.constructor as SharedFace['LayoutEngine'],
      base,
      replayable: replayableCodePoints(base),
      shapes: new Map(),
    });
  }
  return fonts;
}

/*
 * fontkit's TrueType subsetter decodes the outline of every used glyph for
 * each document (TTFSubset#_addGlyph -> glyph._decode(), to find composite
 * components): ~25% of a 10-line render. For static (non-variable) fonts the
 * decoded outline is a pure function of the glyph id and is only read, so
 * glyph objects created through the base or any view get a _decode memoised
 * by glyph id.
 */
function shareGlyphOutlines(base: FontkitFontLike): void {
  const isStatic = !base._variationProcessor; // variable fonts transform points per instance
  const decoded = new Map<number, unknown>();
  const getGlyph = base.getGlyph;
  Object.defineProperty(base, 'getGlyph', {
    configurable: true,
    writable: true,
    value: function getGlyphWithSharedOutline(this: FontkitFontLike, id: number, characters?: number[]): FontkitGlyphLike {
      recordedGlyphCalls?.push([id, characters === undefined ? undefined : [...characters]]);
      const glyph = getGlyph.call(this, id, characters);
      if (!isStatic) return glyph;
      if (glyph !== null && !Object.prototype.hasOwnProperty.call(glyph, '_decode')) {
        const decode = glyph._decode;
        Object.defineProperty(glyph, '_decode', {
          configurable: true,
          writable: true,
          value: function decodeShared(this: FontkitGlyphLike): unknown {
            if (!decoded.has(id)) decoded.set(id, decode.call(this));
            return decoded.get(id);
          },
        });
      }
      return glyph;
    },
  });
}

/*
 * Shared shaping cache. Shaping a word (fontkit GSUB/GPOS) is the largest
 * per-document cost left (~30% of a 10-line render) and the same words recur
 * in every quotation (labels, units, amounts, product names). For a word
 * whose characters each map to their own glyph (no two code points share a
 * glyph, none maps to .notdef, no default-ignorable characters), fontkit's
 * result is a pure function of the word: the glyph ids, the positions, and
 * the sequence of getGlyph(id, codePoints) calls it makes (which is what
 * creates glyph objects and fixes their code points for ToUnicode). We record
 * that once per process and replay it in later documents: the same getGlyph
 * calls against the document's view, then the recorded ids and positions.
 * The view therefore ends up in exactly the state a fresh layout would leave
 * (the tests compare whole documents with plain pdfmake, byte for byte).
 * Other words are shaped normally. Positions are shared read-only, as pdfkit
 * already does within one document.
 */
interface ShapeRecipe {
  calls: Array<[number, number[] | undefined]>;
  ids: number[];
  positions: object[];
  advanceWidth: number;
}

const SHAPE_CACHE_MAX_WORDS = 50_000;
let recordedGlyphCalls: Array<[number, number[] | undefined]> | null = null;

/** fontkit's LayoutEngine#isDefaultIgnorable, as ranges. */
function isDefaultIgnorable(cp: number): boolean {
  return (
    cp === 0x00ad || cp === 0x034f || cp === 0x061c || (cp >= 0x115f && cp <= 0x1160) || (cp >= 0x17b4 && cp <= 0x17b5) ||
    (cp >= 0x180b && cp <= 0x180e) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) || cp === 0x3164 || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0xfeff || cp === 0xffa0 ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) || (cp >= 0x1d173 && cp <= 0x1d17a) || (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

function replayableCodePoints(base: FontkitFontLike): Set<number> {
  const byGlyph = new Map<number, number[]>();
  for (const cp of base.characterSet) {
    const gid = base._cmapProcessor.lookup(cp);
    const list = byGlyph.get(gid);
    if (list === undefined) byGlyph.set(gid, [cp]);
    else list.push(cp);
  }
  const replayable = new Set<number>();
  for (const [gid, cps] of byGlyph) {
    const cp = cps[0];
    if (gid !== 0 && cps.length === 1 && cp !== undefined && !isDefaultIgnorable(cp)) replayable.add(cp);
  }
  return replayable;
}

function isReplayable(face: SharedFace, text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp > 0xffff) i++;
    if (!face.replayable.has(cp)) return false;
  }
  return true;
}

/** Replacement for pdfkit's EmbeddedFont#layoutCached (per-document cache first). */
function cachedLayout(face: SharedFace, view: FontkitFontLike, font: EmbeddedFontInstance, cache: Record<string, GlyphRunLike>, text: string): GlyphRunLike {
  const cached = cache[text];
  if (cached !== undefined) return cached;
  let run: GlyphRunLike;
  const recipe = face.shapes.get(text);
  if (recipe !== undefined) {
    for (const [id, characters] of recipe.calls) view.getGlyph(id, characters);
    run = {
      glyphs: recipe.ids.map((id) => view.getGlyph(id) as GlyphRunLike['glyphs'][number]),
      positions: recipe.positions,
      advanceWidth: recipe.advanceWidth,
    };
  } else if (!isReplayable(face, text)) {
    run = font.layoutRun(text);
  } else {
    const calls: ShapeRecipe['calls'] = [];
    recordedGlyphCalls = calls;
    try {
      run = font.layoutRun(text);
    } finally {
      recordedGlyphCalls = null;
    }
    if (face.shapes.size >= SHAPE_CACHE_MAX_WORDS) face.shapes.clear();
    face.shapes.set(text, { calls, ids: run.glyphs.map((g) => g.id), positions: run.positions, advanceWidth: run.advanceWidth });
  }
  cache[text] = run;
  return run;
}

/** A per-document view: shared tables, own glyph objects and layout engine. */
function documentView(face: SharedFace): FontkitFontLike {
  const view = Object.create(face.base) as FontkitFontLike & { _glyphs: Record<number, unknown> };
  view._glyphs = {};
  Object.defineProperty(view, '_layoutEngine', { configurable: true, writable: true, value: new face.LayoutEngine(view) });
  return view;
}

const provideSharedFont: SharedFontProvider = (doc, familyName, bold, italics) => {
  const type = doc.getFontType(bold, italics);
  if (familyName !== FONT_FAMILY) {
    throw new Error(`Font '${familyName}' in style '${type}' is not available for quotation PDFs.`);
  }
  const cache = (doc.fontCache[familyName] ??= {});
  let font = cache[type];
  if (font === undefined) {
    const face = (sharedFonts ??= loadSharedFonts()).get(type);
    if (face === undefined) throw new Error(`font style not loaded: ${type}`);
    // Same bookkeeping as pdfkit's PDFDocument#font(): sequential ids (which
    // also make the subset tag deterministic) and registration in
    // _fontFamilies so that end() embeds the subset.
    const id = `F${++doc._fontCount}`;
    const view = documentView(face);
    const embedded = new face.EmbeddedFont(doc, view, id) as EmbeddedFontInstance;
    const runs = embedded.layoutCache;
    if (runs !== undefined) embedded.layoutCached = (text) => cachedLayout(face, view, embedded, runs, text);
    font = embedded;
    doc._fontFamilies[`${FONT_FAMILY}-${type}`] = font;
    cache[type] = font;
  }
  return font;
};

function installSharedFontProvider(): void {
  sharedFonts ??= loadSharedFonts();
  const proto = PdfmakeDocument.prototype as PdfmakeDocumentClass['prototype'] & { [PROVIDE_FONT_WRAPPED]?: true };
  if (proto[PROVIDE_FONT_WRAPPED]) return;
  const original = proto.provideFont;
  proto.provideFont = function provideFont(familyName, bold, italics) {
    const vfs = this.virtualfs as { [SHARED_FONT_PROVIDER]?: SharedFontProvider } | null | undefined;
    const provider = vfs?.[SHARED_FONT_PROVIDER];
    return typeof provider === 'function'
      ? provider(this, familyName, bold, italics)
      : original.call(this, familyName, bold, italics);
  };
  Object.defineProperty(proto, PROVIDE_FONT_WRAPPED, { value: true });
}

/**
 * Read-only in-memory file system holding only our font files (pdfmake
 * would otherwise look font names up on the real file system); it also
 * carries the shared-font provider.
 */
const fontFs: VirtualFs & { [SHARED_FONT_PROVIDER]: SharedFontProvider } = {
  existsSync(filename) {
    return typeof filename === 'string' && getFontStore().has(filename);
  },
  readFileSync(filename) {
    const buffer = getFontStore().get(filename);
    if (buffer === undefined) throw new Error(`font file not available: ${String(filename)}`);
    return buffer;
  },
  [SHARED_FONT_PROVIDER]: provideSharedFont,
};

/** No remote resources are ever fetched while rendering a quotation. */
const noUrlResolver: UrlResolverLike = {
  resolve(url) {
    if (/^https?:\/\//i.test(url)) throw new Error(`remote resources are not allowed in quotation PDFs: ${url}`);
    return Promise.resolve();
  },
  resolved() {
    return Promise.resolve();
  },
};

const denyLocalFiles = (): boolean => false;

let printer: PdfPrinterLike | undefined;

export function getPrinter(): PdfPrinterLike {
  if (printer === undefined) {
    installSharedFontProvider();
    // Printer#resolveUrls rewrites descriptor entries in place (to the same
    // strings); keep a private object so nobody else sees that.
    const fonts: FontDescriptors = {
      [FONT_FAMILY]: {
        normal: `portico-fonts/${FONT_FILES.normal}`,
        bold: `portico-fonts/${FONT_FILES.bold}`,
        italics: `portico-fonts/${FONT_FILES.italics}`,
        bolditalics: `portico-fonts/${FONT_FILES.bolditalics}`,
      },
    };
    // Safe to share: createPdfKitDocument stores the pdfkit document on the
    // printer only after its single await, and the layout + rendering that
    // follows is synchronous, so concurrent renders cannot interleave there.
    printer = new PdfPrinter(fonts, fontFs, noUrlResolver, denyLocalFiles);
  }
  return printer;
}

/** Loads fonts and the printer eagerly (e.g. at service start-up). */
export function warmUpQuotationPdf(): void {
  getPrinter();
}
