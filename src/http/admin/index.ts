import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { adminAuth } from '../plugins/authenticate.ts';
import { enforceRoles } from '../access.ts';
import { inquiriesRoutes } from './inquiries.routes.ts';
import { notificationsRoutes } from './notifications.routes.ts';
import { developerRoutes } from './developer.routes.ts';
import { webhooksRoutes } from './webhooks.routes.ts';
import { salesRoutes } from './sales.routes.ts';
import { quotationsRoutes } from './quotations.routes.ts';
import { ordersRoutes } from './orders.routes.ts';
import { catalogAdminRoutes } from './catalog.routes.ts';
import { customersRoutes } from './customers.routes.ts';
import { fiscalRoutes } from './fiscal.routes.ts';
import { companySetupRoutes } from './company-setup.routes.ts';
import { counterSalesRoutes } from './counter-sales.routes.ts';
import { sendingsRoutes } from './sendings.routes.ts';
import { inquiryRepliesRoutes } from './inquiry-replies.routes.ts';
import { reportsRoutes } from './reports.routes.ts';
import { exportsRoutes } from './exports.routes.ts';
import { dsfinvkRoutes } from './dsfinvk.routes.ts';
import { einvoiceRoutes } from './einvoice.routes.ts';
import { drawerRoutes } from './drawer.routes.ts';
import { logoRoutes } from './logo.routes.ts';

/** /api/v1/admin: the hub's API, with personal admin tokens; always scoped to the token's company, each route to the roles of access.ts. */
export const adminV1 =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.addHook('onRequest', adminAuth(c.apiKeys));
    enforceRoles(app);
    await app.register(inquiriesRoutes(c));
    await app.register(notificationsRoutes(c));
    await app.register(developerRoutes(c));
    await app.register(webhooksRoutes(c));
    await app.register(quotationsRoutes(c));
    await app.register(ordersRoutes(c));
    await app.register(salesRoutes(c));
    await app.register(catalogAdminRoutes(c));
    await app.register(customersRoutes(c));
    await app.register(fiscalRoutes(c));
    await app.register(companySetupRoutes(c));
    await app.register(counterSalesRoutes(c));
    await app.register(sendingsRoutes(c));
    await app.register(inquiryRepliesRoutes(c));
    await app.register(reportsRoutes(c));
    await app.register(exportsRoutes(c));
    await app.register(dsfinvkRoutes(c));
    await app.register(einvoiceRoutes(c));
    await app.register(drawerRoutes(c));
    await app.register(logoRoutes(c));
  };
