import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../container.ts';
import type { PrintSlot } from '../modules/printing/index.ts';
import { fileHeaders } from './file-reply.ts';

/** `?format=` on a document read: JSON unless `pdf`, or unless absent and the client accepts a PDF. */
export const FormatQuery = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('pdf'), Type.Literal('json')])) },
  { additionalProperties: false },
);

export function wantsPdf(request: FastifyRequest, format: 'pdf' | 'json' | undefined): boolean {
  return format === 'pdf' || (format === undefined && /\bapplication\/pdf\b/.test(request.headers.accept ?? ''));
}

/** A place in the print pool for this request's PDF, held until the response is over (sent, failed or abandoned). */
export function reservePrint(c: Container, reply: FastifyReply): PrintSlot {
  const slot = c.reservePrint();
  reply.raw.once('close', () => slot.release());
  return slot;
}

export function sendPdf(reply: FastifyReply, document: { number: string; pdf: Buffer }) {
  return fileHeaders(reply, 'ours', `${document.number}.pdf`).type('application/pdf').send(document.pdf);
}

/** A 200 that is a PDF or JSON, as OpenAPI documents it. */
export const PdfOrJson = (description: string, json: unknown) => ({
  description,
  content: {
    'application/pdf': { schema: Type.String({ format: 'binary' }) },
    'application/json': { schema: json },
  },
});

/**
 * An issued document's stored file: its SHA-256 is its ETag, the same for as long as the document
 * exists (it never changes); a client holding it gets a 304.
 */
export function sendIssued(
  request: FastifyRequest,
  reply: FastifyReply,
  file: { number: string; bytes: Buffer; sha256: string },
  filename: string,
  type: string,
) {
  const etag = `"${file.sha256}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  const held = request.headers['if-none-match'];
  if (held && held.split(',').some((tag) => tag.trim() === etag)) return reply.status(304).send();
  return fileHeaders(reply, 'ours', filename).type(type).send(file.bytes);
}
