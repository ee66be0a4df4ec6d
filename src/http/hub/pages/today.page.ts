import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../container.ts';
import { html } from '../html.ts';
import { page } from '../layout.ts';

/** Today: what needs the staff's attention first. */
export const todayPage = (_c: Container): FastifyPluginAsync => async (app) => {
  app.get('/', { config: { hub: 'signed-in' } }, async (request, reply) => {
    const ctx = request.hub;
    const { t } = ctx;
    return reply.type('text/html; charset=utf-8').send(page(ctx, { title: t('hub.today.title'), body: html`<h1>${t('hub.today.title')}</h1>` }).value);
  });
};
