import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SessionUser } from '../../modules/accounts/index.ts';
import { createFormatter, type Formatter } from '../../modules/i18n/index.ts';
import { hubTranslator, type HubTranslate } from './texts/index.ts';
import { can, type Permission } from '../access.ts';

/**
 * Who may open a hub route: a permission of the role table (access.ts), any signed-in user, or
 * anyone (sign-in, assets). Every hub route names one in `config.hub`; one without stops the
 * server, as an admin route without its entry does.
 */
export type HubAccess = Permission | 'signed-in' | 'public';

/** What a page handler has: the user, their language and formats, a CSRF token for its forms. */
export interface HubContext {
  user: SessionUser;
  t: HubTranslate;
  fmt: Formatter;
  csrf: string;
  can(permission: Permission): boolean;
  /** The path being shown, for the navigation's current item. */
  path: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    hub: HubContext;
  }
  interface FastifyContextConfig {
    hub?: HubAccess;
    /** A background request (polling): it reads the session without extending its idle time. */
    hubPoll?: boolean;
  }
}

export function hubContext(request: FastifyRequest, reply: FastifyReply, user: SessionUser): HubContext {
  return {
    user,
    t: hubTranslator(user.language),
    fmt: createFormatter(user.localeTag, { currency: user.currency, timeZone: user.timezone }),
    csrf: reply.generateCsrf({ userInfo: user.userId }),
    can: (permission) => can(user.role, permission),
    path: request.url.split('?')[0]!,
  };
}

/** What a CSRF token is bound to before sign-in (after, the user's id). */
export const SIGNED_OUT = 'signed-out';
