/**
 * Draws pdfmake's laid-out pages as compact PDF content streams (in place of pdfmake's Renderer).
 *
 * pdfmake's Renderer hands every word to pdfkit's text() as its own text object (q, cm, BT, Tm,
 * Tf, TJ, ET, Q) and re-sets colour space, colour and an ExtGState before each word, and every
 * table rule sets line width, dash, join and cap again: ~50 KB of operators for a one-page
 * quotation, built from thousands of small strings and buffers, then deflated. That was a
 * quarter (10 lines) to a half (200 lines) of the render time. Here each page becomes one
 * string, the words of a line one TJ run, and font, colour and line width are only set when
 * they change (~16 KB for that page). Positions are computed exactly as pdfkit does, so the
 * pages look the same: render-document-pdf.test.ts compares text and pixels with plain pdfmake.
 *
 * Only what quotation documents produce is supported (text lines, rectangles, lines and the
 * payment codes' images);
 * anything else throws, so a new feature in the document definition cannot silently go missing.
 */

import type { DocumentFont } from './shared-fonts.ts';

/** pdfmake's laid-out page (LayoutBuilder#layoutDocument result), as far as we read it. */
export interface LaidOutPage {
  pageSize: { width: number; height: number };
  items: Array<{ type: string; item: unknown }>;
  watermark?: unknown;
}

interface Inline {
  text: string;
  font: DocumentFont;
  fontSize: number;
  height?: number;
  color?: unknown;
  x: number;
  opacity?: number;
  characterSpacing?: number;
  sup?: boolean;
  sub?: boolean;
  fontFeatures?: unknown;
  decoration?: unknown;
  background?: unknown;
  link?: unknown;
  linkToPage?: unknown;
  linkToDestination?: unknown;
  _pageNodeRef?: unknown;
}

interface Line {
  x: number;
  y: number;
  inlines: Inline[];
  id?: unknown;
  _outline?: unknown;
  _pageNodeRef?: unknown;
}

interface Vector {
  type: string;
  x?: number;
  y?: number;
  w?: number;
  h?: number;
  r?: number;
  x1?: number;
  y1?: number;
  x2?: number;
  y2?: number;
  lineWidth?: number;
  color?: unknown;
  lineColor?: unknown;
  fillOpacity?: number;
  strokeOpacity?: number;
  dash?: unknown;
  lineJoin?: string;
  lineCap?: string;
  linearGradient?: unknown;
}

interface Picture {
  x: number;
  y: number;
  _width: number;
  _height: number;
  /** The key of the definition's `images`. */
  image: string;
  opacity?: number;
  cover?: unknown;
  fit?: unknown;
  link?: unknown;
}

/** The parts of a (pdfmake) pdfkit document the renderer uses. */
export interface RenderTarget {
  addPage(options: { size: [number, number] }): unknown;
  addContent(data: string): unknown;
  page: { height: number; fonts: Record<string, unknown>; xobjects: Record<string, unknown> };
  /** pdfmake's image registry: the embedded image of a key (embedded while measuring). */
  provideImage(src: string): { label: string; obj: unknown };
  _normalizeColor(color: unknown): number[] | null;
}

/** pdfkit's number formatting for content streams (6 decimals). */
function num(n: number): number {
  if (!(n > -1e21 && n < 1e21)) throw new Error(`unsupported number: ${n}`);
  return Math.round(n * 1e6) / 1e6;
}

function unsupported(what: string): never {
  throw new Error(`the quotation PDF renderer does not support ${what}`);
}

const colorCache = new Map<unknown, string>();

/** "r g b" for a pdfmake colour (invalid colours fall back to black, as in pdfmake). */
function rgb(target: RenderTarget, color: unknown): string {
  const key = color || 'black';
  let out = colorCache.get(key);
  if (out === undefined) {
    if (typeof key !== 'string') unsupported('non-string colours');
    const parts = target._normalizeColor(key) ?? target._normalizeColor('black');
    if (parts === null || parts.length !== 3) unsupported(`colour ${JSON.stringify(key)}`);
    out = parts.map(num).join(' ');
    if (colorCache.size < 1000) colorCache.set(key, out);
  }
  return out;
}

/** Renders the pages onto `target`, one content stream per page. */
export function renderPages(target: RenderTarget, pages: LaidOutPage[]): void {
  for (const page of pages) {
    if (page.watermark) unsupported('watermarks');
    target.addPage({ size: [page.pageSize.width, page.pageSize.height] });
    target.addContent(new PageWriter(target).write(page));
  }
}

