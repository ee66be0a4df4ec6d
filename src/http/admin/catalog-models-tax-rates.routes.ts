import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, errorResponses, ProblemRef } from '../schemas.ts';
import { ModelBody, TaxRateBody, TaxRatePatch } from '../requests/catalog.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const InUse = (why: string) => ({ 409: { ...ProblemRef, description: `Refused with code \`conflict\`: ${why}` } });

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

/** Models and tax rates of the catalog. */
export const modelsAndTaxRatesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

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
  };
