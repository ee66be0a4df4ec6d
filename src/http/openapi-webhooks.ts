import type { OpenAPIV3_2 } from '@fastify/swagger';
import { WEBHOOK_BODIES } from '../modules/webhooks/index.ts';

const HEADERS = [
  { name: 'webhook-id', description: 'The event id; the same on every retry.' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt.' },
  {
    name: 'webhook-signature',
    description:
      '`v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` (Standard Webhooks); only when the endpoint has a secret.',
  },
  { name: 'X-Service-Webhook-Secret', description: "The endpoint's secret itself; only when it has one." },
];

export const WEBHOOKS_TAG = {
  name: 'Webhooks',
  description:
    "What Portico POSTs to a company's HTTP endpoints (configured in the admin API). Delivery is at least once: deduplicate on `id`. Only a 2xx answer counts; anything else is retried with backoff for about three and a half days, and a 410 disables the endpoint. Every body has `livemode`: `false` for events about test data.\n\n" +
    "Each delivery is signed the Standard Webhooks way (`webhook-id`, `webhook-timestamp`, `webhook-signature`, with the endpoint's `whsec_…` secret); verify the raw body with a Standard Webhooks library:\n\n" +
    "```js\nimport { Webhook } from 'standardwebhooks';\nconst event = new Webhook(process.env.PORTICO_WEBHOOK_SECRET).verify(rawBody, request.headers); // throws if forged\n```\n\n" +
    '```python\nfrom standardwebhooks.webhooks import Webhook\nevent = Webhook(os.environ["PORTICO_WEBHOOK_SECRET"]).verify(raw_body, headers)\n```\n\n' +
    "```php\n$event = (new \\StandardWebhooks\\Webhook(getenv('PORTICO_WEBHOOK_SECRET')))->verify($rawBody, $headers);\n```",
};

/**
 * The OpenAPI 3.1 `webhooks` section: what each event's POST to an HTTP endpoint carries,
 * straight from the event catalog.
 */
export function webhooksSection(): Record<string, OpenAPIV3_2.PathItemObject> {
  return Object.fromEntries(
    WEBHOOK_BODIES.map((body) => [
      body.name,
      {
        post: {
          tags: [WEBHOOKS_TAG.name],
          operationId: `webhook${body.name
            .split(/[._]/)
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join('')}`,
          summary: body.name,
          description: body.description,
          security: [],
          parameters: HEADERS.map((h) => ({
            in: 'header',
            name: h.name,
            required: h.name === 'webhook-id' || h.name === 'webhook-timestamp',
            description: h.description,
            schema: { type: 'string' },
          })),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: body.schema, example: body.example } },
          },
          responses: {
            200: { description: 'Received (any 2xx).' },
            410: { description: "Gone: Portico disables the endpoint and tells the company's admins." },
          },
        },
      },
    ]),
  );
}
