import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { AllowedOrigins, KeyKindSchema, KeyModeSchema, NewApiKeyBody } from '../requests/developer.ts';
import { deleteTestData } from '../test-data.ts';

const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    locationId: Type.String(),
    kind: KeyKindSchema,
    mode: KeyModeSchema,
    allowedOrigins: AllowedOrigins,
    createdAt: Timestamp,
    lastUsedAt: Nullable(Timestamp),
    revokedAt: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

/** Location API keys, and the test data their test keys made. */
export const apiKeysRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/api-keys',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListApiKeys',
          summary: 'Location API keys (never their secrets)',
          security,
          response: { 200: Data(Type.Array(ApiKey)), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.apiKeys.listApiKeys(request.admin.companyId) }),
    );

    app.post(
      '/api-keys',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateApiKey',
          summary:
            'Issue a location API key (secret or publishable, live or test); the key is shown only in this response',
          security,
          body: NewApiKeyBody,
          response: {
            201: Data(
              Type.Object(
                { ...ApiKey.properties, key: Type.String({ description: 'Shown once; store it now.' }) },
                { additionalProperties: false },
              ),
            ),
            ...errorResponses(400, 403),
          },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.apiKeys.createApiKey(request.admin.companyId, request.body) }),
    );

    app.delete(
      '/api-keys/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRevokeApiKey',
          summary: 'Revoke a location API key, at once',
          security,
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 204: Type.Null(), ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        await c.apiKeys.revokeApiKey(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.delete(
      '/test-data',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteTestData',
          summary:
            'Delete everything made with test keys: test inquiries, quotations, orders, the test sales converted from them, and their webhook events',
          security,
          response: {
            200: Data(
              Type.Object(
                {
                  inquiries: Type.Integer(),
                  quotations: Type.Integer(),
                  orders: Type.Integer(),
                  sales: Type.Integer(),
                  events: Type.Integer(),
                },
                { additionalProperties: false, description: 'How many of each were deleted.' },
              ),
            ),
            ...errorResponses(403),
          },
        },
      },
      async (request) => ({ data: await deleteTestData(c, request.admin.companyId) }),
    );
  };
