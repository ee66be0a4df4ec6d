/**
 * Quotation PDF renderer (pdfmake 0.3 + pdfkit, server side, no browser).
 *
 * - Fonts: DejaVu Sans (regular, bold, oblique, bold oblique) are read from
 *   the `dejavu-fonts-ttf` package once per process and served to pdfmake
 *   from a private in-memory file system, so č ć š ž đ ß ä ö ü m² € print.
 *   Parsed font tables and decoded glyph outlines are shared between renders
 *   (see "Shared parsed fonts" below); this makes a render ~4x faster.
 * - Deterministic: the same QuotationDocument renders to the same bytes.
 *   CreationDate/ModDate come from `issuedAt` (pdfkit would otherwise use
 *   `new Date()`), and pdfkit derives the trailer /ID as md5 over the info
 *   dictionary (CreationDate + all info values), so it is deterministic too.
 *   Font subset tags are derived from the font ids (F1, F2, ...), and zlib
 *   output is deterministic for equal input.
 * - Global state: we use pdfmake's Printer class directly instead of the
 *   `pdfmake` singleton (whose setFonts/setUrlAccessPolicy are process-wide),
 *   with no URL resolution and no local file access. The one process-wide
 *   change is a wrap of pdfmake's PDFDocument#provideFont that only acts for
 *   documents created here.
 * - Rendering is synchronous CPU work (~10 ms for 10 lines); use
 *   worker_threads if throughput on several cores matters.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { QuotationDocument } from './quotation-document.ts';

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

function getPrinter(): PdfPrinterLike {
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

// ---------------------------------------------------------------------------
// Formatting (Intl objects are cached: constructing them is the slow part).

interface Formatters {
  money: Intl.NumberFormat;
  unitPrice: Intl.NumberFormat;
  quantity: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  dateTime: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
}

const formatterCache = new Map<string, Formatters>();

function getFormatters(locale: string, currency: string, timeZone: string): Formatters {
  const key = `${locale}\u0000${currency}\u0000${timeZone}`;
  let formatters = formatterCache.get(key);
  if (formatters === undefined) {
    const money = new Intl.NumberFormat(locale, { style: 'currency', currency });
    const minDigits = money.resolvedOptions().minimumFractionDigits ?? 2;
    formatters = {
      money,
      unitPrice: new Intl.NumberFormat(locale, {
        style: 'currency',
        currency,
        minimumFractionDigits: minDigits,
        maximumFractionDigits: Math.max(minDigits, 4),
      }),
      quantity: new Intl.NumberFormat(locale, { maximumFractionDigits: 3 }),
      percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 3 }),
      dateTime: new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium', timeStyle: 'short' }),
      date: new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'medium' }),
    };
    if (formatterCache.size > 256) formatterCache.clear();
    formatterCache.set(key, formatters);
  }
  return formatters;
}

type DecimalString = `${number}`;

/** Formats a decimal string exactly (Intl accepts decimal strings without going through a double). */
function decimal(format: Intl.NumberFormat, value: string): string {
  const trimmed = value.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(trimmed)) throw new RangeError(`not a decimal number: ${JSON.stringify(value)}`);
  return format.format(trimmed as DecimalString);
}

function percent(format: Intl.NumberFormat, rate: string): string {
  const n = Number(rate);
  if (!Number.isFinite(n)) throw new RangeError(`not a tax rate: ${JSON.stringify(rate)}`);
  return format.format(n / 100);
}

function parseDate(iso: string, field: string): Date {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`${field} is not a valid ISO 8601 date: ${JSON.stringify(iso)}`);
  return date;
}

// ---------------------------------------------------------------------------
// User text

const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const LONG_TOKEN_CHARS = 28;
const LONG_TOKEN = new RegExp(`\\S{${LONG_TOKEN_CHARS},}`, 'g');

type TextValue = string | Array<string | { text: string; wordBreak: 'break-all' }>;

/**
 * Prepares user-supplied text for pdfmake: CR/LF normalised, tabs to spaces,
 * other control characters removed; and tokens of 28+ non-space characters
 * (long SKUs, URLs, pasted garbage) may break anywhere, since pdfmake
 * otherwise never breaks inside a word and one such token would stretch the
 * table past the page edge. Characters DejaVu Sans lacks (CJK, emoji) print
 * as empty boxes.
 */
function t(value: string): TextValue {
  let text = value;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(text)) {
    text = text.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').replace(CONTROL_CHARS, '');
  }
  if (text.length < LONG_TOKEN_CHARS || !LONG_TOKEN.test(text)) return text;
  LONG_TOKEN.lastIndex = 0;
  const parts: Array<string | { text: string; wordBreak: 'break-all' }> = [];
  let last = 0;
  for (const match of text.matchAll(LONG_TOKEN)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ text: match[0], wordBreak: 'break-all' });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/**
 * Conservative bound for "this table row is shorter than a page": the
 * product column is at least ~250 pt wide (≈ 55 characters of 7.5 pt text per
 * line) and an A4 page holds ~75 such lines; we allow 1,500 characters and
 * 30 explicit line breaks.
 */
