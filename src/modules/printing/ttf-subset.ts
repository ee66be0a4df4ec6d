/**
 * TrueType font subsetter for embedding: the same bytes as fontkit's TTFSubset, several times
 * faster.
 *
 * fontkit's TTFSubset#encode (what pdfkit calls for every font at the end of every document)
 * re-decodes each used glyph, clones head/hhea/maxp and serialises everything through its
 * generic struct encoder; that was about a sixth of a 10-line quotation's render time. The
 * output is simple, though: a table directory (tag "true", zero checksums, tables packed
 * without padding, in fontkit's order) and the tables head, hhea, loca, maxp, cvt, prep, glyf,
 * hmtx, fpgm, where glyf is the concatenation of the used glyphs' original bytes (composite
 * glyphs get their component ids renumbered, components are appended as they are found) and
 * only loca, hmtx and two glyph counts depend on the subset. Per-glyph data comes from a
 * per-process cache (shared-fonts.ts). render-document-pdf.test.ts checks byte identity with
 * fontkit's subsetter.
 */

/** One glyph, as the subsetter needs it (shared, read-only). */
export interface SubsetGlyph {
  /** The glyph's original bytes in the glyf table. */
  bytes: Uint8Array;
  /** Composite glyphs: component glyph ids and where each id sits in `bytes`. */
  components: Array<{ glyphID: number; pos: number }> | null;
  advance: number;
  bearing: number;
}

/** A face's data for subsetting (shared, read-only). */
export interface SubsetSource {
  /** 0: short loca offsets (halved, uint16), 1: long (uint32). */
  locaVersion: number;
  /** Original tables copied as they are (head, hhea and maxp get glyph counts patched). */
  tables: Record<'head' | 'hhea' | 'maxp' | 'cvt' | 'prep' | 'fpgm', Uint8Array | null>;
  glyph(id: number): SubsetGlyph;
}

/** Everything encode() returned (so the PDF writer can pick a compression level for them). */
const fontPrograms = new WeakSet<Uint8Array>();

export function isFontProgram(bytes: Uint8Array): boolean {
  return fontPrograms.has(bytes);
}

const HHEA_NUMBER_OF_METRICS = 34;
const MAXP_NUM_GLYPHS = 4;

/** The subset of one font in one document; pdfkit calls includeGlyph while writing text. */
export class TrueTypeSubset {
  readonly glyphs: number[] = [];
  private readonly mapping = new Map<number, number>();
  private readonly source: SubsetSource;
  /** The last encoding, while no glyph has been added since. */
  private encoded: Uint8Array | null = null;

  constructor(source: SubsetSource) {
    this.source = source;
    this.includeGlyph(0); // .notdef is always glyph 0
  }

  /** Returns the glyph's id in the subset, adding it if new. */
  includeGlyph(glyph: number | { id: number }): number {
    const id = typeof glyph === 'object' ? glyph.id : glyph;
    let mapped = this.mapping.get(id);
    if (mapped === undefined) {
      mapped = this.glyphs.length;
      this.glyphs.push(id);
      this.mapping.set(id, mapped);
      this.encoded = null;
    }
    return mapped;
  }

  encode(): Uint8Array {
    if (this.encoded === null) {
      this.encoded = this.encodeNow();
      fontPrograms.add(this.encoded);
    }
    return this.encoded;
  }

  private encodeNow(): Uint8Array {
    const { source } = this;
    // Glyphs, in order; composite glyphs pull in their components (appended to this.glyphs,
    // hence the index loop).
    const glyphs: SubsetGlyph[] = [];
    let glyfLength = 0;
    for (let i = 0; i < this.glyphs.length; i++) {
      const glyph = source.glyph(this.glyphs[i]!);
      if (glyph.components !== null) for (const component of glyph.components) this.includeGlyph(component.glyphID);
      glyphs.push(glyph);
      glyfLength += glyph.bytes.length;
    }
    const count = glyphs.length;
    const { head, hhea, maxp, cvt, prep, fpgm } = source.tables;
    if (head === null || hhea === null || maxp === null) throw new Error('font lacks head, hhea or maxp');
    const long = source.locaVersion !== 0;

    const tables: Array<[string, number, (out: Buffer, at: number) => void]> = [
      ['head', head.length, (out, at) => out.set(head, at)],
      [
        'hhea',
        hhea.length,
        (out, at) => {
          out.set(hhea, at);
          out.writeUInt16BE(count, at + HHEA_NUMBER_OF_METRICS);
        },
      ],
      [
        'loca',
        (count + 1) * (long ? 4 : 2),
        (out, at) => {
          let offset = 0;
          for (let i = 0; i <= count; i++) {
            if (long) out.writeUInt32BE(offset, at + i * 4);
            else out.writeUInt16BE(offset >>> 1, at + i * 2);
            offset += glyphs[i]?.bytes.length ?? 0;
          }
        },
      ],
      [
        'maxp',
        maxp.length,
        (out, at) => {
          out.set(maxp, at);
          out.writeUInt16BE(count, at + MAXP_NUM_GLYPHS);
        },
      ],
    ];
    // fontkit re-encodes cvt as int16 values (an odd trailing byte would be dropped).
    if (cvt !== null)
      tables.push(['cvt ', cvt.length & ~1, (out, at) => out.set(cvt.subarray(0, cvt.length & ~1), at)]);
    if (prep !== null) tables.push(['prep', prep.length, (out, at) => out.set(prep, at)]);
    tables.push([
      'glyf',
      glyfLength,
      (out, at) => {
        for (const glyph of glyphs) {
          out.set(glyph.bytes, at);
          if (glyph.components !== null) {
            for (const component of glyph.components)
              out.writeUInt16BE(this.mapping.get(component.glyphID)!, at + component.pos);
          }
          at += glyph.bytes.length;
        }
      },
    ]);
    tables.push([
      'hmtx',
      count * 4,
      (out, at) => {
        for (const glyph of glyphs) {
          out.writeUInt16BE(glyph.advance, at);
          out.writeInt16BE(glyph.bearing, at + 2);
          at += 4;
        }
      },
    ]);
    if (fpgm !== null) tables.push(['fpgm', fpgm.length, (out, at) => out.set(fpgm, at)]);

    const directoryLength = 12 + 16 * tables.length;
    let total = directoryLength;
    for (const [, length] of tables) total += length;
    const out = Buffer.alloc(total);
    const maxPowerOf2 = 2 ** Math.floor(Math.log2(tables.length));
    out.write('true', 0, 'latin1');
    out.writeUInt16BE(tables.length, 4);
    out.writeUInt16BE(maxPowerOf2 * 16, 6);
    out.writeUInt16BE(Math.log2(maxPowerOf2), 8);
    out.writeUInt16BE(tables.length * 16 - maxPowerOf2 * 16, 10);
    let at = directoryLength;
    tables.forEach(([tag, length, write], i) => {
      const entry = 12 + 16 * i;
      out.write(tag, entry, 'latin1');
      out.writeUInt32BE(0, entry + 4); // fontkit writes no checksums
      out.writeUInt32BE(at, entry + 8);
      out.writeUInt32BE(length, entry + 12);
      write(out, at);
      at += length;
    });
    return out;
  }
}
