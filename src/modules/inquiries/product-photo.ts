import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { checkTargetUrl } from '../webhooks/index.ts';

/**
 * A product photo named in an inquiry is fetched once, by the server, and served to staff from
 * Portico: staff browsers never load it from the sender's server (a tracking pixel would tell
 * the sender who reads the inquiry, and when). The fetch goes through the webhooks' SSRF guard
 * (the address connected to is checked after DNS), https only, image types only, at most
 * PHOTO_MAX_BYTES, at most MAX_REDIRECTS redirects, each checked like the first URL.
 */
/**
 * A product photo shown beside an inquiry needs no more than a phone's picture, compressed: 1 MiB
 * (it was 5 MiB, and 40 inquiries took a database from 0.7 to 202 MB; issue 37).
 */
export const PHOTO_MAX_BYTES = 1024 * 1024;
export const MAX_REDIRECTS = 3;
// Raster images only: an SVG can carry script.
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']);

export type PhotoFetch = { ok: true; contentType: string; bytes: Buffer } | { ok: false; reason: string };

/** Why this URL is not fetched, or null (pure: no DNS; the guarded agent checks the address connected to). */
export function photoUrlRefusal(url: string, allowPrivate: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (parsed.protocol !== 'https:') return 'only https URLs are fetched';
  return checkTargetUrl(url, allowPrivate);
}

/** Why an answer is not an image we keep, or null (pure). */
export function photoResponseRefusal(
  status: number,
  contentType: string | undefined,
  length: number | null,
): string | null {
  if (status !== 200) return `the server answered HTTP ${status}`;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!IMAGE_TYPES.has(type)) return `not an image (${type || 'no content type'}); JPEG, PNG, WebP, GIF or AVIF only`;
  if (length !== null && length > PHOTO_MAX_BYTES) return `larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB`;
  return null;
}

/** Where a redirect leads, or why it is not followed (pure). */
export function redirectStep(
  from: string,
  location: string | undefined,
  hop: number,
): { url: string } | { reason: string } {
  if (hop >= MAX_REDIRECTS) return { reason: `more than ${MAX_REDIRECTS} redirects` };
  if (!location) return { reason: 'a redirect without a Location' };
  try {
    return { url: new URL(location, from).toString() };
  } catch {
    return { reason: 'a redirect to an invalid URL' };
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchPhoto(
  url: string,
  opts: { agent: Dispatcher; allowPrivate: boolean; timeoutMs: number },
): Promise<PhotoFetch> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const refused = photoUrlRefusal(current, opts.allowPrivate);
    if (refused) return { ok: false, reason: refused };
    try {
      const res = await request(current, {
        method: 'GET',
        dispatcher: opts.agent,
        headers: {
          accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif',
          'user-agent': 'Portico (product photo)',
        },
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      if (REDIRECTS.has(res.statusCode)) {
        await res.body.dump();
        const location = res.headers.location;
        const next = redirectStep(current, Array.isArray(location) ? location[0] : location, hop);
        if ('reason' in next) return { ok: false, reason: next.reason };
        current = next.url;
        continue;
      }
      const type = res.headers['content-type'];
      const declared = Number(res.headers['content-length']);
      const refusal = photoResponseRefusal(
        res.statusCode,
        Array.isArray(type) ? type[0] : type,
        Number.isFinite(declared) ? declared : null,
      );
      if (refusal) {
        await res.body.dump();
        return { ok: false, reason: refusal };
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > PHOTO_MAX_BYTES) {
          res.body.destroy();
          return { ok: false, reason: `larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB` };
        }
        chunks.push(chunk as Buffer);
      }
      const bytes = Buffer.concat(chunks);
      // The type is what the bytes are, never the sender's label: HTML or SVG labelled image/png
      // would otherwise be served back as whatever a browser sniffs it to be.
      const sniffed = imageTypeOf(bytes);
      if (!sniffed)
        return {
          ok: false,
          reason: `not an image: the bytes are not JPEG, PNG, WebP, GIF or AVIF (labelled ${String(type).split(';')[0]!.trim().toLowerCase()})`,
        };
      // What a phone writes beside the picture (EXIF with its GPS position, XMP, comments) is not kept.
      const stripped = withoutMetadata(sniffed, bytes);
      if (!stripped) return { ok: false, reason: `not an image: a damaged ${sniffed.slice(6).toUpperCase()} file` };
      return { ok: true, contentType: sniffed, bytes: stripped };
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code === 'FORBIDDEN_TARGET') return { ok: false, reason: 'the address is private, loopback or reserved' };
      if ((error as Error).name === 'TimeoutError') return { ok: false, reason: 'the server took too long' };
      return { ok: false, reason: `could not be fetched (${code ?? (error as Error).message.slice(0, 100)})` };
    }
  }
}

/** The image type the bytes' signature says (the formats' magic numbers), or null for anything else. */
export function imageTypeOf(bytes: Buffer): string | null {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  // ISO BMFF: a `ftyp` box first, whose major brand says AVIF (a still image or a sequence).
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return null;
}

/**
 * The image without the metadata a camera or editor writes beside it: in a JPEG the APP1 (EXIF,
 * XMP), APP13 (IPTC) and comment segments; in a PNG the text and EXIF chunks. The picture's own
 * data (and the colour profile, which changes how it looks) is copied as it is. Null when the file's
 * structure is broken. Other formats are returned unchanged.
 */
export function withoutMetadata(type: string, bytes: Buffer): Buffer | null {
  if (type === 'image/jpeg') return jpegWithout(bytes);
  if (type === 'image/png') return pngWithout(bytes);
  return bytes;
}

const JPEG_DROPPED = new Set([0xe1, 0xed, 0xfe]); // APP1, APP13, COM

function jpegWithout(bytes: Buffer): Buffer | null {
  const kept: Buffer[] = [bytes.subarray(0, 2)]; // SOI
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    let marker = bytes[at + 1];
    let start = at;
    while (marker === 0xff) marker = bytes[++start + 1]; // fill bytes
    if (marker === undefined) return null;
    if (marker === 0xd9) {
      kept.push(bytes.subarray(at, start + 2)); // EOI
      return Buffer.concat(kept);
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      kept.push(bytes.subarray(at, start + 2));
      at = start + 2;
      continue;
    }
    if (start + 4 > bytes.length) return null;
    const end = start + 2 + bytes.readUInt16BE(start + 2);
    if (end > bytes.length) return null;
    // From the start of scan on, the entropy-coded data and the rest of the file go as they are.
    if (marker === 0xda) return Buffer.concat([...kept, bytes.subarray(at)]);
    if (!JPEG_DROPPED.has(marker)) kept.push(bytes.subarray(at, end));
    at = end;
  }
  return null;
}

const PNG_DROPPED = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

function pngWithout(bytes: Buffer): Buffer | null {
  const kept: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at + 12 <= bytes.length) {
    const end = at + 12 + bytes.readUInt32BE(at);
    if (end > bytes.length) return null;
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (!PNG_DROPPED.has(type)) kept.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') return Buffer.concat(kept);
  }
  return null;
}