function lineFitsOnAPage(line: QuotationDocument['lines'][number]): boolean {
  const text = `${line.productName}\n${line.productCode ?? ''}\n${line.note ?? ''}`;
  if (text.length > 1500) return false;
  let newlines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) newlines++;
  return newlines <= 32;
}

/** Plain-string variant for metadata (no inline splitting). */
function plain(value: string): string {
  return value.replace(/\r\n?/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

// ---------------------------------------------------------------------------
// Document definition

const GREY = '#555555';
const RULE = '#999999';

// Inline style properties rather than named `styles`: pdfmake resolves ~20
// style properties per text item by walking the style stack, and each named
// style lookup allocates; inline properties make 200-line tables ~15% faster.
const COMPANY = { fontSize: 14, bold: true } as const;
const TITLE = { fontSize: 16, bold: true } as const;
const LABEL = { color: GREY } as const;
const TH = { bold: true, fontSize: 8.5, noWrap: true } as const;
const CODE = { fontSize: 7.5, color: GREY } as const;
const LINE_NOTE = { fontSize: 7.5, italics: true, color: GREY } as const;

/**
 * The pdfmake document definition for a quotation (fonts referenced by the
 * private family name "PorticoDejaVuSans"). Exported for tests, which render
 * it through pdfmake's public API to check that the shared-font fast path
 * produces byte-identical output. Builds fresh objects on every call (pdfmake
 * mutates the definition while laying it out).
 */
export function buildQuotationDocDefinition(doc: QuotationDocument): TDocumentDefinitions {
  const f = getFormatters(doc.locale, doc.currency, doc.timezone);
  const issuedAt = parseDate(doc.issuedAt, 'issuedAt');
  const expiresAt = parseDate(doc.expiresAt, 'expiresAt');
  const title = `Quotation ${plain(doc.number)}`;

  // Company header ----------------------------------------------------------
  const companyStack: Content[] = [{ text: t(doc.company.name), ...COMPANY }];
  if (doc.company.address) companyStack.push({ text: t(doc.company.address) });
  if (doc.company.taxId) companyStack.push({ text: t(`Tax ID: ${doc.company.taxId}`) });
  const header: Content = {
    columns: [
      { width: '*', stack: companyStack },
      doc.template.header
        ? { width: '45%', text: t(doc.template.header), alignment: 'right', color: GREY }
        : { width: '45%', text: '' },
    ],
    columnGap: 16,
  };

  // Meta (dates, location) and customer ------------------------------------
  const locationText = `${doc.location.name} (${doc.location.code})`;
  const metaBody: TableCell[][] = [
    [{ text: 'Issued', ...LABEL }, f.dateTime.format(issuedAt)],
    [{ text: 'Valid until', ...LABEL }, f.date.format(expiresAt)],
    [{ text: 'Location', ...LABEL }, { text: t(doc.location.address ? `${locationText}\n${doc.location.address}` : locationText) }],
  ];
  const customerStack: Content[] = [
    { text: 'Customer', ...LABEL },
    { text: t(doc.customer.name), bold: true },
  ];
  if (doc.customer.email) customerStack.push({ text: t(doc.customer.email) });
  if (doc.customer.phone) customerStack.push({ text: t(doc.customer.phone) });

  const metaBlock: Content = {
    columns: [
      { width: '*', table: { widths: ['auto', '*'], body: metaBody }, layout: 'noBorders' },
      { width: '*', stack: customerStack },
    ],
    columnGap: 16,
    margin: [0, 0, 0, 10],
  };

  // Line table ---------------------------------------------------------------
  const tableBody: TableCell[][] = [
    [
      { text: '#', ...TH },
      { text: 'Product', ...TH },
      { text: 'Quantity', ...TH, alignment: 'right' },
      { text: 'Unit', ...TH },
      { text: 'Unit price', ...TH, alignment: 'right' },
      { text: 'Tax %', ...TH, alignment: 'right' },
      { text: 'Amount', ...TH, alignment: 'right' },
    ],
  ];
  for (const line of doc.lines) {
    const product: Content[] = [{ text: t(line.productName) }];
    if (line.productCode) product.push({ text: t(line.productCode), ...CODE });
    if (line.note) product.push({ text: t(line.note), ...LINE_NOTE });
    tableBody.push([
      { text: String(line.position) },
      { stack: product },
      { text: decimal(f.quantity, line.quantity), alignment: 'right' },
      { text: t(line.unitName) },
      { text: decimal(f.unitPrice, line.unitPrice), alignment: 'right' },
      { text: percent(f.percent, line.taxRate), alignment: 'right' },
      { text: decimal(f.money, line.amount), alignment: 'right' },
    ]);
  }
  const lineTable: Content = {
    table: {
      headerRows: 1,
      // Keep a line's name, SKU and note together on one page, unless some
      // line could be taller than a page: pdfmake silently DROPS an
      // unbreakable row that fits on no page, so then rows may split.
      dontBreakRows: doc.lines.every(lineFitsOnAPage),
      widths: ['auto', '*', 'auto', 'auto', 'auto', 'auto', 'auto'],
      body: tableBody,
    },
    layout: {
      hLineWidth: (i, node) => (i === 0 || i === 1 || i === node.table.body.length ? 0.8 : 0.25),
      vLineWidth: () => 0,
      hLineColor: (i) => (i <= 1 ? '#000000' : RULE),
      paddingLeft: (i) => (i === 0 ? 3 : 6),
      paddingRight: () => 3,
      paddingTop: () => 2.5,
      paddingBottom: () => 2.5,
      fillColor: (rowIndex) => (rowIndex === 0 ? '#eeeeee' : null),
    },
    margin: [0, 0, 0, 8],
  };

  // Totals -------------------------------------------------------------------
  const money = (value: string): string => decimal(f.money, value);
  const totalsBody: TableCell[][] = [[{ text: 'Net', ...LABEL }, { text: money(doc.totals.net), alignment: 'right' }]];
  for (const t of doc.totals.taxes) {
    totalsBody.push([
      { text: `Tax ${percent(f.percent, t.rate)} on ${money(t.base)}`, ...LABEL },
      { text: money(t.tax), alignment: 'right' },
    ]);
  }
  totalsBody.push([{ text: 'Total tax', ...LABEL }, { text: money(doc.totals.tax), alignment: 'right' }]);
  totalsBody.push([
    { text: `Total (${doc.currency})`, bold: true, fontSize: 11 },
    { text: money(doc.totals.withTax), bold: true, fontSize: 11, alignment: 'right' },
  ]);
  const totalsBlock: Content = {
    columns: [
      {
        width: '*',
        text: doc.pricesIncludeTax ? 'Prices include tax.' : 'Prices exclude tax.',
        color: GREY,
        fontSize: 8,
      },
      {
        width: 'auto',
        table: { widths: ['auto', 'auto'], body: totalsBody },
        layout: {
          hLineWidth: (i, node) => (i === node.table.body.length - 1 ? 0.8 : 0),
          vLineWidth: () => 0,
          paddingTop: () => 1.5,
          paddingBottom: () => 1.5,
        },
      },
    ],
    unbreakable: true,
    margin: [0, 0, 0, 12],
  };

  // Assemble -----------------------------------------------------------------
  const content: Content[] = [
    header,
    { canvas: [{ type: 'line', x1: 0, y1: 0, x2: 515, y2: 0, lineWidth: 0.8 }], margin: [0, 6, 0, 8] },
    { text: title, ...TITLE, margin: [0, 0, 0, 8] },
    metaBlock,
  ];
  if (doc.note) content.push({ text: t(doc.note), margin: [0, 0, 0, 10] });
  content.push(lineTable, totalsBlock);
  if (doc.template.paymentInstructions) {
    content.push({
      stack: [{ text: 'Payment instructions', ...LABEL }, { text: t(doc.template.paymentInstructions) }],
      margin: [0, 0, 0, 10],
    });
  }
  if (doc.template.footer) content.push({ text: t(doc.template.footer), color: GREY, fontSize: 8 });

  return {
    pageSize: 'A4',
    pageMargins: [40, 36, 40, 44],
    language: doc.locale,
    displayTitle: true,
    info: {
      title,
      author: plain(doc.company.name),
      subject: `${title} for ${plain(doc.customer.name)}`,
      creator: 'Portico',
      producer: 'Portico (pdfmake)',
      creationDate: issuedAt,
      modDate: issuedAt,
    },
    defaultStyle: { font: FONT_FAMILY, fontSize: 9, lineHeight: 1.1 },
    content,
    footer: (currentPage, pageCount) => ({
      columns: [
        { text: title, color: GREY },
        { text: `Page ${currentPage} of ${pageCount}`, alignment: 'right', color: GREY },
      ],
      fontSize: 8,
      margin: [40, 14, 40, 0],
    }),
  };
}

// ---------------------------------------------------------------------------

/** Renders a quotation to PDF bytes. Same input → same bytes. */
export async function renderQuotationPdf(doc: QuotationDocument): Promise<Buffer> {
  const definition = buildQuotationDocDefinition(doc);
  const pdf = await getPrinter().createPdfKitDocument(definition);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    pdf.on('data', (chunk) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    pdf.end();
  });
}
