import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const Attempt = Type.Object({
  attempt: Type.Integer(),
  startedAt: Timestamp,
  durationMs: Type.Integer(),
  statusCode: Nullable(Type.Integer()),
  success: Type.Boolean(),
  error: Nullable(Type.String()),
  responseExcerpt: Nullable(Type.String({ description: 'At most 2 KiB of the answer.' })),
});

const Delivery = Type.Object({
  id: Type.String(),
  eventId: Type.String(),
  event: Type.String({ examples: ['quote.created'], description: "The event's type." }),
  livemode: Type.Boolean({ description: 'False for an event about test data (made with a test key).' }),
  status: Type.String({ description: 'pending | delivered | failed | cancelled' }),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Timestamp),
  lastStatusCode: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
  deliveredAt: Nullable(Timestamp),
  createdAt: Timestamp,
  attemptLog: Type.Array(Attempt),
});

/** Each endpoint's delivery log, and a delivery sent again. Admins only. */
export const webhookDeliveriesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/webhooks/:id/deliveries',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListDeliveries',
          summary: 'Deliveries to an endpoint with every attempt, of live or of test events',
          security,
          params: IdParams,
          querystring: Type.Object(
            {
              limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
              mode: Type.Optional(
                Type.Union([Type.Literal('live'), Type.Literal('test')], {
                  description: '`live` (the default) or `test`: deliveries of test events, never both.',
                }),
              ),
            },
            { additionalProperties: false },
          ),
          response: { 200: Data(Type.Array(Delivery)), ...errorResponses(403, 404) },
        },
      },
      async (request) => ({
        data: await c.endpoints.deliveries(
          request.admin.companyId,
          request.params.id,
          request.query.limit ?? 50,
          request.query.mode ?? 'live',
        ),
      }),
    );

    app.post(
      '/deliveries/:id/redeliver',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRedeliver',
          summary: 'Send a delivery again, now',
          security,
          params: IdParams,
          response: {
            202: Data(Type.Object({ id: Type.String(), status: Type.String() })),
            ...errorResponses(403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        await c.endpoints.redeliver(request.admin.companyId, request.params.id);
        c.dispatcher.wake();
        return reply.status(202).send({ data: { id: request.params.id, status: 'pending' } });
      },
    );
  };