/**
 * One page. pdfkit's page starts with `1 0 0 -1 0 H cm` (user space with y pointing down);
 * text objects use the text matrix `1 0 0 -1 x baseline` so that glyphs stand upright, which is
 * the same final transformation as pdfkit's `q 1 0 0 -1 0 H cm BT 1 0 0 1 x H-baseline Tm`.
 * The words of a line (pdfmake lays out word by word) are written as one run: pdfmake places
 * each word where the previous one's advance ends, so only the first needs a text matrix.
 */
class PageWriter {
  private readonly out: string[] = [];
  private readonly target: RenderTarget;
  private inText = false;
  private font: DocumentFont | null = null;
  private fontSize = -1;
  private fill = '';
  private stroke = '';
  private lineWidth = -1;
  /** The TJ being built: finished parts (strings and adjustments) and the open hex string. */
  private run = '';
  private runHex = '';
  /** Where the text position is after the last glyph written (NaN: unknown). */
  private penX = Number.NaN;
  private penBaseline = Number.NaN;

  constructor(target: RenderTarget) {
    this.target = target;
  }

  write(page: LaidOutPage): string {
    for (const { type, item } of page.items) {
      if (type === 'line') this.line(item as Line);
      else if (type === 'vector') this.vector(item as Vector);
      else if (type === 'image') this.picture(item as Picture);
      else if (type === 'beginVerticalAlignment' || type === 'endVerticalAlignment') {
        const alignment = (item as { verticalAlignment?: string }).verticalAlignment;
        if (alignment !== undefined && alignment !== 'top') unsupported(`vertical alignment ${alignment}`);
      } else unsupported(`${type} items`);
    }
    this.endText();
    return this.out.join('\n');
  }

  private setFill(color: string): void {
    if (color !== this.fill) {
      this.flushRun();
      this.out.push(`${color} rg`);
      this.fill = color;
    }
  }

  private endText(): void {
    if (this.inText) {
      this.flushRun();
      this.out.push('ET');
      this.inText = false;
    }
  }

  private flushRun(): void {
    if (this.run) {
      this.out.push(`[${this.run}${this.runHex ? `<${this.runHex}>` : ''}] TJ`);
    } else if (this.runHex) {
      this.out.push(`<${this.runHex}> Tj`);
    }
    this.run = '';
    this.runHex = '';
  }

  private line(line: Line): void {
    if (line._outline !== undefined || line._pageNodeRef !== undefined || line.id !== undefined)
      unsupported('outlines, page references and ids');
    // Line#getHeight and #getAscenderHeight, in one pass.
    let lineHeight = 0;
    let ascender = 0;
    for (const inline of line.inlines) {
      lineHeight = Math.max(lineHeight, inline.height || 0);
      ascender = Math.max(ascender, (inline.font.ascender / 1000) * inline.fontSize);
    }
    const descent = lineHeight - ascender;
    for (const inline of line.inlines) {
      if (inline.link || inline.linkToPage || inline.linkToDestination || inline._pageNodeRef) unsupported('links');
      if (inline.decoration || inline.background) unsupported('text decorations and backgrounds');
      if (inline.fontFeatures || inline.characterSpacing) unsupported('font features and character spacing');
      if (inline.opacity !== undefined && inline.opacity !== 1) unsupported('opacity');
      const text = inline.text.includes('\n') ? inline.text.replace(/\n/g, '') : inline.text;
      if (text.length === 0) continue;
      // pdfmake: top of the inline = line.y + lineHeight - ascent - descent; pdfkit's baseline
      // is that plus the ascent.
      let baseline = line.y + lineHeight - descent;
      if (inline.sup) baseline -= inline.fontSize * 0.75;
      if (inline.sub) baseline += inline.fontSize * 0.35;
      this.text(inline.font, inline.fontSize, rgb(this.target, inline.color), line.x + inline.x, baseline, text);
    }
  }

  private moveTo(x: number, baseline: number): void {
    this.flushRun();
    this.out.push(`1 0 0 -1 ${num(x)} ${num(baseline)} Tm`);
  }

