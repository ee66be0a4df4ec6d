import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Container } from '../../../container.ts';
import type { PrintSlot } from '../../../modules/printing/index.ts';
import type { QuotationView } from '../../../modules/quotations/index.ts';
import { idempotentCreate } from '../../idempotency.ts';
import { Data, Email, Id, Nullable, Phone, Timestamp, errorResponses, Name } from '../../schemas.ts';
import { LineOutput, Lines, TotalsOutput, toLineRequests } from './lines.schema.ts';
import { baseUrl } from '../../base-url.ts';
import { FormatQuery, reservePrint, sendPdf, wantsPdf } from '../../pdf-reply.ts';

export const QuoteBody = Type.Object(
  {
    format: Type.Optional(
      Type.Union([Type.Literal('pdf'), Type.Literal('json')], {
        default: 'pdf',
        description: 'Response form; `pdf` by default.',
      }),
    ),
    includeDatasheets: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "Append the quoted products' datasheets to the PDF, each once, in the order the products first appear; with `json`, lines carry `datasheetUrl` instead. A PDF appends at most the server's `QUOTE_DATASHEETS_MAX_BYTES` of datasheets in total (20 MiB by default): past that a PDF request is a 400 naming `includeDatasheets` and nothing is created; leave it out, or use `json` for links.",
      }),
    ),
    expiresAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "Must be in the future; defaults to the company's validity period (30 days).",
      }),
    ),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
    customer: Type.Object(
      {
        name: Name(200, { examples: ['Ana Kovač'] }),
        email: Type.Optional(Email),
        phone: Type.Optional(Phone),
      },
      {
        additionalProperties: false,
        description: 'Stored as a placeholder customer until the hub assigns a directory customer.',
      },
    ),
    lines: Lines,
  },
  { additionalProperties: false },
);

/**
 * Shown by the admin API only. The directory is the company's back office: a website's key never
 * wrote it and has no way to read it, and a wrong assignment would show a stranger's name to
 * whoever holds the document's id.
 */
export const DirectoryCustomer = Type.Union(
  [Type.Object({ id: Id('cus'), name: Type.String() }, { additionalProperties: false }), Type.Null()],
  {
    description:
      'Admin API only (never in the public API): the directory customer assigned in the hub, with its current name; null until one is. `customer` stays the placeholder as it arrived.',
  },
);

