import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';

/** One uploaded file, read into memory (the limit bounds it). */
export interface Upload {
  filename: string;
  mimetype: string;
  bytes: Buffer;
  /** Past the size limit: `bytes` holds only its start. */
  tooLarge: boolean;
}

/**
 * Multipart forms for the routes of this scope only, at most `maxBytes` a file. Fields become
 * plain strings and files `Upload`s before the hub's CSRF check reads `_csrf` from the body;
 * a file past the limit stops being read there and is marked, so its form can say so beside the field.
 */
export async function acceptUploads(scope: FastifyInstance, maxBytes: number): Promise<void> {
  await scope.register(multipart, {
    attachFieldsToBody: true,
    throwFileSizeLimit: false,
    limits: { fileSize: maxBytes, files: 1, fields: 20, parts: 21 },
  });
  scope.addHook('preValidation', async (request) => {
    if (!request.isMultipart() || !request.body) return;
    const body: Record<string, string | Upload> = Object.create(null);
    for (const [name, part] of Object.entries(request.body as Record<string, unknown>)) {
      const one = (Array.isArray(part) ? part[0] : part) as {
        type?: string;
        value?: unknown;
        filename?: string;
        mimetype?: string;
        toBuffer?: () => Promise<Buffer>;
        file?: { truncated?: boolean };
      };
      if (one.type === 'file' && one.toBuffer)
        body[name] = {
          filename: one.filename ?? '',
          mimetype: one.mimetype ?? '',
          bytes: await one.toBuffer(),
          tooLarge: one.file?.truncated === true,
        };
      else if (typeof one.value === 'string') body[name] = one.value;
    }
    request.body = body;
  });
}

export function uploadOf(body: unknown, name: string): Upload | null {
  const value = (body as Record<string, unknown> | null | undefined)?.[name];
  if (!value || typeof value !== 'object' || !Buffer.isBuffer((value as Upload).bytes)) return null;
  return (value as Upload).bytes.length === 0 ? null : (value as Upload);
}
