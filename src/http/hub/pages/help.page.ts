import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../../lib/errors.ts';
import { GUIDES, HELP_LINKS, isGuide, type HelpTopic } from '../help/guides.ts';
import { renderGuide } from '../help/markdown.ts';
import { html, raw, type Html } from '../html.ts';
import type { HubContext } from '../hub-context.ts';
import { sendPage } from '../form.ts';
import { paths } from '../paths.ts';

const helpPath = (guide: string) => paths.helpGuide(guide);

/** The note that the guides are English, on a page read in another language. */
function englishNote(ctx: HubContext): Html | null {
  return ctx.user.language === 'en' ? null : html`<p class="muted">${ctx.t('hub.help.english')}</p>`;
}

/**
 * Help, for every signed-in user: the guides of docs/ listed in the reader's language, and each
 * rendered in the hub's layout. A guide is text in English (marked `lang="en"`, so a screen
 * reader reads it as English); only the names in GUIDES are served.
 */
export const helpPages: FastifyPluginAsync = async (app) => {
  app.get('/help', { config: { hub: 'signed-in' } }, async (request, reply) => {
    const ctx = request.hub;
    const { t } = ctx;
    const body = html`<h1>${t('hub.help.title')}</h1>
<p>${t('hub.help.intro')}</p>
${englishNote(ctx)}
<dl class="help-guides">
  ${GUIDES.map((g) => html`<dt><a href="${paths.helpGuide(g)}">${t(`hub.help.guide.${g}`)}</a></dt><dd>${t(`hub.help.summary.${g}`)}</dd>`)}
</dl>`;
    return sendPage(reply, ctx, { title: t('hub.help.title'), body });
  });

  app.get('/help/:guide', { config: { hub: 'signed-in' } }, async (request, reply) => {
    const ctx = request.hub;
    const { t } = ctx;
    const name = (request.params as { guide: string }).guide;
    if (!isGuide(name)) throw AppError.notFound('Page');
    const guide = renderGuide(name, helpPath);
    const body = html`<p><a href="${paths.help}">${t('hub.help.all')}</a></p>
${englishNote(ctx)}
<article class="help-guide" lang="en">${raw(guide.html)}</article>`;
    return sendPage(reply, ctx, { title: `${t(`hub.help.guide.${name}`)} · ${t('hub.help.title')}`, body });
  });
};

/** A page's "Help" link to the part of a guide that explains it, named for a screen reader by the guide. */
export function helpLink(ctx: HubContext, topic: HelpTopic): Html {
  const { guide, anchor } = HELP_LINKS[topic];
  return html`<p class="help-link"><a href="${paths.helpGuide(guide, anchor)}"><span aria-hidden="true">?</span> ${ctx.t('hub.help.about', { guide: ctx.t(`hub.help.guide.${guide}`) })}</a></p>`;
}
