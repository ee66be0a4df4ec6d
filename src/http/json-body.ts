import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';

/**
 * Fastify's JSON parser (prototype-poisoning safe) plus one rule: no NUL characters in text.
 * PostgreSQL cannot store them, and no form field legitimately holds one, so they are a 400
 * naming the field rather than a database error. The walk runs only when the raw text has one.
 */
export function useJsonBodies(app: Pick<FastifyInstance, 'getDefaultJsonParser' | 'removeContentTypeParser' | 'addContentTypeParser'>): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error, value) => {
      if (error) return done(error, undefined);
      if ((body as string).includes('\\u0000')) {
        return done(AppError.invalid({ [pathOfNul(value) ?? 'body']: ['Must not contain NUL (\\u0000) characters.'] }), undefined);
      }
      done(null, value);
    });
  });
}

function pathOfNul(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOfNul(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const found = pathOfNul(child, path ? `${path}.${key}` : key) ?? (key.includes('\u0000') ? path || 'body' : null);
      if (found) return found;
    }
  }
  return null;
}
