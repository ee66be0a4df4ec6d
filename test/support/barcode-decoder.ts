import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { prepareZXingModule, readBarcodes, type ReadInputBarcodeFormat } from 'zxing-wasm/reader';

/**
 * Real decoders for the payment codes on prints: zxing-cpp compiled to WebAssembly (zxing-wasm)
 * reads QR and PDF417; zbar (zbarimg) reads QR. The WebAssembly binary is loaded from
 * node_modules, never fetched: zxing-wasm would otherwise download it from a CDN.
 */

const require = createRequire(import.meta.url);
let prepared = false;

function prepare(): void {
  if (prepared) return;
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) },
  });
  prepared = true;
}

export interface DecodedBarcode {
  format: string;
  /** The symbol's bytes read as UTF-8 (no guessing of the character set). */
  text: string;
  ecLevel: string;
  /** QR version, empty for PDF417. */
  version: string;
}

/** Every barcode of the given formats zxing finds in a PNG (or other image file) buffer. */
export async function decodeWithZxing(image: Uint8Array, formats: ReadInputBarcodeFormat[]): Promise<DecodedBarcode[]> {
  prepare();
  const results = await readBarcodes(image, { formats, tryHarder: true, maxNumberOfSymbols: 8 });
  return results
    .filter((r) => r.isValid)
    .map((r) => ({
      format: r.format,
      text: new TextDecoder('utf-8', { fatal: true }).decode(r.bytes),
      ecLevel: r.ecLevel,
      version: r.version,
    }));
}

/** QR codes zbar finds in an image file, as raw bytes read as UTF-8 (zbar would otherwise guess a character set). */
export async function decodeQrWithZbar(imagePath: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    'zbarimg',
    ['--raw', '-q', '-Sbinary', '-Sdisable', '-Sqrcode.enable', imagePath],
    { encoding: 'buffer', timeout: 20_000 },
  );
  // With -Sbinary zbar separates symbols by nothing; a print has one EPC QR code.
  return stdout.length === 0 ? [] : [new TextDecoder('utf-8', { fatal: true }).decode(stdout).replace(/\n$/, '')];
}
