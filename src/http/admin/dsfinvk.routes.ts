import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { errorResponses } from '../schemas.ts';
import { fileHeaders } from '../file-reply.ts';

const Day = (description: string) => Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10, description });

/** Germany: the DSFinV-K export of one device (Kasse) for a period, for a tax audit. */
export const dsfinvkRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/exports/dsfinvk',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminExportDsfinvk',
          summary: "Germany: the DSFinV-K export of a device for a period (zip: CSVs, index.xml, the TSE's TAR export)",
          description:
            'DSFinV-K v2.4: the Einzelaufzeichnung (Bonkopf, Bonpos, their VAT and payments, TSE transactions, references), ' +
            "the Stammdaten and the Kassenabschluss per business day, described by `index.xml`, and the TSE's own export " +
            "(`tse/<serial>.tar`) fetched from the TSE. `from` and `to` are calendar days in the company's time zone, both included.",
          security: [{ adminToken: [] }],
          querystring: Type.Object(
            { from: Day('First day.'), to: Day('Last day (included).'), locationId: Type.String({ maxLength: 64 }) },
            { additionalProperties: false },
          ),
          response: {
            200: {
              description: 'The zip.',
              content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } },
            },
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request, reply) => {
        const zip = await c.dsfinvk.build(request.admin.companyId, request.query);
        const { from, to } = request.query;
        const name = `dsfinvk-${from}-${to}.zip`;
        return fileHeaders(reply, 'ours', name)
          .header('content-disposition', `attachment; filename="${name}"`)
          .type('application/zip')
          .send(zip);
      },
    );
  };
