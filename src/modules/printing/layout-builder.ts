/**
 * pdfmake's layout engine, with a faster text measurement step.
 *
 * pdfmake measures every word of every text node through TextInlines#measure, which resolves
 * ~20 style properties (font, bold, fontSize, color, decoration, link, ...) per word, each by
 * walking the whole style stack (document → table → cell → stack → text node) with fresh
 * closures, then adds them to the word one by one: about a quarter of a 10-line quotation's
 * render time. Within one measure call the stack does not change and the words of a text node
 * rarely carry style of their own, so here the stack is read once per call (one pass, all
 * properties), a word's own values still win, and each measured word is created as one object.
 * buildInlines loses its per-call arrays and closures. Anything with named styles (`style: ...`)
 * or nested text arrays takes pdfmake's own code. The inline lists are the same, so the layout
 * is unchanged (render-document-pdf.test.ts compares text and pixels with plain pdfmake).
 *
 * The replacement is installed on this builder's own measurer only (FastLayoutBuilder);
 * pdfmake is not patched for anyone else.
 */
import { createRequire } from 'node:module';
import type { LaidOutPage } from './content-stream-renderer.ts';

interface StyleStack {
  styleOverrides: Array<string | Record<string, unknown>>;
  defaultStyle?: Record<string, unknown>;
  getProperty(property: string): unknown;
}

interface StyleContextStackClass {
  getStyleProperty(item: object, stack: StyleStack, property: string, defaultValue: unknown): unknown;
}

/** A word (pdfmake's "inline"): TextBreaker splits text into them, measure returns them measured. */
type Item = Record<string, unknown> & { text: string; style?: unknown };

interface MeasuredFont {
  lineHeight(size: number): number;
  widthOfString(text: string, size: number, features?: unknown): number;
}

interface BuiltInlines {
  items: Item[];
  minWidth: number;
  maxWidth: number;
}

interface TextInlinesInstance {
  pdfDocument: { provideFont(family: unknown, bold: unknown, italics: unknown): MeasuredFont };
  buildInlines(textArray: unknown, stack: StyleStack): BuiltInlines;
  measure(array: Item[], stack: StyleStack): Item[];
}

interface TextBreakerInstance {
  getBreaks(texts: unknown[], stack: StyleStack): Item[];
}

type TextInlinesClass = new (pdfDocument: unknown) => TextInlinesInstance;

interface LayoutBuilderInstance {
  docMeasure: { textInlines: TextInlinesInstance };
  registerTableLayouts(layouts: object): void;
  layoutDocument(
    content: unknown,
    pdfDocument: unknown,
    styles: object,
    defaultStyle: object,
    background: unknown,
    header: unknown,
    footer: unknown,
    watermark: unknown,
    pageBreakBefore: unknown,
  ): LaidOutPage[];
  tryLayoutDocument(docStructure: unknown, pdfDocument: unknown, ...rest: unknown[]): unknown;
}

type LayoutBuilderClass = new (pageSize: object, pageMargins: object, svgMeasure: object) => LayoutBuilderInstance;

const require = createRequire(import.meta.url);
const LayoutBuilder = (require('pdfmake/js/LayoutBuilder.js') as { default: LayoutBuilderClass }).default;
const TextInlines = (require('pdfmake/js/TextInlines.js') as { default: TextInlinesClass }).default;
const StyleContextStack = (require('pdfmake/js/StyleContextStack.js') as { default: StyleContextStackClass }).default;
const TextBreaker = (require('pdfmake/js/TextBreaker.js') as { default: new () => TextBreakerInstance }).default;

const LEADING = /^(\s)+/;
const TRAILING = /(\s)+$/;

