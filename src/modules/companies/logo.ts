/**
 * A print template's logo: a PNG of at most LOGO_MAX_BYTES (the one printer embeds PNG only), its
 * size read from its own header (IHDR), so nothing else is decoded on the server. Printed within
 * a box of its own (printing/logo-box.ts), whatever its proportions.
 */
export const LOGO_MAX_BYTES = 256 * 1024;

export type LogoImage = { contentType: 'image/png'; width: number; height: number };

/** What the bytes are, or null when they are not a PNG this can read. */
export function readLogo(bytes: Uint8Array): LogoImage | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) {
    if (b.toString('latin1', 12, 16) !== 'IHDR') return null;
    const width = b.readUInt32BE(16);
    const height = b.readUInt32BE(20);
    return width > 0 && height > 0 ? { contentType: 'image/png', width, height } : null;
  }
  return null;
}

/** The logo as the printer takes it: the PNG and its size in pixels. */
export function logoImage(logo: { bytes: Uint8Array; width: number; height: number }) {
  return { png: new Uint8Array(logo.bytes), width: Number(logo.width), height: Number(logo.height) };
}
