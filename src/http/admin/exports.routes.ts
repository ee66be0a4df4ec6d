import fs from 'node:fs';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import type { ArchiveJob } from '../../modules/reports/index.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { exportLocale } from '../export-reply.ts';
import { fileHeaders } from '../file-reply.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const ExportJob = Type.Object(
  {
    id: Type.String({ examples: ['exp_3b1f0c8e9d2a4c6b8e0f1a2b3c4d5e6f'] }),
    month: Type.String({ examples: ['2026-11'] }),
    status: Type.Union([Type.Literal('building'), Type.Literal('done'), Type.Literal('failed')]),
    done: Type.Integer({ description: 'Documents printed into the archive so far.' }),
    total: Type.Integer({ description: 'Documents the month holds.' }),
    bytes: Type.Integer({ description: "The archive's size once done." }),
    createdAt: Timestamp,
    finishedAt: Nullable(Timestamp),
    downloadUrl: Nullable(Type.String({ description: 'Where the zip is, once `done`.' })),
  },
  { additionalProperties: false },
);

const present = (job: ArchiveJob) => ({
  data: {
    id: job.id,
    month: job.month,
    status: job.status,
    done: job.done,
    total: job.total,
    bytes: job.bytes,
    createdAt: job.createdAt,
    finishedAt: job.finishedAt,
    downloadUrl: job.status === 'done' ? `/api/v1/admin/exports/${job.id}/download` : null,
  },
});

/** The accountant's month as one zip, built in the background: start, poll, download. */
export const exportsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/exports/month',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminStartMonthExport',
          summary: "Build the month's archive for the accountant",
          description:
            "A zip with every document (invoice, cancellation, credit note) issued in the month as its PDF, the VAT report and the book of issued invoices (CSV and XLSX, in the company's conventions), built in the background. Answers 202 with the job; poll `Location` until `status` is `done`, then fetch `downloadUrl`.",
          security,
          body: Type.Object(
            { month: Type.String({ pattern: '^\\d{4}-(0[1-9]|1[0-2])$', examples: ['2026-11'] }) },
            { additionalProperties: false },
          ),
          response: { 202: Data(ExportJob), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) => {
        const companyId = request.admin.companyId;
        const company = await c.reports.company(companyId);
        const job = c.monthArchives.start(companyId, request.body.month, exportLocale(undefined, company.locale));
        return reply.status(202).header('location', `/api/v1/admin/exports/${job.id}`).send(present(job));
      },
    );

    app.get(
      '/exports/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetExport',
          summary: "A month archive's progress",
          security,
          params: IdParams,
          response: { 200: Data(ExportJob), ...errorResponses(403, 404) },
        },
      },
      async (request) => present(c.monthArchives.find(request.admin.companyId, request.params.id)),
    );

    app.get(
      '/exports/:id/download',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDownloadExport',
          summary: 'The finished month archive (zip)',
          description: 'Streamed from disk; 409 while it is still being built.',
          security,
          params: IdParams,
          response: {
            200: {
              description: 'The zip.',
              content: { 'application/zip': { schema: Type.String({ format: 'binary' }) } },
            },
            ...errorResponses(403, 404, 409),
          },
        },
      },
      async (request, reply) => {
        const file = c.monthArchives.file(request.admin.companyId, request.params.id);
        return fileHeaders(reply, 'ours', file.name)
          .header('content-disposition', `attachment; filename="${file.name}"`)
          .type('application/zip')
          .send(fs.createReadStream(file.path));
      },
    );
  };
