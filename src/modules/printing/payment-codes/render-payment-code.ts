import bwipjs, { type RenderOptions as BwipOptions } from 'bwip-js';
import type { PaymentCodeKind } from '../../documents/index.ts';

/**
 * Draws payment codes as PNG with bwip-js (a port of Barcode Writer in Pure PostScript, no native
 * code). bwip-js writes the text as UTF-8 bytes, which is what both EPC069-12 (character set 1)
 * and HUB-3 (version 6) ask for. Both images carry their quiet zone and a white background, so
 * they scan on any page colour.
 */

/** bwip-js types only its generic options; symbology options (eclevel, columns, rowmult) pass through to BWIPP. */
type SymbolOptions = BwipOptions & Record<string, unknown>;

export interface PngOptions {
  /** Pixels per module; 3 gives ~300 dpi at HUB-3's 0.254 mm module. */
  scale?: number;
}

/**
 * The HUB-3 barcode as the slip's standard draws it: PDF417 of 9 data columns, error correction
 * level 4, rows three modules high, a module of 0.254 mm, the symbol within 58 × 26 mm.
 */
export const HUB3_PDF417 = {
  columns: 9,
  eclevel: 4,
  rowmult: 3,
  moduleMm: 0.254,
  maxWidthMm: 58,
  maxHeightMm: 26,
} as const;

/** EPC QR: error correction M, as EPC069-12 prescribes. */
const EPC_QR_SYMBOL = { bcid: 'qrcode', eclevel: 'M' } as const;
/** HUB-3 PDF417: 9 columns, error correction level 4, rows three modules high. */
const HUB3_SYMBOL = {
  bcid: 'pdf417',
  columns: HUB3_PDF417.columns,
  eclevel: HUB3_PDF417.eclevel,
  rowmult: HUB3_PDF417.rowmult,
} as const;

/** EPC QR with the 4-module quiet zone. */
export function renderEpcQrPng(payload: string, png: PngOptions = {}): Promise<Buffer> {
  // bwip-js draws a QR module two units wide, so 8 units of padding are 4 modules.
  const options: SymbolOptions = {
    ...EPC_QR_SYMBOL,
    text: payload,
    scale: png.scale ?? 4,
    padding: 8,
    backgroundcolor: 'FFFFFF',
  };
  return bwipjs.toBuffer(options);
}

/** HUB-3 PDF417 with a 2-module quiet zone. */
export function renderHub3Png(payload: string, png: PngOptions = {}): Promise<Buffer> {
  const options: SymbolOptions = {
    ...HUB3_SYMBOL,
    text: payload,
    scale: png.scale ?? 3,
    padding: 2,
    backgroundcolor: 'FFFFFF',
  };
  return bwipjs.toBuffer(options);
}

/** A symbol's modules, row by row (true: dark), for a printer that draws them itself. */
export interface CodeModules {
  columns: number;
  rows: number;
  /** Modules per row, vertically: 1 for QR, 3 for HUB-3's PDF417. */
  rowHeight: number;
  /** Light modules around the symbol that a scanner needs. */
  quietZone: number;
  dark: boolean[];
}

/** The same symbols as the PNGs above, as modules. */
export function paymentCodeModules(kind: PaymentCodeKind, payload: string): CodeModules {
  const options = { ...(kind === 'epc_qr' ? EPC_QR_SYMBOL : HUB3_SYMBOL), text: payload } as SymbolOptions;
  const [symbol] = (
    bwipjs.raw as unknown as (options: SymbolOptions) => Array<{ pixs: number[]; pixx: number; pixy: number }>
  )(options);
  if (!symbol) throw new Error(`bwip-js drew no ${kind} symbol`);
  const rows = symbol.pixs.length / symbol.pixx;
  return {
    columns: symbol.pixx,
    rows,
    rowHeight: symbol.pixy / rows,
    quietZone: kind === 'epc_qr' ? 4 : 2,
    dark: symbol.pixs.map((p) => p === 1),
  };
}
