import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { requireRole } from '../plugins/authenticate.ts';
import { Data, Money, Nullable, Text, errorResponses } from '../schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** Catalog administration: categories, models, tax rates, products with unit prices, datasheets. */
export const catalogAdminRoutes = (c: Container): FastifyPluginAsyncTypebox => async (app) => {
  const security = [{ adminToken: [] }];
  app.addHook('preHandler', requireRole('admin'));

  app.post('/categories', {
    schema: {
      tags: ['Admin'], operationId: 'adminCreateCategory', summary: 'Add a category', security,
      body: Type.Object({ name: Text(200), parentId: Type.Optional(Nullable(Type.String({ maxLength: 64 }))) }, { additionalProperties: false }),
      response: { 201: Data(Type.Object({ id: Type.String(), name: Type.String(), parentId: Nullable(Type.String()) })), ...errorResponses(400, 403) },
    },
  }, async (request, reply) => reply.status(201).send({ data: await c.catalogAdmin.createCategory(request.admin.companyId, request.body) }));

  app.post('/models', {
    schema: {
      tags: ['Admin'], operationId: 'adminCreateModel', summary: 'Add a model', security,
      body: Type.Object({ name: Text(200) }, { additionalProperties: false }),
      response: { 201: Data(Type.Object({ id: Type.String(), name: Type.String() })), ...errorResponses(400, 403) },
    },
  }, async (request, reply) => reply.status(201).send({ data: await c.catalogAdmin.createModel(request.admin.companyId, request.body) }));

  app.post('/tax-rates', {
    schema: {
      tags: ['Admin'], operationId: 'adminCreateTaxRate', summary: 'Add a tax rate', security,
      body: Type.Object({ name: Text(100), rate: Type.String({ pattern: '^\\d{1,3}(\\.\\d{1,2})?$', 'x-pattern-message': 'Use a percentage such as "25" or "9.5".' }) }, { additionalProperties: false }),
      response: { 201: Data(Type.Object({ id: Type.String(), name: Type.String(), rate: Type.String() })), ...errorResponses(400, 403) },
    },
  }, async (request, reply) => reply.status(201).send({ data: await c.catalogAdmin.createTaxRate(request.admin.companyId, request.body) }));

  app.post('/products', {
    schema: {
      tags: ['Admin'], operationId: 'adminCreateProduct', summary: 'Add a product with its units and prices', security,
      body: Type.Object({
        name: Text(300), sku: Type.Optional(Text(100)), description: Type.Optional(Type.String({ maxLength: 5000 })),
        categoryId: Type.Optional(Type.String({ maxLength: 64 })), modelId: Type.Optional(Type.String({ maxLength: 64 })), taxRateId: Type.String({ maxLength: 64 }),
        units: Type.Array(Type.Object({ name: Text(50), price: Money }, { additionalProperties: false }), { minItems: 1, maxItems: 50 }),
      }, { additionalProperties: false }),
      response: { 201: Data(Type.Object({ id: Type.String(), unitIds: Type.Array(Type.String()) })), ...errorResponses(400, 403) },
    },
  }, async (request, reply) => reply.status(201).send({ data: await c.catalogAdmin.createProduct(request.admin.companyId, request.body) }));

  app.register(async (plain) => {
    const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
    uploads.addContentTypeParser('application/pdf', { parseAs: 'buffer', bodyLimit: c.config.datasheetMaxBytes }, (_request, body, done) => done(null, body));
    uploads.put('/products/:id/datasheet', {
      bodyLimit: c.config.datasheetMaxBytes,
      schema: {
        tags: ['Admin'], operationId: 'adminUploadDatasheet', summary: 'Upload a product datasheet (application/pdf body)', security, params: IdParams,
        querystring: Type.Object({ filename: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
        response: { 204: Type.Null(), ...errorResponses(400, 403, 404, 413, 415) },
      },
    }, async (request, reply) => {
      await c.catalogAdmin.setDatasheet(request.admin.companyId, request.params.id,
        { name: request.query.filename ?? `${request.params.id}.pdf`, bytes: request.body as Buffer }, c.config.datasheetMaxBytes);
      return reply.status(204).send(null);
    });
  });
};
