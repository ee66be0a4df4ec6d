import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { apiKeysRoutes } from './api-keys.routes.ts';
import { companySettingsRoutes } from './company-settings.routes.ts';

/** The developer settings, a file per resource: API keys and test data; settings and the catalog scope. */
export const developerRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(apiKeysRoutes(c));
    await app.register(companySettingsRoutes(c));
  };