/** The style properties TextInlines#measure reads, as one fixed-shape record. */
class Style {
  font: unknown = undefined;
  bold: unknown = undefined;
  italics: unknown = undefined;
  alignment: unknown = undefined;
  fontSize: unknown = undefined;
  fontFeatures: unknown = undefined;
  characterSpacing: unknown = undefined;
  color: unknown = undefined;
  decoration: unknown = undefined;
  decorationColor: unknown = undefined;
  decorationStyle: unknown = undefined;
  decorationThickness: unknown = undefined;
  background: unknown = undefined;
  link: unknown = undefined;
  linkToPage: unknown = undefined;
  linkToDestination: unknown = undefined;
  noWrap: unknown = undefined;
  opacity: unknown = undefined;
  sup: unknown = undefined;
  sub: unknown = undefined;
  lineHeight: unknown = undefined;
  preserveLeadingSpaces: unknown = undefined;
  preserveTrailingSpaces: unknown = undefined;
}

type StyleKey = keyof Style;
const STYLE_KEYS = new Set<string>(Object.keys(new Style()));
const isStyleKey = (key: string): key is StyleKey => STYLE_KEYS.has(key);

/**
 * What StyleContextStack#getProperty returns for each measured property, in one pass over the
 * stack: the topmost value that is not null/undefined, else the default style's. Named styles on
 * the stack take pdfmake's own lookup.
 */
function inheritedStyle(stack: StyleStack): Style {
  const style = new Style();
  const overrides = stack.styleOverrides;
  if (overrides.some((o) => typeof o === 'string')) {
    for (const key of STYLE_KEYS) style[key as StyleKey] = stack.getProperty(key);
    return style;
  }
  const found = new Set<string>();
  for (let i = overrides.length - 1; i >= 0 && found.size < STYLE_KEYS.size; i--) {
    const layer = overrides[i] as Record<string, unknown>;
    for (const key in layer) {
      if (!isStyleKey(key) || found.has(key)) continue;
      const value = layer[key];
      if (value !== undefined && value !== null) {
        style[key] = value;
        found.add(key);
      }
    }
  }
  const defaults = stack.defaultStyle;
  if (defaults) for (const key in defaults) if (isStyleKey(key) && !found.has(key)) style[key] = defaults[key];
  return style;
}

/**
 * A word's effective style: its own values (not null/undefined) over the inherited ones, as
 * StyleContextStack.getStyleProperty resolves them. Words usually carry none (only text,
 * lineEnd, ...), and then share the inherited record.
 */
function ownStyle(item: Item, inherited: Style): Style {
  let style: Style | null = null;
  for (const key in item) {
    if (!isStyleKey(key)) continue;
    const value = item[key];
    if (value === undefined || value === null) continue;
    style ??= Object.assign(new Style(), inherited);
    style[key] = value;
  }
  return style ?? inherited;
}

/** A text that pdfmake's flattenTextArray would return as it is (no nested `text` arrays). */
function flatText(text: unknown): unknown[] | null {
  if (typeof text === 'string') return [text];
  if (!Array.isArray(text)) return null;
  for (const part of text) {
    if (
      Array.isArray(part) ||
      (typeof part === 'object' && part !== null && Array.isArray((part as { text?: unknown }).text))
    )
      return null;
  }
  return text;
}

/** TextInlines#measure with each style property resolved once per call (see the file comment). */
class FastTextInlines extends TextInlines {
  private readonly breaker = new TextBreaker(); // stateless

  /** pdfmake's buildInlines without its per-call arrays and closures (same result). */
  override buildInlines(textArray: unknown, stack: StyleStack): BuiltInlines {
    const flat = flatText(textArray);
    if (flat === null) return super.buildInlines(textArray, stack);
    const items = this.measure(this.breaker.getBreaks(flat, stack), stack);
    let minWidth = 0;
    let maxWidth = 0;
    let lineOpen = false;
    let lineWidth = 0;
    let lineLeadingCut = 0;
    for (const item of items) {
      const width = item.width as number;
      const leadingCut = item.leadingCut as number;
      const trailingCut = item.trailingCut as number;
      minWidth = Math.max(minWidth, Math.max(0, width - leadingCut - trailingCut));
      if (!lineOpen) {
        lineOpen = true;
        lineWidth = 0;
        lineLeadingCut = leadingCut;
      }
      lineWidth += width;
      maxWidth = Math.max(maxWidth, Math.max(0, lineWidth - lineLeadingCut - trailingCut));
      if (item.lineEnd) lineOpen = false;
    }
    if (StyleContextStack.getStyleProperty({}, stack, 'noWrap', false)) minWidth = maxWidth;
    return { items, minWidth, maxWidth };
  }