export const Quotation = Type.Object(
  {
    id: Id('qt'),
    number: Type.String({ examples: ['Q-ZG1-2026-00042'] }),
    status: Type.String({ examples: ['approved'] }),
    locationId: Type.String(),
    createdAt: Timestamp,
    expiresAt: Timestamp,
    note: Nullable(Type.String()),
    customer: Type.Object(
      { name: Type.String(), email: Nullable(Type.String()), phone: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    directoryCustomer: Type.Optional(DirectoryCustomer),
    currency: Type.String({ examples: ['EUR'] }),
    lines: Type.Array(LineOutput),
    totals: TotalsOutput,
  },
  { additionalProperties: false, $id: 'Quotation' },
);

const PdfOrJson = (description: string) => ({
  description,
  content: {
    'application/pdf': { schema: Type.String({ format: 'binary' }) },
    'application/json': { schema: Data(Type.Ref('Quotation')) },
  },
});

export function presentQuotation(q: QuotationView, base: string) {
  return {
    data: {
      id: q.id,
      number: q.number,
      status: q.status,
      locationId: q.locationId,
      createdAt: q.createdAt,
      expiresAt: q.expiresAt,
      note: q.note,
      customer: q.customer,
      currency: q.currency,
      totals: q.totals,
      lines: q.lines.map(({ hasDatasheet, discountPercent, ...line }) => ({
        ...line,
        // Only a quotation staff made has discounts; the website's shape is otherwise as it was.
        ...(discountPercent === '0' ? {} : { discountPercent }),
        ...(q.includeDatasheets && hasDatasheet
          ? { datasheetUrl: `${base}/api/v1/public/products/${line.productId}/datasheet` }
          : {}),
      })),
    },
  };
}

/** The admin API's quotation: the public one and the directory customer assigned to it. */
export function presentAdminQuotation(q: QuotationView, base: string) {
  const data = presentQuotation(q, base).data;
  return {
    data: {
      ...data,
      directoryCustomer: q.directoryCustomer,
      lines: data.lines.map((line, i) => ({ ...line, discountPercent: q.lines[i]!.discountPercent })),
    },
  };
}

export const quotesRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    async function send(
      request: FastifyRequest,
      reply: FastifyReply,
      q: QuotationView,
      format: 'pdf' | 'json',
      status: number,
      slot?: PrintSlot,
    ) {
      reply.status(status).header('x-quotation-id', q.id).header('x-quotation-number', q.number);
      if (format === 'json') return reply.send(presentQuotation(q, baseUrl(c.config, request)));
      return sendPdf(
        reply,
        await c.quotations.renderPdf(request.caller.companyId, q.id, slot ?? reservePrint(c, reply)),
      );
    }

    app.post(
      '/quotes',
      {
        schema: {
          tags: ['Public'],
          operationId: 'createQuote',
          summary: 'Create an approved quotation, returned as PDF or JSON',
          description:
            "Prices, numbers and stores an approved quotation at the key's location and fires `quote.created`. Supports `Idempotency-Key`: a replay returns the same quotation (the same PDF bytes). Call it from your server with a secret key (a publishable key gets a 403); with a test key (`ptc_test_…`) the quotation is test data, numbered `T-Q-…`.\n\n" +
            'From a server in JavaScript, typed from this document (`npx openapi-typescript {base}/api/v1/public/openapi.json -o portico.d.ts`):\n\n' +
            "```ts\nimport createClient from 'openapi-fetch';\nimport type { paths } from './portico.d.ts';\nconst portico = createClient<paths>({ baseUrl: 'https://portico.example.com', headers: { authorization: `Bearer ${process.env.PORTICO_KEY}` } });\nconst { data, error } = await portico.POST('/api/v1/public/quotes', { body: { format: 'json', customer: { name: 'Ana Kovač' }, lines: [{ productId: 'prd_…', unitId: 'unt_…', quantity: 2 }] } });\n```\n\n" +
            'PHP and Python: see docs/websites.md in Portico’s repository (“Websites: publishable keys, spam protection, test mode”).',
          security: [{ apiKey: [] }],
          headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
          body: QuoteBody,
          response: {
            201: PdfOrJson('The quotation. Headers `Location`, `X-Quotation-Id`, `X-Quotation-Number`.'),
            ...errorResponses(400, 409, 413, 415, 422, 503),
          },
        },
      },
      async (request, reply) => {
        const { format = 'pdf', includeDatasheets = false, lines, ...rest } = request.body;
        // The print's place first: a full print pool answers 503 before a quotation is stored.
        const slot = format === 'pdf' ? reservePrint(c, reply) : undefined;
        const quotation = await idempotentCreate(
          request,
          reply,
          c.idempotency,
          () =>
            c.quotations.create(request.caller, { ...rest, format, includeDatasheets, lines: toLineRequests(lines) }),
          (id) => c.quotations.get(request.caller.companyId, id),
        );
        reply.header('location', `/api/v1/public/quotes/${quotation.id}`);
        return send(request, reply, quotation, format, 201, slot);
      },
    );

    app.get(
      '/quotes/:id',
      {
        schema: {
          tags: ['Public'],
          operationId: 'getQuote',
          summary: 'Read a quotation as JSON, or as PDF with `Accept: application/pdf` or `?format=pdf`',
          security: [{ apiKey: [] }],
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The quotation.'), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const quotation = await c.quotations.get(
          request.caller.companyId,
          request.params.id,
          request.caller.locationId,
          request.caller.mode,
        );
        return send(request, reply, quotation, wantsPdf(request, request.query.format) ? 'pdf' : 'json', 200);
      },
    );
  };
