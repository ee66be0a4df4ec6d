import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { LOGO_MAX_BYTES } from '../../modules/companies/index.ts';
import { said } from '../request-messages.ts';
import { errorResponses } from '../schemas.ts';

/** The print template's logo: a PNG or JPEG body, or none. Admins (settings). */
export const logoRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];
    app.delete(
      '/settings/logo',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminRemoveLogo',
          summary: 'Print no logo on documents issued from now on',
          security,
          response: { 204: Type.Null(), ...errorResponses(403) },
        },
      },
      async (request, reply) => {
        await c.companies.removeLogo(request.admin.companyId);
        return reply.status(204).send(null);
      },
    );

    app.register(async (plain) => {
      const uploads = plain.withTypeProvider<TypeBoxTypeProvider>();
      uploads.addContentTypeParser(
        'image/png',
        { parseAs: 'buffer', bodyLimit: LOGO_MAX_BYTES },
        (_request, body, done) => done(null, body),
      );
      uploads.put(
        '/settings/logo',
        {
          bodyLimit: LOGO_MAX_BYTES,
          schema: {
            tags: ['Admin'],
            operationId: 'adminSetLogo',
            summary: "The print template's logo (an image/png body, at most 256 KiB)",
            description:
              'Printed above the company name on every document issued from now on (A4 and 80 mm); a document issued before keeps the logo it was issued with. 400 naming `logo` when the body is not a PNG.',
            security,
            response: { 204: Type.Null(), ...errorResponses(400, 403, 413, 415) },
          },
        },
        async (request, reply) => {
          // The JSON parser is inherited from the root, so a JSON body arrives here as an object, not bytes.
          if (!Buffer.isBuffer(request.body)) throw new AppError('unsupported_media_type', said('error.logo.form'));
          await c.companies.setLogo(request.admin.companyId, request.body);
          return reply.status(204).send(null);
        },
      );
    });
  };
