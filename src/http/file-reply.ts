import type { FastifyReply } from 'fastify';

/**
 * Headers for every file Portico serves. `ours`: a document Portico printed itself (a quotation,
 * a sale), shown inline and framed only by the hub. `uploaded`: a file a user gave us (a
 * datasheet): always a download, and sandboxed should a browser open it anyway. Either way the
 * browser must not guess another type (an "image" that is HTML) nor run anything in it.
 */
export function fileHeaders(reply: FastifyReply, origin: 'ours' | 'uploaded', filename: string): FastifyReply {
  const ascii = filename.replace(/[^\w.-]+/g, '_');
  return reply
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      origin === 'ours' ? "default-src 'none'; frame-ancestors 'self'" : "default-src 'none'; sandbox",
    )
    .header('content-disposition', `${origin === 'ours' ? 'inline' : 'attachment'}; filename="${ascii}"`);
}
