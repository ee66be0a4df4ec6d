import type { SharpOptions } from 'sharp';
import type { Dispatcher } from 'undici';
import { request } from 'undici';
import { checkTargetUrl } from '../webhooks/index.ts';

/**
 * A product photo named in an inquiry is fetched once, by the server, and served to staff from
 * Portico: staff browsers never load it from the sender's server (a tracking pixel would tell
 * the sender who reads the inquiry, and when). The fetch goes through the webhooks' SSRF guard
 * (the address connected to is checked after DNS), https only, image types only, at most
 * PHOTO_FETCH_MAX_BYTES, at most MAX_REDIRECTS redirects, each checked like the first URL; then
 * decoded and re-encoded (reencodePhoto).
 */
/**
 * A product photo shown beside an inquiry needs no more than a phone's picture, compressed: 1 MiB
 * stored (it was 5 MiB, and 40 inquiries took a database from 0.7 to 202 MB; issue 37). What is
 * fetched may be larger (a phone's JPEG is 3–6 MB): it is held in memory only until re-encoded.
 */
export const PHOTO_MAX_BYTES = 1024 * 1024;
export const PHOTO_FETCH_MAX_BYTES = 8 * 1024 * 1024;
/**
 * A decompression bomb is a small file that declares a huge picture (a 20 KB PNG of 144 million
 * pixels): libvips refuses it from the header, before allocating, past this many pixels. 40 MP is
 * above what phones store by default (12–24 MP) and bounds one decode's memory to ~120 MB.
 */
export const PHOTO_MAX_PIXELS = 40_000_000;
/**
 * What is stored: WebP (every browser the hub supports shows it, alpha included), the longer edge
 * at most 1600 px (twice the hub's widest photo, for high-density screens), quality 80; a picture
 * that is still over the cap (noise, fine texture) is tried smaller and coarser before it is refused.
 */
export const PHOTO_ENCODINGS = [
  { edge: 1600, quality: 80 },
  { edge: 1200, quality: 70 },
  { edge: 800, quality: 60 },
] as const;
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
  if (length !== null && length > PHOTO_FETCH_MAX_BYTES) return `larger than ${PHOTO_FETCH_MAX_BYTES / 1024 / 1024} MB`;
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
        if (size > PHOTO_FETCH_MAX_BYTES) {
          res.body.destroy();
          return { ok: false, reason: `larger than ${PHOTO_FETCH_MAX_BYTES / 1024 / 1024} MB` };
        }
        chunks.push(chunk as Buffer);
      }
      const bytes = Buffer.concat(chunks);
      // The type is what the bytes are, never the sender's label: HTML or SVG labelled image/png is
      // refused here, and only these five formats' decoders are ever given a sender's bytes.
      const sniffed = imageTypeOf(bytes);
      if (!sniffed)
        return {
          ok: false,
          reason: `not an image: the bytes are not JPEG, PNG, WebP, GIF or AVIF (labelled ${String(type).split(';')[0]!.trim().toLowerCase()})`,
        };
      return await reencodePhoto(sniffed, bytes);
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

// libvips runs on libuv's thread pool, off the event loop. One thread per image and one image at a
// time: the machine's cores serve requests first, and a burst of photos waits its turn instead of
// holding every pool thread (DNS, file and crypto work share them). No cache: each photo is seen once.
// Loaded on the first photo: a process that never decodes one (the worker, one-shot commands, a
// server with PRODUCT_PHOTO_FETCH off) neither loads libvips (~20 MB) nor pays for it at start.
let library: Promise<typeof import('sharp').default> | undefined;
function loadSharp() {
  library ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return library;
}
let decoding: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = decoding.then(work, work);
  decoding = run.catch(() => {});
  return run;
}

// What the signature said, as libvips names the format it decodes: a file whose header and decoder disagree is refused.
const VIPS_FORMAT: Record<string, string> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'heif',
};

/**
 * The picture decoded and written anew as WebP (issue 37, item 4): what is stored is pixels libvips
 * produced, never the sender's bytes, so what a camera writes beside the picture (EXIF with its GPS
 * position, XMP, IPTC, comments, colour profiles: the pixels are converted to sRGB) and whatever a
 * polyglot hides after or inside it are gone. A file that does not decode to the end is refused;
 * so is one declaring more than PHOTO_MAX_PIXELS, from its header. The EXIF orientation is applied
 * first, since the tag that says it goes. Only the formats the signature check let through reach
 * libvips (not SVG, PDF or TIFF, whose decoders are larger surfaces).
 */
export function reencodePhoto(type: string, bytes: Buffer): Promise<PhotoFetch> {
  const name = type.slice(6).toUpperCase();
  const input: SharpOptions = { limitInputPixels: PHOTO_MAX_PIXELS, failOn: 'error', sequentialRead: true };
  return oneAtATime(async () => {
    try {
      const sharp = await loadSharp();
      // The header alone (no pixels decoded), so a bomb is refused with its size named; the limit
      // on the decode below holds whatever the header says.
      const header = await sharp(bytes, { failOn: 'error' }).metadata();
      if (header.format !== VIPS_FORMAT[type]) return { ok: false, reason: `not an image: a damaged ${name} file` };
      const pixels = (header.width ?? 0) * (header.height ?? 0);
      if (pixels > PHOTO_MAX_PIXELS)
        return {
          ok: false,
          reason: `not stored: ${header.width}×${header.height} is more than ${PHOTO_MAX_PIXELS / 1e6} million pixels`,
        };
      for (const { edge, quality } of PHOTO_ENCODINGS) {
        const out = await sharp(bytes, input)
          .rotate()
          .resize({ width: edge, height: edge, fit: 'inside', withoutEnlargement: true })
          .webp({ quality })
          .toBuffer();
        if (out.length <= PHOTO_MAX_BYTES) return { ok: true, contentType: 'image/webp', bytes: out };
      }
      return { ok: false, reason: `not stored: larger than ${PHOTO_MAX_BYTES / 1024 / 1024} MB even at 800 px` };
    } catch {
      // libvips' message names its own internals; the sender learns only that the file is broken.
      return { ok: false, reason: `not an image: a damaged ${name} file` };
    }
  });
}
