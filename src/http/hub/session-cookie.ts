import type { FastifyReply, FastifyRequest } from 'fastify';

// Over HTTPS the cookie is `__Host-` (Secure, path /, no Domain: a sibling subdomain cannot set or read it).
const NAME = 'portico_session';
const HOST_NAME = `__Host-${NAME}`;

const secure = (request: FastifyRequest) => request.protocol === 'https';

export function readSessionToken(request: FastifyRequest): string | null {
  return request.cookies[secure(request) ? HOST_NAME : NAME] ?? null;
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(secure(request) ? HOST_NAME : NAME, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(request),
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(secure(request) ? HOST_NAME : NAME, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: secure(request),
  });
}
