import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../../container.ts';
import { apiKeysPage } from './api-keys.page.ts';
import { catalogScopePage } from './catalog-scope.page.ts';
import { fiscalPage } from './fiscal.page.ts';
import { exchangePage } from './exchange.page.ts';
import { printSettingsPage } from './print-settings.page.ts';
import { mailSettingsPage } from './mail-settings.page.ts';
import { webhookDetailPage } from './webhook-detail.page.ts';
import { webhooksPage } from './webhooks.page.ts';

/** Developer settings (/hub/developer): API keys, webhooks, catalog scope, print template, fiscalisation. Admins only. */
export const developerPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    await app.register(apiKeysPage(c));
    await app.register(webhooksPage(c));
    await app.register(webhookDetailPage(c));
    await app.register(catalogScopePage(c));
    await app.register(printSettingsPage(c));
    await app.register(mailSettingsPage(c));
    await app.register(fiscalPage(c));
    await app.register(exchangePage(c));
  };
