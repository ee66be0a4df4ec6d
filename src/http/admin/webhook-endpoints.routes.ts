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

/** Webhook endpoints (company-wide): add, list, change, remove, test. Admins only. */
export const webhookEndpointsRoutes =
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
  };
