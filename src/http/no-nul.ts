import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { said } from './request-messages.ts';

/**
 * No NUL characters anywhere a client can put text. PostgreSQL cannot store or compare them and
 * no field legitimately holds one, so they are answered here instead of failing in SQL: a 400
 * naming the field for bodies and query strings, a 404 for path parameters (no id contains one).
 * The JSON parser installed here also names a refused `__proto__` key as the field it is.
 */
// biome-ignore lint/suspicious/noExplicitAny: any instance, whatever its logger or type provider; the hook and the parser do not depend on them
export function refuseNul(app: FastifyInstance<any, any, any, any, any>): void {
  // A callback hook, not an async one: it runs on every request and almost always has nothing to do.
  app.addHook('preValidation', (request, _reply, done) => {
    if (!request.url.includes('%00')) return done();
    if (
      Object.values((request.params ?? {}) as Record<string, unknown>).some(
        (v) => typeof v === 'string' && v.includes('\u0000'),
      )
    ) {
      return done(AppError.notFound('Resource'));
    }
    const path = pathOfNul(request.query);
    done(path ? AppError.invalid({ [path]: [said('error.noNul')] }) : undefined);
  });

  // Fastify's own JSON parser (prototype-poisoning safe); the walk runs only when the raw text has a NUL.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    void parseJson(request, body as string, (error, value) => {
      if (error) return done(forbiddenKeyError(body as string) ?? error, undefined);
      if ((body as string).includes('\\u0000')) {
        return done(AppError.invalid({ [pathOfNul(value) ?? 'body']: [said('error.noNul')] }), undefined);
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

/**
 * Fastify's parser answers `__proto__` (or a `constructor` holding a `prototype`) as invalid
 * JSON. When the text is valid JSON that is what happened: the key is a field nobody knows,
 * named like any other. Runs on the error path only.
 */
function forbiddenKeyError(body: string): AppError | null {
  try {
    const path = pathOfForbiddenKey(JSON.parse(body));
    return path ? AppError.invalid({ [path]: [said('error.unknownField')] }) : null;
  } catch {
    // Not JSON after all, or nested deeper than the stack: the parser's own answer stands.
    return null;
  }
}

/** Where `__proto__`, or a `constructor` holding a `prototype`, sits in parsed JSON (own keys, as JSON.parse makes them). */
function pathOfForbiddenKey(value: unknown, path = ''): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = pathOfForbiddenKey(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (
        key === '__proto__' ||
        (key === 'constructor' && child && typeof child === 'object' && Object.hasOwn(child, 'prototype'))
      )
        return here;
      const found = pathOfForbiddenKey(child, here);
      if (found) return found;
    }
  }
  return null;
}
