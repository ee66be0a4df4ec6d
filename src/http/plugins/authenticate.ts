import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type Message } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import type { AdminCaller, ApiKeysService, KeyCaller } from '../../modules/api-keys/index.ts';
import { checkBrowserAccess } from './browser-access.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: KeyCaller;
    admin: AdminCaller;
  }
}

function bearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : '';
}

function unauthenticated(reply: FastifyReply, message: Message): AppError {
  // RFC 6750: tell the client which scheme to use, and why the credentials failed.
  reply.header('www-authenticate', `Bearer realm="portico", error="invalid_token"`);
  return new AppError('unauthenticated', message);
}

/**
 * onRequest hook for /api/v1/public: a live location API key, or 401; a publishable key only on
 * browser routes and from its origins, or 403. A CORS preflight carries no key and is answered
 * by its own route (plugins/browser-access.ts).
 */
export function apiKeyAuth(apiKeys: ApiKeysService) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (request.method === 'OPTIONS') return;
    const token = bearer(request);
    if (token === null) {
      reply.header('www-authenticate', 'Bearer realm="portico"');
      throw new AppError('unauthenticated', said('error.auth.apiKeyMissing'));
    }
    const caller = token ? await apiKeys.authenticateApiKey(token) : null;
    if (!caller) throw unauthenticated(reply, said('error.auth.apiKeyInvalid'));
    checkBrowserAccess(request, reply, caller);
    request.caller = caller;
  };
}

/** onRequest hook for /api/v1/admin: a personal admin token; a location key is refused outright. */
export function adminAuth(apiKeys: ApiKeysService) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = bearer(request);
    if (token === null) {
      reply.header('www-authenticate', 'Bearer realm="portico-admin"');
      throw new AppError('unauthenticated', said('error.auth.adminMissing'));
    }
    if (token.startsWith('ptc_')) {
      throw new AppError('forbidden', said('error.auth.locationKeyOnAdmin'));
    }
    const admin = token ? await apiKeys.authenticateAdminToken(token) : null;
    if (!admin) throw unauthenticated(reply, said('error.auth.adminInvalid'));
    request.admin = admin;
  };
}
