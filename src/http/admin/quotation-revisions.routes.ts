import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, MoneyOf, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { Quotation } from '../public/v1/quotes.routes.ts';
import { FormatQuery, PdfOrJson, reservePrint, sendPdf, wantsPdf } from '../pdf-reply.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const RevisionSummary = Type.Object(
  {
    revision: Type.Integer({ minimum: 1 }),
    number: Type.String({ examples: ['Q-ZG1-2026-00042'] }),
    createdAt: Timestamp,
    total: MoneyOf('Total with tax.'),
    replacedAt: Nullable(Timestamp),
    replacedBy: Nullable(Type.String({ description: 'The user whose revision replaced it.' })),
    current: Type.Boolean(),
  },
  { additionalProperties: false },
);

const RevisionDetail = Type.Object(
  {
    revision: Type.Integer({ minimum: 1 }),
    number: Type.String(),
    createdAt: Timestamp,
    lines: Type.Array(Quotation.properties.lines.items),
    totals: Quotation.properties.totals,
  },
  { additionalProperties: false },
);

const RevisionParams = Type.Object({ id: Type.String({ maxLength: 64 }), revision: Type.Integer({ minimum: 1 }) });

/** A quotation's earlier revisions, as they were sent. */
export const quotationRevisionsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/quotations/:id/revisions',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListQuotationRevisions',
          summary: 'Every revision of a quotation, the first first and the current one last',
          security,
          params: IdParams,
          response: { 200: Data(Type.Array(RevisionSummary)), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.quotations.revisions(request.admin.companyId, request.params.id) }),
    );

    app.get(
      '/quotations/:id/revisions/:revision',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetQuotationRevision',
          summary: 'An earlier revision as it was: JSON, or its PDF with `Accept: application/pdf` or `?format=pdf`',
          security,
          params: RevisionParams,
          querystring: FormatQuery,
          response: { 200: PdfOrJson('The revision.', Data(RevisionDetail)), ...errorResponses(404, 503) },
        },
      },
      async (request, reply) => {
        const { id, revision } = request.params;
        const companyId = request.admin.companyId;
        if (wantsPdf(request, request.query.format))
          return sendPdf(reply, await c.quotations.renderRevisionPdf(companyId, id, revision, reservePrint(c, reply)));
        const found = await c.quotations.revision(companyId, id, revision);
        return {
          data: {
            ...found,
            lines: found.lines.map(({ hasDatasheet: _h, ...line }) => line),
          },
        };
      },
    );
  };
