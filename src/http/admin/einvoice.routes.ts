import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { exchangeSettingsRoutes } from './einvoice-exchange.routes.ts';
import { purchaseBookRoutes } from './einvoice-purchase-book.routes.ts';
import { purchaseInvoicesRoutes } from './einvoice-purchases.routes.ts';

/** The e-invoice exchange's settings and received (purchase) invoices, a file per resource: exchange settings; purchase invoices; the purchase book. Admins; staff read received invoices. */
export const einvoiceRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(exchangeSettingsRoutes(c));
    await app.register(purchaseInvoicesRoutes(c));
    await app.register(purchaseBookRoutes(c));
  };
