import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, errorResponses, ProblemRef } from '../schemas.ts';
import { CategoryBody, CategoryPatch } from '../requests/catalog.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const InUse = (why: string) => ({
  409: { ...ProblemRef, description: `Refused with code \`conflict\`: ${why}` },
});

const Category = Type.Object(
  { id: Type.String(), name: Type.String(), parentId: Nullable(Type.String()) },
  { additionalProperties: false },
);

/** Categories of the catalog: add, list, rename or move, remove. */
export const categoriesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/categories',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateCategory',
          summary: 'Add a category',
          security,
          body: CategoryBody,
          response: { 201: Data(Category), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.catalogAdmin.createCategory(request.admin.companyId, request.body) }),
    );

    app.get(
      '/categories',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListCategories',
          summary: 'All categories, by name',
          security,
          response: { 200: Data(Type.Array(Category)), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.catalogAdmin.listCategories(request.admin.companyId) }),
    );

    app.patch(
      '/categories/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateCategory',
          summary: 'Rename or move a category (never under itself)',
          security,
          params: IdParams,
          body: CategoryPatch,
          response: { 200: Data(Category), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: await c.catalogAdmin.updateCategory(request.admin.companyId, request.params.id, request.body),
      }),
    );

    app.delete(
      '/categories/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteCategory',
          summary: 'Delete an empty category',
          security,
          params: IdParams,
          response: {
            204: Type.Null(),
            ...errorResponses(403, 404),
            ...InUse('the category still has products or sub-categories.'),
          },
        },
      },
      async (request, reply) => {
        await c.catalogAdmin.deleteCategory(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