  override measure(array: Item[], stack: StyleStack): Item[] {
    if (array.some((item) => item.style !== undefined)) return super.measure(array, stack);
    const inherited = inheritedStyle(stack);
    const first = array[0];
    if (first !== undefined) {
      const leadingIndent = StyleContextStack.getStyleProperty(first, stack, 'leadingIndent', 0) as number;
      if (leadingIndent) {
        first.leadingCut = -leadingIndent;
        first.leadingIndent = leadingIndent;
      }
    }
    // Each measured word is built as one object (pdfmake adds ~22 properties to the word one by
    // one, reallocating its property store several times). Defaults are pdfmake's.
    return array.map((item) => {
      const style = ownStyle(item, inherited);
      const font = this.pdfDocument.provideFont(style.font ?? 'Roboto', style.bold ?? false, style.italics ?? false);
      const sup = style.sup ?? false;
      const sub = style.sub ?? false;
      let fontSize = (style.fontSize ?? 12) as number;
      if (sup || sub) fontSize *= 0.58;
      const fontFeatures = style.fontFeatures ?? null;
      const characterSpacing = style.characterSpacing ?? 0;
      const spacing = (characterSpacing as number) || 0;
      const width = (text: string): number =>
        font.widthOfString(text, fontSize, fontFeatures) + spacing * (text.length - 1);
      const { text } = item;
      const textWidth = width(text); // first: the order of measurements fixes glyph code points
      let leadingCut = (item.leadingCut as number) || 0;
      if (!(style.preserveLeadingSpaces ?? false)) {
        const leading = LEADING.exec(text);
        if (leading) leadingCut += width(leading[0]);
      }
      let trailingCut = 0;
      if (!(style.preserveTrailingSpaces ?? false)) {
        const trailing = TRAILING.exec(text);
        if (trailing) trailingCut = width(trailing[0]);
      }
      const measured: Item = {
        text,
        font,
        alignment: style.alignment ?? 'left',
        fontSize,
        fontFeatures,
        characterSpacing,
        color: style.color ?? 'black',
        decoration: style.decoration ?? null,
        decorationColor: style.decorationColor ?? null,
        decorationStyle: style.decorationStyle ?? null,
        decorationThickness: style.decorationThickness ?? null,
        background: style.background ?? null,
        link: style.link ?? null,
        linkToPage: style.linkToPage ?? null,
        linkToDestination: style.linkToDestination ?? null,
        noWrap: style.noWrap ?? null,
        opacity: style.opacity ?? 1,
        sup,
        sub,
        width: textWidth,
        height: font.lineHeight(fontSize) * ((style.lineHeight ?? 1) as number),
        leadingCut,
        trailingCut,
      };
      // Whatever else the word carries (lineEnd, noNewLine, leadingIndent, copied style).
      for (const key in item) if (!(key in measured)) measured[key] = item[key];
      return measured;
    });
  }
}

/** pdfmake's LayoutBuilder, measuring text with FastTextInlines. */
export class FastLayoutBuilder extends LayoutBuilder {
  override tryLayoutDocument(docStructure: unknown, pdfDocument: unknown, ...rest: unknown[]): unknown {
    // layoutDocument creates a fresh DocMeasure right before calling this.
    this.docMeasure.textInlines = new FastTextInlines(pdfDocument);
    return super.tryLayoutDocument(docStructure, pdfDocument, ...rest);
  }
}
