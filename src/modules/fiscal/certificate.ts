import { createPrivateKey, X509Certificate } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { oibOf } from './cis-format.ts';

/** A FINA application certificate read from its PKCS#12 file. */
export interface FiscalCertificate {
  privateKeyPem: string;
  certificatePem: string;
  subject: string;
  /** The OIB the certificate was issued to, or null when its subject names none. */
  oib: string | null;
  notBefore: Date;
  expiresAt: Date;
}

export type Pkcs12Problem = 'unreadable' | 'wrong_password' | 'no_key_pair' | 'too_large' | 'too_many_iterations';

export class Pkcs12Error extends Error {
  override name = 'Pkcs12Error';
  readonly problem: Pkcs12Problem;
  constructor(problem: Pkcs12Problem, message: string) {
    super(message);
    this.problem = problem;
  }
}

/** A FINA .p12 is a few kilobytes (a key, its certificate and the CA chain). */
export const PKCS12_MAX_BYTES = 64 * 1024;
/**
 * The most key-derivation iterations a .p12 may ask for (its MAC and each encrypted part).
 * OpenSSL writes 2 048, Windows 2 000 to 10 000; node-forge spends about 4 µs an iteration, so
 * this bound keeps a file's opening under a second of one worker thread, where 2 000 000 took
 * 6.5–9.3 s of the event loop (issue 37).
 */
export const PKCS12_MAX_ITERATIONS = 100_000;
/** An opening that takes longer than this is stopped (the worker is terminated). */
const OPEN_TIMEOUT_MS = 15_000;

/**
 * Opens a .p12 with its password. Node's crypto reads keys and certificates but not PKCS#12
 * containers, so node-forge (pure JavaScript, the most used PKCS#12 reader on npm, maintained
 * by Digital Bazaar) opens the container, on a worker thread of its own, one at a time, after
 * its size and iteration counts have been checked here; everything after is Node's own crypto.
 */
export async function readPkcs12(p12: Buffer, password: string): Promise<FiscalCertificate> {
  if (p12.length > PKCS12_MAX_BYTES)
    throw new Pkcs12Error('too_large', `A .p12 file may be at most ${PKCS12_MAX_BYTES} bytes.`);
  const iterations = mostIterations(p12);
  if (iterations === null) throw new Pkcs12Error('unreadable', 'This is not a PKCS#12 (.p12) file that can be read.');
  if (iterations > PKCS12_MAX_ITERATIONS)
    throw new Pkcs12Error(
      'too_many_iterations',
      `The file asks for ${iterations} key-derivation iterations; at most ${PKCS12_MAX_ITERATIONS} are accepted. Export it again with the default settings.`,
    );
  const opened = await openOneAtATime(p12, password);
  if ('problem' in opened) {
    if (opened.problem === 'wrong_password')
      throw new Pkcs12Error('wrong_password', 'The password does not open this file.');
    throw new Pkcs12Error('unreadable', 'This is not a PKCS#12 (.p12) file that can be read.');
  }
  // The file may hold the issuing CAs too: the certificate wanted is the one of the private key.
  for (const keyPem of opened.keys) {
    const key = createPrivateKey(keyPem);
    for (const certificatePem of opened.certificates) {
      const certificate = new X509Certificate(certificatePem);
      if (!certificate.checkPrivateKey(key)) continue;
      return {
        privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string,
        certificatePem,
        subject: certificate.subject.split('\n').reverse().join(', '),
        oib: subjectOib(certificate.subject),
        notBefore: new Date(certificate.validFrom),
        expiresAt: new Date(certificate.validTo),
      };
    }
  }
  throw new Pkcs12Error('no_key_pair', 'The file holds no RSA private key with its certificate.');
}

type Opened = { keys: string[]; certificates: string[] } | { problem: 'wrong_password' | 'unreadable' };

// Uploads are rare and admin-only: one opening at a time keeps a burst of them to one core.
let queue: Promise<unknown> = Promise.resolve();

function openOneAtATime(p12: Buffer, password: string): Promise<Opened> {
  const run = queue.then(() => openInWorker(p12, password));
  queue = run.catch(() => undefined);
  return run;
}

function openInWorker(p12: Buffer, password: string): Promise<Opened> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL('./pkcs12.worker.ts', import.meta.url), {
      workerData: { der: new Uint8Array(p12), password },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ problem: 'unreadable' });
    }, OPEN_TIMEOUT_MS);
    const settle = (opened: Opened) => {
      clearTimeout(timer);
      resolve(opened);
      void worker.terminate();
    };
    worker.once('message', (opened: Opened) => settle(opened));
    worker.once('error', () => settle({ problem: 'unreadable' }));
    worker.once('exit', () => settle({ problem: 'unreadable' }));
  });
}

/**
 * The largest iteration count anywhere in the container, read from its DER without deriving a
 * key: in PKCS#12 and PKCS#5 every count (MacData, pbeParams, PBKDF2-params) is an INTEGER
 * right after its salt, an OCTET STRING, in one SEQUENCE. Contents wrapped in OCTET STRINGs
 * (the authenticated safe, its safe contents) are read as DER too. Null when the bytes are not DER.
 */
function mostIterations(der: Buffer): number | null {
  let most = 0;
  let nodes = 0;
  const walk = (bytes: Buffer, depth: number): boolean => {
    let at = 0;
    let previousWasOctets = false;
    while (at < bytes.length) {
      const tlv = readTlv(bytes, at);
      if (!tlv || ++nodes > 10_000) return false;
      const { tag, start, end } = tlv;
      const value = bytes.subarray(start, end);
      if (tag === 0x02 && previousWasOctets) most = Math.max(most, integerOf(value));
      if ((tag & 0x20) !== 0 && depth < 32) {
        if (!walk(value, depth + 1)) return false;
      } else if (tag === 0x04 && value[0] === 0x30 && depth < 32) {
        walk(value, depth + 1); // an OCTET STRING that is not DER inside is just bytes
      }
      previousWasOctets = tag === 0x04;
      at = end;
    }
    return true;
  };
  const outer = readTlv(der, 0);
  if (!outer || outer.tag !== 0x30 || outer.end !== der.length) return null;
  return walk(der, 0) ? most : null;
}

function readTlv(bytes: Buffer, at: number): { tag: number; start: number; end: number } | null {
  if (at + 2 > bytes.length) return null;
  const tag = bytes[at]!;
  if ((tag & 0x1f) === 0x1f) return null; // high tag numbers never occur in PKCS#12
  let length = bytes[at + 1]!;
  let start = at + 2;
  if (length & 0x80) {
    const octets = length & 0x7f;
    if (octets === 0 || octets > 4 || start + octets > bytes.length) return null; // indefinite or absurd
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + bytes[start + i]!;
    start += octets;
  }
  const end = start + length;
  return end <= bytes.length ? { tag, start, end } : null;
}

/** A DER INTEGER's value, saturating far above any bound checked (a count is never negative). */
function integerOf(value: Buffer): number {
  let n = 0;
  for (const byte of value) n = Math.min(n * 256 + byte, Number.MAX_SAFE_INTEGER);
  return n;
}

/**
 * FINA writes the holder's OIB into the subject, in the organisation name (`… HR12345678903`)
 * or an organisationIdentifier (`VATHR-12345678903`); any attribute naming one 11-digit number counts.
 */
function subjectOib(subject: string): string | null {
  for (const line of subject.split('\n')) {
    const value = line.slice(line.indexOf('=') + 1);
    const match = /(?:^|[^0-9])(?:VATHR-|HR)?(\d{11})(?![0-9])/.exec(value);
    if (match) return oibOf(match[1]);
  }
  return null;
}
