import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Money, Nullable, Pagination, ProblemRef, Timestamp, errorResponses } from '../schemas.ts';
import { NewProductBody, ProductPatch } from '../requests/catalog.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export const Unit = Type.Object(
  { id: Type.String(), name: Type.String(), price: Money, unitCode: Type.String({ description: 'UN/ECE Rec 20.' }) },
  { additionalProperties: false },
);

const AdminProduct = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    sku: Nullable(Type.String()),
    barcode: Nullable(Type.String({ description: 'GTIN digits (EAN-8, UPC-A, EAN-13 or GTIN-14).' })),
    description: Nullable(Type.String()),
    categoryId: Nullable(Type.String()),
    modelId: Nullable(Type.String()),
    taxRateId: Type.String(),
    taxRate: Type.String({ description: 'Percent.' }),
    classificationCode: Nullable(Type.String({ description: 'KPD 2025.' })),
    active: Type.Boolean({
      description: 'Inactive products are hidden from the public API but kept for old quotations and orders.',
    }),
    hasDatasheet: Type.Boolean(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    units: Type.Array(Unit),
  },
  { additionalProperties: false },
);

const BARCODE_TAKEN = {
  ...ProblemRef,
  description:
    '`conflict` naming `barcode`: another product of the company has this barcode (in any spelling of its GTIN).',
};

/** Products: add, list, export, read, change, remove. */
export const productsAdminRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/products',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateProduct',
          summary: 'Add a product with its units and prices',
          security,
          body: NewProductBody,
          response: {
            201: Data(Type.Object({ id: Type.String(), unitIds: Type.Array(Type.String()) })),
            ...errorResponses(400, 403),
            409: BARCODE_TAKEN,
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.catalogAdmin.createProduct(request.admin.companyId, request.body) }),
    );

    app.get(
      '/products',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListProducts',
          summary: 'Products with their units, by name, inactive ones included',
          security,
          querystring: Type.Object(
            {
              ...Pagination,
              q: Type.Optional(
                Type.String({
                  minLength: 1,
                  maxLength: 100,
                  description: 'Matches part of the name or SKU, or the whole barcode.',
                }),
              ),
              active: Type.Optional(
                Type.Boolean({ description: 'Only active (true) or only inactive (false) products.' }),
              ),
              categoryId: Type.Optional(Type.String({ maxLength: 64, description: 'Includes sub-categories.' })),
              modelId: Type.Optional(Type.String({ maxLength: 64 })),
            },
            { additionalProperties: false },
          ),
          response: {
            200: Type.Object(
              { data: Type.Array(AdminProduct), nextCursor: Nullable(Type.String()) },
              { additionalProperties: false },
            ),
            ...errorResponses(400, 403),
          },
        },
      },
      async (request) => {
        const { limit = 25, ...rest } = request.query;
        return c.catalogAdmin.listProducts(request.admin.companyId, { limit, ...rest });
      },
    );

    app.get(
      '/products.csv',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminExportCatalog',
          summary: 'The active catalog as the CSV import reads it',
          description:
            'One row per unit with the import’s columns (`sku`, `name`, `category`, `parent_category`, `model`, `tax_rate`, `unit`, `price`, `description`, `classification`, `unit_code`, `barcode`), comma-separated, decimal points: edit it and import it again (`portico catalog import`, or the hub) to change only what was edited. A product without a SKU has that cell empty, and the import names its rows.',
          security,
          response: {
            200: { description: 'The CSV file.', content: { 'text/csv': { schema: Type.String() } } },
            ...errorResponses(403),
          },
        },
      },
      async (request, reply) =>
        reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="catalog.csv"')
          .send(await c.catalogImport.exportCsv(request.admin.companyId)),
    );

    app.get(
      '/products/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetProduct',
          summary: 'One product with its units',
          security,
          params: IdParams,
          response: { 200: Data(AdminProduct), ...errorResponses(403, 404) },
        },
      },
      async (request) => ({ data: await c.catalogAdmin.getProduct(request.admin.companyId, request.params.id) }),
    );

    app.patch(
      '/products/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateProduct',
          summary: 'Change a product (units have their own routes)',
          security,
          params: IdParams,
          body: ProductPatch,
          response: { 200: Data(AdminProduct), ...errorResponses(400, 403, 404), 409: BARCODE_TAKEN },
        },
      },
      async (request) => ({
        data: await c.catalogAdmin.updateProduct(request.admin.companyId, request.params.id, request.body),
      }),
    );

    app.delete(
      '/products/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeactivateProduct',
          summary: 'Deactivate a product (kept for existing quotations and orders)',
          security,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        await c.catalogAdmin.deactivateProduct(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