  /** pdfkit's TextMixin#_fragment for left-aligned text without spacing options. */
  private text(font: DocumentFont, fontSize: number, color: string, x: number, baseline: number, text: string): void {
    const { out } = this;
    if (!this.inText) {
      out.push('BT');
      this.inText = true;
      this.penX = Number.NaN;
    }
    const fonts = this.target.page.fonts;
    if (fonts[font.id] === undefined) fonts[font.id] = font.ref();
    // Tf is part of the graphics state: it persists across text objects.
    if (font !== this.font || fontSize !== this.fontSize) {
      this.flushRun();
      out.push(`/${font.id} ${num(fontSize)} Tf`);
      this.font = font;
      this.fontSize = fontSize;
    }
    this.setFill(color);
    // (written so that an unknown position, NaN, always moves)
    if (!(baseline === this.penBaseline && Math.abs(x - this.penX) <= 1e-6)) this.moveTo(x, baseline);

    const scale = fontSize / 1000;
    const word = font.encodeWord(text);
    if (word.positioned === null) {
      for (const part of word.parts) {
        if (typeof part === 'string') {
          this.runHex += part;
        } else {
          // TJ numbers are in thousandths of the font size, subtracted from the position.
          this.run += `<${this.runHex}> ${num(part)} `;
          this.runHex = '';
        }
      }
      this.penX = word.advance === null ? Number.NaN : x + word.advance * scale;
      this.penBaseline = baseline;
      return;
    }
    const { hex, positions } = word.positioned;
    let hadOffset = false;
    for (let i = 0; i < positions.length; i++) {
      const p = positions[i]!;
      if (p.xOffset || p.yOffset) {
        // A positioned glyph (e.g. a combining mark) gets its own text matrix, as in pdfkit.
        this.moveTo(x + p.xOffset * scale, baseline - p.yOffset * scale);
        hadOffset = true;
      } else if (hadOffset) {
        this.moveTo(x, baseline);
        hadOffset = false;
      }
      this.runHex += hex[i];
      const adjustment = p.xAdvance - p.advanceWidth;
      if (adjustment !== 0) {
        this.run += `<${this.runHex}> ${num(-adjustment)} `;
        this.runHex = '';
      }
      if (p.xOffset || p.yOffset) this.flushRun();
      x += p.xAdvance * scale;
    }
    this.penX = hadOffset || word.advance === null ? Number.NaN : x;
    this.penBaseline = baseline;
  }

  /** pdfkit's image(): the unit square scaled to the image's box, flipped back upright. */
  private picture(p: Picture): void {
    if ((p.opacity ?? 1) !== 1 || p.cover || p.fit || p.link) unsupported('image opacity, cover, fit and links');
    this.endText();
    const image = this.target.provideImage(p.image);
    this.target.page.xobjects[image.label] = image.obj;
    this.out.push(
      'q',
      `${num(p._width)} 0 0 ${num(-p._height)} ${num(p.x)} ${num(p.y + p._height)} cm`,
      `/${image.label} Do`,
      'Q',
    );
  }

  private vector(v: Vector): void {
    if (v.dash || v.linearGradient || v.r) unsupported('dashed lines, gradients and rounded rectangles');
    if ((v.lineJoin ?? 'miter') !== 'miter' || (v.lineCap ?? 'butt') !== 'butt') unsupported('line joins and caps');
    if ((v.fillOpacity ?? 1) !== 1 || (v.strokeOpacity ?? 1) !== 1) unsupported('opacity');
    this.endText();
    let path: string;
    if (v.type === 'rect') path = `${num(v.x!)} ${num(v.y!)} ${num(v.w!)} ${num(v.h!)} re`;
    else if (v.type === 'line') path = `${num(v.x1!)} ${num(v.y1!)} m\n${num(v.x2!)} ${num(v.y2!)} l`;
    else unsupported(`${v.type} vectors`);
    if (v.color && v.lineColor) unsupported('filled and stroked shapes');
    if (v.color) {
      // pdfmake ignores the line width of filled shapes
      this.setFill(rgb(this.target, v.color));
      this.out.push(path, 'f');
      return;
    }
    const width = v.lineWidth || 1;
    if (width !== this.lineWidth) {
      this.out.push(`${num(width)} w`);
      this.lineWidth = width;
    }
    const color = rgb(this.target, v.lineColor);
    if (color !== this.stroke) {
      this.out.push(`${color} RG`);
      this.stroke = color;
    }
    this.out.push(path, 'S');
  }
}
