import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';
import { Data, ProblemRef, errorResponses } from '../schemas.ts';
import { UnitBody, UnitPatch } from '../requests/catalog.ts';
import { Unit } from './catalog-products.routes.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const InUse = (why: string) => ({ 409: { ...ProblemRef, description: `Refused with code \`conflict\`: ${why}` } });

/** A product's units with their prices, and its datasheet. */
export const unitsAdminRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/products/:id/units',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminAddUnit',
          summary: 'Add a unit with its price to a product',
          security,
          params: IdParams,
          body: UnitBody,
          response: { 201: Data(Unit), ...errorResponses(400, 403, 404) },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send({ data: await c.catalogAdmin.addUnit(request.admin.companyId, request.params.id, request.body) }),
    );

    app.patch(
      '/units/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateUnit',
          summary: 'Rename a unit or change its price (existing quotations keep theirs)',
          security,
          params: IdParams,
          body: UnitPatch,
          response: { 200: Data(Unit), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: await c.catalogAdmin.updateUnit(request.admin.companyId, request.params.id, request.body),
      }),
    );

    app.delete(
      '/units/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminDeleteUnit',
          summary: "Remove a unit (not the product's last one)",
          security,
          params: IdParams,
          response: { 204: Type.Null(), ...errorResponses(403, 404), ...InUse("it is the product's last unit.") },
        },
      },
      async (request, reply) => {
        await c.catalogAdmin.deleteUnit(request.admin.companyId, request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.register(async (plain) => {
      const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
      uploads.addContentTypeParser(
        'application/pdf',
        { parseAs: 'buffer', bodyLimit: c.config.datasheetMaxBytes },
        (_request, body, done) => done(null, body),
      );
      uploads.put(
        '/products/:id/datasheet',
        {
          bodyLimit: c.config.datasheetMaxBytes,
          schema: {
            tags: ['Admin'],
            operationId: 'adminUploadDatasheet',
            summary: 'Upload a product datasheet (application/pdf body)',
            description:
              'A PDF with JavaScript, automatic or launch actions, or embedded files is refused (400 naming `file`).',
            security,
            params: IdParams,
            querystring: Type.Object(
              {
                filename: Type.Optional(
                  Type.String({
                    maxLength: 200,
                    description: 'Accepted and ignored: a datasheet is served as `{sku or product id}.pdf`.',
                  }),
                ),
              },
              { additionalProperties: false },
            ),
            response: { 204: Type.Null(), ...errorResponses(400, 403, 404, 413, 415) },
          },
        },
        async (request, reply) => {
          // The JSON parser is inherited from the root, so a JSON body arrives here as an object, not bytes.
          if (!Buffer.isBuffer(request.body))
            throw new AppError('unsupported_media_type', said('error.datasheet.rawBody'));
          await c.catalogAdmin.setDatasheet(
            request.admin.companyId,
            request.params.id,
            { bytes: request.body },
            c.config.datasheetMaxBytes,
          );
          return reply.status(204).send(null);
        },
      );
    });
  };
