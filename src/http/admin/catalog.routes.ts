import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import { Data, Money, Nullable, Pagination, ProblemRef, Timestamp, errorResponses } from '../schemas.ts';
import {
  CategoryBody,
  CategoryPatch,
  ModelBody,
  NewProductBody,
  ProductPatch,
  TaxRateBody,
  TaxRatePatch,
  UnitBody,
  UnitPatch,
} from '../requests/catalog.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const InUse = (why: string) => ({ 409: { ...ProblemRef, description: `Refused with code \`conflict\`: ${why}` } });

const Category = Type.Object(
  { id: Type.String(), name: Type.String(), parentId: Nullable(Type.String()) },
  { additionalProperties: false },
);
const Model = Type.Object({ id: Type.String(), name: Type.String() }, { additionalProperties: false });
const TaxRate = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    rate: Type.String({ description: 'Percent.', examples: ['25'] }),
    exemptionReason: Nullable(Type.String({ description: 'For a 0 % rate: why it is exempt, printed on invoices.' })),
  },
  { additionalProperties: false },
);
const Unit = Type.Object(
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

/** Catalog administration: categories, models, tax rates, products with unit prices, datasheets. */
export const catalogAdminRoutes =
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

    app.post(
      '/models',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateModel',
          summary: 'Add a model',
          security,
          body: ModelBody,
          response: { 201: Data(Model), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.catalogAdmin.createModel(request.admin.companyId, request.body) }),
    );

    app.post(
      '/tax-rates',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateTaxRate',
          summary: 'Add a tax rate',
          security,
          body: TaxRateBody,
          response: { 201: Data(TaxRate), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.catalogAdmin.createTaxRate(request.admin.companyId, request.body) }),
    );

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

    app.get(
      '/models',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListModels',
          summary: 'All models, by name',
          security,
          response: { 200: Data(Type.Array(Model)), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.catalogAdmin.listModels(request.admin.companyId) }),
    );

    app.patch(
      '/models/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateModel',
          summary: 'Rename a model',
          security,
          params: IdParams,
          body: ModelBody,
          response: { 200: Data(Model), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: await c.catalogAdmin.updateModel(request.admin.companyId, request.params.id, request.body),
      }),
    );

    app.delete(
      '/models/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteModel',
          summary: 'Delete a model no product uses',
          security,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(403, 404), ...InUse('products still use the model.') },
        },
      },
      async (request, reply) => {
        await c.catalogAdmin.deleteModel(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/tax-rates',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListTaxRates',
          summary: 'All tax rates, lowest first',
          security,
          response: { 200: Data(Type.Array(TaxRate)), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.catalogAdmin.listTaxRates(request.admin.companyId) }),
    );

    app.patch(
      '/tax-rates/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateTaxRate',
          summary: 'Rename or change a tax rate (existing quotations keep theirs)',
          security,
          params: IdParams,
          body: TaxRatePatch,
          response: { 200: Data(TaxRate), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: await c.catalogAdmin.updateTaxRate(request.admin.companyId, request.params.id, request.body),
      }),
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

    app.post(
      '/products/:id/units',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminAddUnit',
          summary: 'Add a unit with its price to a product',
          security,
          params: IdParams,
          body: UnitBody,
          response: { 201: Data(Unit), ...errorResponses(400, 403, 404) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await c.catalogAdmin.addUnit(request.admin.companyId, request.params.id, request.body) }),
    );

    app.patch(
      '/units/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateUnit',
          summary: 'Rename a unit or change its price (existing quotations keep theirs)',
          security,
          params: IdParams,
          body: UnitPatch,
          response: { 200: Data(Unit), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: await c.catalogAdmin.updateUnit(request.admin.companyId, request.params.id, request.body),
      }),
    );

    app.delete(
      '/units/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteUnit',
          summary: "Remove a unit (not the product's last one)",
          security,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(403, 404), ...InUse("it is the product's last unit.") },
        },
      },
      async (request, reply) => {
        await c.catalogAdmin.deleteUnit(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.register(async (plain) => {
      const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
      uploads.addContentTypeParser(
        'application/pdf',
        { parseAs: 'buffer', bodyLimit: c.config.datasheetMaxBytes },
        (_request, body, done) => done(null, body),
      );
      uploads.put(
        '/products/:id/datasheet',
        {
          bodyLimit: c.config.datasheetMaxBytes,
          schema: {
            tags: ['Admin'],
            operationId: 'adminUploadDatasheet',
            summary: 'Upload a product datasheet (application/pdf body)',
            description:
              'A PDF with JavaScript, automatic or launch actions, or embedded files is refused (400 naming `file`).',
            security,
            params: IdParams,
            querystring: Type.Object(
              {
                filename: Type.Optional(
                  Type.String({
                    maxLength: 200,
                    description: 'Accepted and ignored: a datasheet is served as `{sku or product id}.pdf`.',
                  }),
                ),
              },
              { additionalProperties: false },
            ),
            response: { 204: Type.Null(), ...errorResponses(400, 403, 404, 413, 415) },
          },
        },
        async (request, reply) => {
          // The JSON parser is inherited from the root, so a JSON body arrives here as an object, not bytes.
          if (!Buffer.isBuffer(request.body))
            throw new AppError('unsupported_media_type', said('error.datasheet.rawBody'));
          await c.catalogAdmin.setDatasheet(
            request.admin.companyId,
            request.params.id,
            { bytes: request.body },
            c.config.datasheetMaxBytes,
          );
          return reply.status(204).send(null);
        },
      );
    });
  };
