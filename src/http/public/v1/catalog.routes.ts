import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { fileHeaders } from '../../file-reply.ts';
import type { Container } from '../../../container.ts';
import { Data, Id, Money, Nullable, Pagination, errorResponses } from '../../schemas.ts';

export const Product = Type.Object(
  {
    id: Id('prd'),
    name: Type.String(),
    sku: Nullable(Type.String()),
    description: Nullable(Type.String()),
    categoryId: Nullable(Type.String()),
    modelId: Nullable(Type.String()),
    taxRate: Type.String({ description: 'Percent.', examples: ['25'] }),
    hasDatasheet: Type.Boolean(),
    units: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          name: Type.String(),
          price: Money,
          priceWithoutTax: Money,
          priceWithTax: Money,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, $id: 'Product' },
);

const Category = Type.Object(
  { id: Type.String(), name: Type.String(), parentId: Nullable(Type.String()) },
  { additionalProperties: false },
);
const Model = Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false });
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
// Declared for the OpenAPI document only; typed loosely because the body is raw bytes, not JSON.
const PdfFile: object = {
  description: 'The datasheet.',
  content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
};

/** The part of the catalog the company exposes; anything outside its scope does not exist here. */
export const catalogRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/products',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'listProducts',
          summary: 'List products within the catalog scope',
          security: [{ apiKey: [] }],
          querystring: Type.Object(
            {
              ...Pagination,
              categoryId: Type.Optional(Type.String({ maxLength: 64, description: 'Includes sub-categories.' })),
              modelId: Type.Optional(Type.String({ maxLength: 64 })),
              q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Matches name or SKU.' })),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object({ data: Type.Array(Type.Ref('Product')), nextCursor: Nullable(Type.String()) }),
            ...errorResponses(400),
          },
        },
      },
      async (request) => {
        const { limit = 25, ...rest } = request.query;
        return c.catalog.listProducts(request.caller.companyId, { limit, ...rest });
      },
    );

    app.get(
      '/products/:id',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'getProduct',
          summary: 'Read one product',
          security: [{ apiKey: [] }],
          params: IdParams,
          response: { 200: Data(Type.Ref('Product')), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.catalog.getProduct(request.caller.companyId, request.params.id) }),
    );

    app.get(
      '/products/:id/datasheet',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'getProductDatasheet',
          summary: "Download a product's datasheet PDF",
          security: [{ apiKey: [] }],
          params: IdParams,
          response: { 200: PdfFile, ...errorResponses(404) },
        },
      },
      async (request, reply) => {
        const sheet = await c.catalog.getDatasheet(request.caller.companyId, request.params.id);
        // An uploaded file: a download under the name Portico gives it, never shown inline.
        return fileHeaders(reply, 'uploaded', sheet.name).type('application/pdf').send(sheet.bytes);
      },
    );

    app.get(
      '/categories',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'listCategories',
          summary: 'Categories holding visible products',
          security: [{ apiKey: [] }],
          response: { 200: Data(Type.Array(Category)), ...errorResponses() },
        },
      },
      async (request) => ({ data: await c.catalog.listCategories(request.caller.companyId) }),
    );

    app.get(
      '/models',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'listModels',
          summary: 'Models of visible products',
          security: [{ apiKey: [] }],
          response: { 200: Data(Type.Array(Model)), ...errorResponses() },
        },
      },
      async (request) => ({ data: await c.catalog.listModels(request.caller.companyId) }),
    );
  };
