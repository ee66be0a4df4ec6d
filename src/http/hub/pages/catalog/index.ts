import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../../container.ts';
import { categoriesPage } from './categories.page.ts';
import { importPage } from './import.page.ts';
import { modelsPage } from './models.page.ts';
import { productPage } from './product.page.ts';
import { productsPage } from './products.page.ts';
import { taxRatesPage } from './tax-rates.page.ts';
import { kpdPickerRoute } from './kpd-picker.ts';

/** /hub/catalog: everyone reads it (catalog:read), only admins change it (catalog:write). */
export const catalogPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    await app.register(categoriesPage(c));
    await app.register(modelsPage(c));
    await app.register(taxRatesPage(c));
    await app.register(productsPage(c));
    await app.register(productPage(c));
    await app.register(importPage(c));
    await app.register(kpdPickerRoute);
  };
