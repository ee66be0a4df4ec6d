import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { categoriesRoutes } from './catalog-categories.routes.ts';
import { modelsAndTaxRatesRoutes } from './catalog-models-tax-rates.routes.ts';
import { productsAdminRoutes } from './catalog-products.routes.ts';
import { unitsAdminRoutes } from './catalog-units.routes.ts';

/** Catalog administration, a file per resource: categories; models and tax rates; products; units and datasheets. */
export const catalogAdminRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(categoriesRoutes(c));
    await app.register(modelsAndTaxRatesRoutes(c));
    await app.register(productsAdminRoutes(c));
    await app.register(unitsAdminRoutes(c));
  };
