import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { drawerDayRoutes } from './drawer-day.routes.ts';
import { drawerReportsRoutes } from './drawer-reports.routes.ts';

/** The cash drawer of each location, a file per resource: the day's drawer (open, cash in and out, close); the day reports. */
export const drawerRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(drawerDayRoutes(c));
    await app.register(drawerReportsRoutes(c));
  };
