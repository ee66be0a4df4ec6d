/**
 * Shaping results shared across documents.
 *
 * Shaping a word (fontkit GSUB/GPOS) is costly and the same words recur in every quotation
 * (labels, units, amounts, product names). For a word whose characters each map to their own
 * glyph (no two code points share a glyph, none maps to .notdef, no default-ignorable
 * characters), fontkit's result is a pure function of the word: the glyph ids, the positions,
 * and the sequence of getGlyph(id, codePoints) calls it makes (which is what creates glyph
 * objects and fixes their code points for ToUnicode). We record that once per process and
 * replay it in later documents: the same getGlyph calls against the document's view, then the
 * recorded ids and positions. The view therefore ends up in exactly the state a fresh layout
 * would leave. Other words are shaped normally. Positions are shared read-only, as pdfkit
 * already does within one document.
 *
 * shared-fonts.ts reports every getGlyph call on a shared face through noteGlyphCall;
 * document-font.ts looks words up through cachedLayout.
 */
import type {
  DocumentView,
  EmbeddedFontLike,
  FontkitFontLike,
  FontkitGlyphLike,
  GlyphRunLike,
} from './shared-fonts.ts';

/** What the cache needs from a shared face. */
export interface ShapingFace {
  /** Code points whose shaping can be replayed (replayableCodePoints). */
  replayable: Set<number>;
  /** Recipes recorded or used since the generation began (see rememberShape). */
  shapes: Map<string, ShapeRecipe>;
  /** The generation before: still used, and moved into `shapes` when it is. */
  olderShapes: Map<string, ShapeRecipe>;
}

/** How fontkit shaped a word, to replay in another document. */
export interface ShapeRecipe {
  calls: Array<[number, number[] | undefined]>;
  ids: number[];
  positions: GlyphRunLike['positions'];
  advanceWidth: number;
}

/**
 * Words per generation of a face's recipes. The cache keeps two generations: a word used in this
 * one or the one before stays, and one unused for two generations is dropped. The words that recur
 * (labels, units, the shop's product names) stay however many documents are printed; the ones
 * that don't (each invoice's number, dates, amounts, references) leave. It held up to 50 000
 * words per face and was emptied when full: in a month archive a print thread's live heap grew by
 * ~20 KB a document (heap snapshots after 400 and 1 200 invoices: 50 and 66 MB), towards tens of MB
 * per face before the first clear (issue 37, item 10). 1 024 a generation keeps two faces' recipes
 * to a few MB.
 */
export const SHAPE_GENERATION_WORDS = 1_024;
let recordedGlyphCalls: ShapeRecipe['calls'] | null = null;

/** Called for every getGlyph on a shared face (see shared-fonts.ts): recorded while shaping. */
export function noteGlyphCall(id: number, characters: number[] | undefined): void {
  recordedGlyphCalls?.push([id, characters === undefined ? undefined : [...characters]]);
}

/** fontkit's LayoutEngine#isDefaultIgnorable, as ranges. */
function isDefaultIgnorable(cp: number): boolean {
  return (
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x061c ||
    (cp >= 0x115f && cp <= 0x1160) ||
    (cp >= 0x17b4 && cp <= 0x17b5) ||
    (cp >= 0x180b && cp <= 0x180e) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff)
  );
}

/** Code points that map to a glyph of their own (the words made of them can be replayed). */
export function replayableCodePoints(base: FontkitFontLike): Set<number> {
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

function isReplayable(face: ShapingFace, text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i) ?? 0;
    if (cp > 0xffff) i++;
    if (!face.replayable.has(cp)) return false;
  }
  return true;
}

/** pdfkit's EmbeddedFont#layoutCached: the document's cache, then the shared recipes. */
export function cachedLayout(
  face: ShapingFace,
  view: DocumentView,
  font: EmbeddedFontLike,
  cache: Record<string, GlyphRunLike>,
  text: string,
): GlyphRunLike {
  const cached = cache[text];
  if (cached !== undefined) return cached;
  let run: GlyphRunLike;
  const recipe = recipeOf(face, text);
  if (recipe !== undefined) {
    // Only calls that create a glyph change the view; the others just return it.
    const created = view._glyphs;
    for (const [id, characters] of recipe.calls) if (created[id] === undefined) view.getGlyph(id, characters);
    const glyphs: FontkitGlyphLike[] = [];
    for (const id of recipe.ids) glyphs.push(created[id] ?? view.getGlyph(id));
    run = { glyphs, positions: recipe.positions, advanceWidth: recipe.advanceWidth };
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
    rememberShape(face, text, {
      calls,
      ids: run.glyphs.map((g) => g.id),
      positions: run.positions,
      advanceWidth: run.advanceWidth,
    });
  }
  cache[text] = run;
  return run;
}

/** A word's recipe from this generation, or from the one before (moved into this one: it is in use). */
export function recipeOf(face: ShapingFace, text: string): ShapeRecipe | undefined {
  const recipe = face.shapes.get(text);
  if (recipe !== undefined) return recipe;
  const older = face.olderShapes.get(text);
  if (older !== undefined) {
    face.olderShapes.delete(text);
    rememberShape(face, text, older);
  }
  return older;
}

/** Adds to this generation; a full one becomes the one before, and the one before it is dropped. */
export function rememberShape(face: ShapingFace, text: string, recipe: ShapeRecipe): void {
  if (face.shapes.size >= SHAPE_GENERATION_WORDS) {
    face.olderShapes = face.shapes;
    face.shapes = new Map();
  }
  face.shapes.set(text, recipe);
}
