import type { FastifyPluginAsync } from 'fastify';
import type { Container } from '../../../../container.ts';
import { assignmentPages } from './assignment.page.ts';
import { customersPages } from './customers.page.ts';
import { ordersPages } from './orders.page.ts';
import { quotationsPages } from './quotations.page.ts';
import { quotationFormPages } from './quotation-form.page.ts';
import { counterPages } from './counter.page.ts';
import { salesPages } from './sales.page.ts';
import { sendingPages } from './sending.page.ts';
import { drawerPages } from './drawer.page.ts';

/** The sales desk: quotations, web orders, sales and the customer directory. */
export const deskPages =
  (c: Container): FastifyPluginAsync =>
  async (app) => {
    // Before the quotation pages: /quotations/new is not a quotation's id.
    await app.register(quotationFormPages(c));
    await app.register(quotationsPages(c));
    await app.register(counterPages(c));
    await app.register(ordersPages(c));
    await app.register(assignmentPages(c));
    await app.register(salesPages(c));
    await app.register(customersPages(c));
    await app.register(sendingPages(c));
    await app.register(drawerPages(c));
  };
