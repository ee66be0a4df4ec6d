import type { FastifyReply } from 'fastify';
import type { FieldErrors } from '../../lib/errors.ts';
import type { HubMessageArgs, HubMessageKey } from './texts/index.ts';
import type { HubContext } from './hub-context.ts';
import type { Html } from './html.ts';
import { page, postForm } from './layout.ts';
import { queryText } from './form-input.ts';

/**
 * What every hub page does with a form: read what was posted (or asked in the query) without
 * trusting its shape, check it with the admin API's schema for the same body and run the
 * service (`submit`), show each field with its label, what was typed and its message beside
 * it (`field`), open a form with its CSRF field (`postForm`), read a redirect's notice, and
 * send the page.
 */

export type { FieldErrors };
export { postForm };
export * from './form-input.ts';
export * from './form-submit.ts';
export * from './form-field.ts';

// ---- Notices: `?notice=<key>` after a redirect names one of the page's own; anything else is
// ignored, so a link cannot put words on the page.

/** A message without placeholders: what a notice can be. */
export type NoticeKey = { [K in HubMessageKey]: HubMessageArgs<K> extends [] ? K : never }[HubMessageKey];

export function noticeOf(ctx: HubContext, query: unknown, notices: Readonly<Record<string, NoticeKey>>): string | null {
  const key = queryText((query as Record<string, unknown> | undefined)?.notice, 40);
  return key !== undefined && Object.hasOwn(notices, key) ? ctx.t(notices[key]! as NoticeKey) : null;
}

// ---- The reply.

export interface SendOptions {
  title: string;
  body: Html;
  notice?: string | null;
  status?: number;
}

/** The whole page (layout.ts) as the reply. */
export function sendPage(reply: FastifyReply, ctx: HubContext, options: SendOptions): FastifyReply {
  return reply
    .status(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(page(ctx, { title: options.title, body: options.body, notice: options.notice ?? null }).value);
}
