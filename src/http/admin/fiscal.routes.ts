import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { FiscalCertificateBody } from '../requests/fiscal.ts';

const CertificateInfo = Type.Object(
  { subject: Type.String(), oib: Type.String(), expiresAt: Timestamp },
  { additionalProperties: false },
);

const FiscalSettings = Type.Object(
  {
    configured: Type.Boolean({ description: 'Invoices are fiscalised: a certificate is stored.' }),
    certificate: Nullable(CertificateInfo),
    warning: Nullable(Type.String({ description: 'Within 30 days of expiry, and after.' })),
    endpoint: Type.String({ description: 'The CIS endpoint this deployment sends to (FISCAL_CIS_URL).' }),
    unfiscalised: Type.Array(
      Type.Object(
        {
          documentId: Type.String(),
          issuedAt: Timestamp,
          status: Type.Union([Type.Literal('pending'), Type.Literal('rejected')]),
          attempts: Type.Integer(),
          error: Nullable(Type.String()),
        },
        { additionalProperties: false },
      ),
      { description: 'Documents still without a JIR, oldest first (at most 20).' },
    ),
  },
  { additionalProperties: false },
);

/** Croatian fiscalisation settings: the FINA certificate and the echo test. Admins only. */
export const fiscalRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/fiscal',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetFiscalSettings',
          summary: 'Fiscalisation: the certificate (never its key), its expiry, documents waiting for a JIR',
          security,
          response: { 200: Data(FiscalSettings), ...errorResponses(403) },
        },
      },
      async (request) => {
        const companyId = request.admin.companyId;
        const [settings, unfiscalised] = await Promise.all([
          c.fiscalSettings.get(companyId),
          c.fiscalSettings.unfiscalised(companyId),
        ]);
        return { data: { ...settings, unfiscalised } };
      },
    );

    app.put(
      '/fiscal/certificate',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUploadFiscalCertificate',
          summary:
            "Store the FINA application certificate (.p12): its password, its OIB against the company's and its dates are checked",
          security,
          body: FiscalCertificateBody,
          response: { 200: Data(CertificateInfo), ...errorResponses(400, 403) },
        },
      },
      async (request) => ({
        data: await c.fiscalSettings.uploadCertificate(request.admin.companyId, request.body),
      }),
    );

    app.post(
      '/fiscal/check',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCheckFiscal',
          summary: "Test the connection to CIS with the specification's echo",
          security,
          response: {
            200: Data(
              Type.Object(
                { ok: Type.Boolean(), endpoint: Type.String(), millis: Type.Integer(), message: Type.String() },
                { additionalProperties: false },
              ),
            ),
            ...errorResponses(403),
          },
        },
      },
      async () => ({ data: await c.fiscalSettings.check() }),
    );
  };
