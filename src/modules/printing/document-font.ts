/**
 * The font of one face in one document: pdfkit's EmbeddedFont on a per-document view of a
 * shared face (shared-fonts.ts), with our subsetter (ttf-subset.ts), the shared shaping cache
 * (shape-cache.ts), and allocation-light versions of the per-word methods pdfmake and the
 * renderer call (same results as pdfkit's).
 */
import { cachedLayout } from './shape-cache.ts';
import type {
  DocumentView,
  EmbeddedFontCtor,
  EncodedWord,
  FontkitGlyphLike,
  GlyphRunLike,
  SharedFace,
} from './shared-fonts.ts';
import { TrueTypeSubset } from './ttf-subset.ts';

/** A per-document view: shared tables, own glyph objects and layout engine. */
function documentView(face: SharedFace): DocumentView {
  const view = Object.create(face.base) as DocumentView;
  view._glyphs = {};
  Object.defineProperty(view, '_layoutEngine', {
    configurable: true,
    writable: true,
    value: new face.LayoutEngine(view),
  });
  return view;
}

/** Glyph ids as the 4 hex digits of a content stream string (subset ids are small). */
const hex4Cache: string[] = [];
const hex4 = (id: number): string => (hex4Cache[id] ??= id.toString(16).padStart(4, '0'));

/** pdfkit's EmbeddedFont subclassed for shared faces (pdfkit does not export the class). */
export function sharedEmbeddedFontClass(EmbeddedFont: EmbeddedFontCtor): SharedFace['Font'] {
  return class SharedEmbeddedFont extends EmbeddedFont {
    readonly face: SharedFace;
    readonly view: DocumentView;
    declare widths: number[];
    declare unicode: number[][];
    declare scale: number;
    private readonly words = new Map<string, EncodedWord>();

    constructor(document: unknown, face: SharedFace, id: string) {
      const view = documentView(face);
      super(document, view, id);
      this.face = face;
      this.view = view;
      this.subset = new TrueTypeSubset(face.subsetSource);
    }

    override layoutCached(text: string): GlyphRunLike {
      this.layoutCache ??= Object.create(null) as Record<string, GlyphRunLike>;
      return cachedLayout(this.face, this.view, this, this.layoutCache, text);
    }

    /** pdfkit's layout: shaped per space-terminated chunk, through the cache. */
    layout(
      text: string,
      features?: unknown,
      onlyWidth?: boolean,
    ): { glyphs: FontkitGlyphLike[] | null; positions: GlyphRunLike['positions'] | null; advanceWidth: number } {
      if (features) return this.layoutRun(text, features);
      const glyphs: FontkitGlyphLike[] | null = onlyWidth ? null : [];
      const positions: GlyphRunLike['positions'] | null = onlyWidth ? null : [];
      let advanceWidth = 0;
      let last = 0;
      for (let index = 0; index <= text.length; index++) {
        const code = text.charCodeAt(index); // NaN at the end
        if (code === 32 || code === 9 || (index === text.length && last < index)) {
          const run = this.layoutCached(text.slice(last, index + 1));
          if (glyphs !== null && positions !== null) {
            for (const glyph of run.glyphs) glyphs.push(glyph);
            for (const position of run.positions) positions.push(position);
          }
          advanceWidth += run.advanceWidth;
          last = index + 1;
        }
      }
      return { glyphs, positions, advanceWidth };
    }

    /** pdfkit's widthOfString, without building the glyph lists. */
    override widthOfString(text: string, size: number, features?: unknown): number {
      if (features) return super.widthOfString(text, size, features);
      let width = 0;
      let last = 0;
      for (let index = 0; index <= text.length; index++) {
        const code = text.charCodeAt(index);
        if (code === 32 || code === 9 || (index === text.length && last < index)) {
          width += this.layoutCached(text.slice(last, index + 1)).advanceWidth;
          last = index + 1;
        }
      }
      const scale = size / 1000;
      return width * scale;
    }

    /** pdfkit's encode: subset glyph ids as 4-digit hex, recording widths and code points. */
    override encode(text: string, features?: unknown): [string[], GlyphRunLike['positions']] {
      const { glyphs, positions } = this.layout(text, features) as GlyphRunLike;
      const subset = this.subset as TrueTypeSubset;
      const encoded: string[] = [];
      for (const glyph of glyphs) {
        const gid = subset.includeGlyph(glyph.id);
        encoded.push(hex4(gid));
        this.widths[gid] ??= glyph.advanceWidth * this.scale;
        this.unicode[gid] ??= glyph.codePoints;
      }
      return [encoded, positions];
    }

    /** encode() for the content stream, memoised per word (words recur within a document). */
    encodeWord(text: string): EncodedWord {
      let word = this.words.get(text);
      if (word === undefined) {
        const [hex, positions] = this.encode(text);
        const parts: EncodedWord['parts'] = [];
        let open = '';
        let advance = 0;
        let positioned = false;
        let widthsMatch = true;
        for (let i = 0; i < positions.length; i++) {
          const p = positions[i]!;
          if (p.xOffset || p.yOffset) positioned = true;
          // A viewer advances by the font's /W width (pdfkit writes glyph 0's unscaled).
          if (this.widths[parseInt(hex[i]!, 16)] !== p.advanceWidth) widthsMatch = false;
          open += hex[i];
          const adjustment = p.xAdvance - p.advanceWidth;
          if (adjustment !== 0) {
            parts.push(open, -adjustment);
            open = '';
          }
          advance += p.xAdvance;
        }
        if (open) parts.push(open);
        word = { parts, advance: widthsMatch ? advance : null, positioned: positioned ? { hex, positions } : null };
        this.words.set(text, word);
      }
      return word;
    }
  };
}
