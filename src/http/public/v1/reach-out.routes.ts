import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../../container.ts';
import { honeypotFilled, type Inquiry } from '../../../modules/inquiries/index.ts';
import { idempotentCreate } from '../../idempotency.ts';
import { Data, Email, Id, Nullable, Phone, Text, Timestamp, errorResponses, Name } from '../../schemas.ts';

export const ReachOutBody = Type.Object(
  {
    topic: Text(200, { examples: ['Product question'] }),
    subject: Text(200, { examples: ['Is Boja za drvo available in 5 L?'] }),
    message: Text(5000, { examples: ['Hello, I would like to know…'] }),
    email: Email,
    phone: Phone,
    name: Type.Optional(Name(200, { examples: ['Ana Kovač'] })),
    productPhotoUrl: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        pattern: '^[hH][tT][tT][pP][sS]://[^/?#\\s]+',
        'x-pattern-message': 'Must be an https:// URL with a host.',
        description: 'A public HTTPS image URL from your website, so support staff see the product.',
        examples: ['https://shop.example.com/images/boja-5l.jpg'],
      }),
    ),
    website: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          'Honeypot: leave it out or empty. A form shows it hidden from people; a bot that fills it gets a 201 and nothing is stored.',
      }),
    ),
    captchaToken: Type.Optional(
      Type.String({
        maxLength: 4000,
        description:
          "Only where the operator configured a hosted captcha (CAPTCHA_VERIFY_URL): its widget's token, checked instead of `altcha`.",
      }),
    ),
    altcha: Type.Optional(
      Type.String({
        maxLength: 4000,
        description:
          'Required with a publishable key: the solved proof of work (an ALTCHA payload, base64) of a challenge from `GET /spam-challenge`. Without a valid one the inquiry lands in the spam folder.',
      }),
    ),
  },
  { additionalProperties: false },
);

const Challenge = Type.Object(
  {
    algorithm: Type.String({ examples: ['SHA-256'] }),
    challenge: Type.String(),
    maxnumber: Type.Optional(Type.Integer()),
    salt: Type.String(),
    signature: Type.String(),
  },
  { description: 'An ALTCHA challenge: find n ≤ maxnumber with SHA-256(salt + n) = challenge.' },
);

export const InquiryCreated = Type.Object(
  {
    id: Id('inq'),
    topic: Type.String(),
    subject: Type.String(),
    productPhotoUrl: Nullable(Type.String()),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const present = (i: Inquiry) => ({
  data: { id: i.id, topic: i.topic, subject: i.subject, productPhotoUrl: i.productPhotoUrl, createdAt: i.createdAt },
});

export const reachOutRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/reach-out',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'createInquiry',
          summary: 'Submit a contact-form inquiry',
          description:
            "Creates an inquiry and notifies the company's admin and support users. Supports `Idempotency-Key`. Callable from a web page with a publishable key (`ptc_pub_…`) from one of its allowed origins; then `altcha` is required (see `GET /spam-challenge`) and `website` is the honeypot.\n\n" +
            "The drop-in form (accessible, in the page's language, honeypot and proof of work built in):\n\n" +
            '```html\n<script src="https://portico.example.com/embed/contact.js" data-key="ptc_pub_key_…" data-topic="Web shop"></script>\n```\n\n' +
            'Or plain `fetch` from the page:\n\n' +
            "```js\nconst api = 'https://portico.example.com/api/v1/public';\nconst headers = { authorization: 'Bearer ptc_pub_key_…' };\nconst c = await (await fetch(`${api}/spam-challenge`, { headers })).json();\nconst hex = (b) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('');\nlet number = 0;\nwhile (hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(c.salt + number))) !== c.challenge) number++;\nconst res = await fetch(`${api}/reach-out`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' },\n  body: JSON.stringify({ topic, subject, message, email, phone, altcha: btoa(JSON.stringify({ ...c, number })) }) });\nif (res.status === 400) showErrors((await res.json()).details); // { email: ['…'] }\n```",
          security: [{ apiKey: [] }],
          headers: Type.Object({
            'idempotency-key': Type.Optional(
              Type.String({ description: 'Retry safely: the same key and body within 24 h return the first result.' }),
            ),
          }),
          body: ReachOutBody,
          response: { 201: Data(InquiryCreated), ...errorResponses(400, 409, 413, 415, 422) },
        },
      },
      async (request, reply) => {
        const { website, altcha, captchaToken, ...fields } = request.body;
        // A filled honeypot is answered like a success: a bot learns nothing, nothing is kept.
        if (honeypotFilled(website)) return reply.status(201).send(present(c.inquiries.decoy(request.caller, fields)));
        const publishable = request.caller.kind === 'publishable';
        const inquiry = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () =>
            c.inquiries.receive(request.caller, fields, {
              publishable,
              remoteIp: request.ip,
              ...(altcha ? { altcha } : {}),
              ...(captchaToken ? { captchaToken } : {}),
            }),
          (id) => c.inquiries.get(request.caller.companyId, id),
        );
        return reply.status(201).send(present(inquiry));
      },
    );

    app.get(
      '/spam-challenge',
      {
        config: { browser: true },
        schema: {
          tags: ['Public'],
          operationId: 'getSpamChallenge',
          summary: 'A proof-of-work challenge (ALTCHA) for one contact-form inquiry',
          description:
            'Self-hosted ALTCHA: solve it in the browser (the ALTCHA widget, or `/embed/contact.js`, which does it for you) and send the payload as `altcha` with `POST /reach-out`. Each solution is accepted once, within 10 minutes.',
          security: [{ apiKey: [] }],
          response: { 200: Challenge, ...errorResponses(403) },
        },
      },
      async (request, reply) =>
        reply.header('cache-control', 'no-store').send(await c.inquiries.challenge(request.caller.companyId)),
    );
  };
