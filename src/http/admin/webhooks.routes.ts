import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import type { Container } from '../../container.ts';
import { EVENT_NAMES, SECRET_RULE } from '../../modules/webhooks/index.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';

const Events = Type.Array(Type.Union(EVENT_NAMES.map((name) => Type.Literal(name))), {
  uniqueItems: true,
  description: 'Empty or absent: every event.',
});
const Description = Type.String({ maxLength: 200 });
const Url = Type.String({ format: 'uri', maxLength: 2048, examples: ['https://hooks.example.com/portico'] });
const Secret = Type.String({
  minLength: SECRET_RULE.minLength,
  maxLength: SECRET_RULE.maxLength,
  pattern: SECRET_RULE.pattern,
  'x-pattern-message': SECRET_RULE.message,
  description:
    'Sent as X-Service-Webhook-Secret and used to sign (Standard Webhooks). A `whsec_` secret is base64-decoded for signing.',
});
const BotToken = Type.String({ maxLength: 200, description: 'Telegram bot token; stored encrypted, never returned.' });
const ChatId = Type.String({ maxLength: 64, examples: ['-1001234567890'] });

const Endpoint = Type.Object(
  {
    id: Type.String(),
    kind: Type.Union([Type.Literal('http'), Type.Literal('telegram')]),
    url: Nullable(Type.String()),
    chatId: Nullable(Type.String()),
    events: Type.Array(Type.String()),
    description: Nullable(Type.String()),
    enabled: Type.Boolean(),
    disabledReason: Nullable(Type.String()),
    failingSince: Nullable(Timestamp),
    secretHint: Nullable(Type.String({ description: 'Masked; the secret itself is never returned.' })),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

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

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const HttpEndpoint = Type.Object(
  {
    kind: Type.Literal('http'),
    url: Url,
    secret: Type.Optional(Secret),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
const TelegramEndpoint = Type.Object(
  {
    kind: Type.Literal('telegram'),
    botToken: BotToken,
    chatId: ChatId,
    events: Type.Optional(Events),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
// oneOf + discriminator (not TypeBox's anyOf) so a bad body is judged against its own kind only.
const NewEndpointBody = Type.Unsafe<Static<typeof HttpEndpoint> | Static<typeof TelegramEndpoint>>({
  type: 'object',
  required: ['kind'],
  properties: { kind: { type: 'string', enum: ['http', 'telegram'] } },
  oneOf: [HttpEndpoint, TelegramEndpoint],
  discriminator: { propertyName: 'kind' },
});

/** Webhook endpoints (company-wide) and their delivery log. Admins only. */
export const webhooksRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/webhooks',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateWebhook',
          summary: 'Add an HTTP or Telegram endpoint',
          security,
          body: NewEndpointBody,
          response: { 201: Data(Endpoint), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.endpoints.create(request.admin.companyId, request.body) }),
    );

    app.get(
      '/webhooks',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListWebhooks',
          summary: 'Webhook endpoints',
          security,
          response: { 200: Data(Type.Array(Endpoint)), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.endpoints.list(request.admin.companyId) }),
    );

    app.get(
      '/webhooks/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetWebhook',
          summary: 'One endpoint',
          security,
          params: IdParams,
          response: { 200: Data(Endpoint), ...errorResponses(403, 404) },
        },
      },
      async (request) => ({ data: await c.endpoints.get(request.admin.companyId, request.params.id) }),
    );

    app.patch(
      '/webhooks/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateWebhook',
          summary: 'Enable, disable or change an endpoint',
          security,
          params: IdParams,
          body: Type.Object(
            {
              enabled: Type.Optional(Type.Boolean()),
              url: Type.Optional(Url),
              secret: Type.Optional(Nullable(Secret)),
              botToken: Type.Optional(BotToken),
              chatId: Type.Optional(ChatId),
              events: Type.Optional(Events),
              description: Type.Optional(Nullable(Description)),
            },
            { additionalProperties: false },
          ),
          response: { 200: Data(Endpoint), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({ data: await c.endpoints.update(request.admin.companyId, request.params.id, request.body) }),
    );

    app.delete(
      '/webhooks/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteWebhook',
          summary: 'Remove an endpoint and its delivery log',
          security,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(403, 404) },
        },
      },
      async (request, reply) => {
        await c.endpoints.remove(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminTestWebhook',
          summary: "Send a `ping` now and see the receiver's answer",
          security,
          params: IdParams,
          response: {
            200: Data(
              Type.Object({
                eventId: Type.String(),
                ok: Type.Boolean(),
                statusCode: Nullable(Type.Integer()),
                durationMs: Type.Number(),
                error: Nullable(Type.String()),
                responseExcerpt: Nullable(Type.String()),
              }),
            ),
            ...errorResponses(403, 404),
          },
        },
      },
      async (request) => {
        await c.endpoints.get(request.admin.companyId, request.params.id);
        const r = await c.dispatcher.ping(request.admin.companyId, request.params.id);
        return {
          data: {
            eventId: r.eventId,
            ok: r.ok,
            statusCode: r.statusCode,
            durationMs: r.durationMs,
            error: r.error,
            responseExcerpt: r.responseExcerpt,
          },
        };
      },
    );

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
