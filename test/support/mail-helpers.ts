import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { SMTPServer } from 'smtp-server';
import type { TestApp } from './test-app.ts';
import { issueQuotationLink } from '../../src/modules/quotations/index.ts';

/**
 * A real SMTP server on loopback that parses what it receives. `refuse` answers DATA with a
 * 5xx (the server's answer is what the sending then shows); `delayMs` delays every answer.
 */
export async function startMailServer(opts: { port?: number; refuse?: string; delayMs?: number } = {}) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        // A slow server: it answers each message only after this long.
        if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
        if (opts.refuse) {
          const error = new Error(opts.refuse) as Error & { responseCode: number };
          error.responseCode = 550;
          return callback(error);
        }
        mails.push({
          ...parseMail(Buffer.concat(chunks).toString('latin1')),
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A PDF's text as pdftotext (poppler) reads it. */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf }).toString('utf8');
}

/** A customer link to a quotation, as sending it makes one, without an e-mail. */
export async function quotationLink(
  t: TestApp,
  companyId: string,
  quotationId: string,
  locale = 'hr',
  now = new Date(),
) {
  return t.c.store.unitOfWork((repos) => issueQuotationLink(repos, { companyId, quotationId, locale, now }));
}

export interface Mail {
  rcptTo: string[];
  headers: Map<string, string>;
  subject: string;
  text: string;
  /** The text/html part, when there is one. */
  html: string;
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

/**
 * Enough MIME (RFC 2045/2046) to read what nodemailer writes: headers (unfolded, encoded words
 * decoded), a text part in quoted-printable or base64, and base64 attachments in multipart/mixed.
 */
function parseMail(raw: string): Omit<Mail, 'rcptTo'> {
  const { headers, body } = splitPart(raw);
  const text: string[] = [];
  const htmlParts: string[] = [];
  const attachments: Mail['attachments'] = [];
  const walk = (h: Map<string, string>, b: string) => {
    const type = h.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (/^multipart\//i.test(type) && boundary) {
      for (const part of b.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break;
        const inner = splitPart(part.replace(/^\r\n/, ''));
        walk(inner.headers, inner.body);
      }
      return;
    }
    const bytes = decodeBody(b, h.get('content-transfer-encoding') ?? '7bit');
    const disposition = h.get('content-disposition') ?? '';
    const filename = /filename="?([^";]+)"?/i.exec(disposition)?.[1] ?? /name="?([^";]+)"?/i.exec(type)?.[1];
    if (/attachment/i.test(disposition) || filename) {
      attachments.push({
        filename: decodeWords(filename ?? ''),
        contentType: type.split(';')[0]!.trim(),
        content: bytes,
      });
    } else if (/^text\/plain/i.test(type)) text.push(bytes.toString('utf8'));
    else if (/^text\/html/i.test(type)) htmlParts.push(bytes.toString('utf8'));
  };
  walk(headers, body);
  return {
    headers,
    subject: headers.get('subject') ?? '',
    text: text.join('\n'),
    html: htmlParts.join('\n'),
    attachments,
  };
}

function splitPart(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  const head = at < 0 ? raw : raw.slice(0, at);
  const body = at < 0 ? '' : raw.slice(at + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return { headers, body };
}

function decodeBody(body: string, encoding: string): Buffer {
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (/quoted-printable/i.test(encoding)) {
    const soft = body.replace(/=\r\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(soft.charCodeAt(i) & 0xff);
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(body, 'latin1');
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), as nodemailer writes non-ASCII headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_w, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}

/** The customer's form post on their page: same-origin, urlencoded, as a browser sends it. */
export function answerQuote(t: TestApp, token: string, action: 'accept' | 'decline', form: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/q/${token}/${action}`,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'http://localhost:80',
      host: 'localhost:80',
    },
    payload: new URLSearchParams(form).toString(),
  });
}
