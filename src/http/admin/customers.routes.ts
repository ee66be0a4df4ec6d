import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Container } from '../../container.ts';
import { customerDirectoryRoutes } from './customer-directory.routes.ts';
import { customerAssignmentRoutes } from './customer-assignment.routes.ts';

/** Customers, a file per resource: the directory; the assignment of a document's customer. */
export const customersRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    await app.register(customerDirectoryRoutes(c));
    await app.register(customerAssignmentRoutes(c));
  };
