/**
 * A payment code as the print embeds it: a black-and-white PNG with one pixel per module
 * (1 bit per pixel, no alpha), so pdfkit embeds its compressed data as it is, without decoding,
 * and a viewer scales it up without blurring the modules. bwip-js's own PNGs carry an alpha
 * channel, which pdfkit can only embed asynchronously.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { PaymentCodeKind } from '../../documents/index.ts';
import { paymentCodeModules } from './render-payment-code.ts';

export interface CodeImage {
  png: Uint8Array;
  /** Pixels, quiet zone included: one per module across, `rowHeight` per row down. */
  width: number;
  height: number;
}

export function paymentCodeImage(kind: PaymentCodeKind, payload: string): CodeImage {
  const symbol = paymentCodeModules(kind, payload);
  const quiet = symbol.quietZone;
  const width = symbol.columns + 2 * quiet;
  const height = symbol.rows * symbol.rowHeight + 2 * quiet;
  const stride = Math.ceil(width / 8);
  // Grey level 1 is white: start all white, clear the bits of dark modules.
  const raw = Buffer.alloc((stride + 1) * height, 0xff);
  for (let y = 0; y < height; y++) raw[y * (stride + 1)] = 0; // filter type None
  for (let row = 0; row < symbol.rows; row++) {
    for (let column = 0; column < symbol.columns; column++) {
      if (!symbol.dark[row * symbol.columns + column]) continue;
      const x = column + quiet;
      for (let k = 0; k < symbol.rowHeight; k++) {
        const y = quiet + row * symbol.rowHeight + k;
        const at = y * (stride + 1) + 1 + (x >> 3);
        raw[at]! &= ~(0x80 >> (x & 7));
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filtering, no interlace
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return { png, width, height };
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
