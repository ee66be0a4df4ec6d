import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { EXCHANGE_PROVIDERS } from '../../modules/einvoice/index.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';

const security = [{ adminToken: [] }];

const ExchangeSettings = Type.Object(
  {
    configured: Type.Boolean({ description: 'An exchange is set up: received invoices are polled.' }),
    provider: Nullable(Type.Enum(EXCHANGE_PROVIDERS)),
    username: Nullable(Type.String()),
    companyId: Nullable(Type.String({ description: "The company's OIB as registered with the intermediary." })),
    softwareId: Nullable(Type.String()),
    businessUnit: Nullable(Type.String()),
    baseUrl: Nullable(Type.String()),
    inbox: Type.Object(
      {
        checkedAt: Nullable(Timestamp),
        error: Nullable(Type.String({ description: 'Why the last poll of the inbox failed; null after a good one.' })),
      },
      { additionalProperties: false },
    ),
    updatedAt: Nullable(Timestamp),
  },
  { additionalProperties: false, description: 'The password is never returned.' },
);

const ExchangeBody = Type.Object(
  {
    provider: Type.Enum(EXCHANGE_PROVIDERS),
    username: Type.String({ maxLength: 200 }),
    password: Type.Optional(
      Type.String({ maxLength: 500, description: 'Required the first time; left out, the stored one is kept.' }),
    ),
    companyId: Type.String({ maxLength: 20, description: "The company's OIB (CompanyId at moj-eRačun)." }),
    softwareId: Type.String({ maxLength: 100, description: 'The SoftwareId the intermediary gave this software.' }),
    businessUnit: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    baseUrl: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 300,
          description: "https only; default the provider's production address (moj-eRačun: https://www.moj-eracun.hr).",
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

/** The e-invoice exchange's settings: read, set, remove, and a check of the connection. Admins. */
export const exchangeSettingsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/einvoice/exchange',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetExchange',
          summary: "The company's e-invoice exchange (information intermediary): its settings, never the password",
          security,
          response: { 200: Data(ExchangeSettings), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.exchangeSettings.get(request.admin.companyId) }),
    );

    app.put(
      '/einvoice/exchange',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminSetExchange',
          summary: 'Set up the e-invoice exchange: moj-eRačun credentials, the password stored sealed',
          security,
          body: ExchangeBody,
          response: { 200: Data(ExchangeSettings), ...errorResponses(400, 403) },
        },
      },
      async (request) => ({ data: await c.exchangeSettings.save(request.admin.companyId, request.body) }),
    );

    app.delete(
      '/einvoice/exchange',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteExchange',
          summary: 'Forget the e-invoice exchange and its sealed password',
          security,
          response: { 204: Type.Null(), ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        await c.exchangeSettings.remove(request.admin.companyId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/einvoice/exchange/check',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCheckExchange',
          summary: 'One authenticated call to the intermediary: address, TLS and credentials',
          security,
          response: {
            200: Data(
              Type.Object(
                { ok: Type.Boolean(), baseUrl: Type.String(), millis: Type.Integer(), message: Type.String() },
                { additionalProperties: false },
              ),
            ),
            ...errorResponses(403, 409),
          },
        },
      },
      async (request) => ({ data: await c.exchangeSettings.check(request.admin.companyId) }),
    );
  };
