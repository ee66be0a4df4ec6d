import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../../container.ts';
import type { Inquiry } from '../../../modules/inquiries/index.ts';
import { idempotentCreate } from '../../idempotency.ts';
import { Data, Email, Id, Nullable, Phone, Text, Timestamp, errorResponses } from '../../schemas.ts';

export const ReachOutBody = Type.Object(
  {
    topic: Text(200, { examples: ['Product question'] }),
    subject: Text(200, { examples: ['Is Boja za drvo available in 5 L?'] }),
    message: Text(5000, { examples: ['Hello, I would like to know…'] }),
    email: Email,
    phone: Phone,
    name: Type.Optional(Text(200, { examples: ['Ana Kovač'] })),
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
  },
  { additionalProperties: false },
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
        schema: {
          tags: ['Public'],
          operationId: 'createInquiry',
          summary: 'Submit a contact-form inquiry',
          description:
            "Creates an inquiry and notifies the company's admin and support users. Supports `Idempotency-Key`.",
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
        const inquiry = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () => c.inquiries.create(request.caller, request.body),
          (id) => c.inquiries.get(request.caller.companyId, id),
        );
        return reply.status(201).send(present(inquiry));
      },
    );
  };
