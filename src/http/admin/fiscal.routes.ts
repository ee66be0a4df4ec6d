import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Nullable, Timestamp, errorResponses } from '../schemas.ts';
import { FiscalCertificateBody, TseAccountBody } from '../requests/fiscal.ts';

const CertificateInfo = Type.Object(
  { subject: Type.String(), oib: Type.String(), expiresAt: Timestamp },
  { additionalProperties: false },
);

const TseDevice = Type.Object(
  {
    locationId: Type.String(),
    tssId: Type.String(),
    clientId: Type.String(),
    tssSerial: Type.String({ description: "The TSE's serial number (for the ELSTER notification)." }),
    clientSerial: Type.String({ description: "The record system's (Kasse's) serial number." }),
    algorithm: Type.String(),
    timeFormat: Type.String(),
    publicKey: Type.String(),
    createdAt: Timestamp,
  },
  { additionalProperties: false },
);

const TseSettings = Type.Object(
  {
    provider: Type.Literal('fiskaly'),
    apiKeyHint: Type.String({ description: "The API key's last four characters; the secret is never returned." }),
    baseUrl: Type.String(),
    devices: Type.Array(TseDevice),
    failed: Type.Array(
      Type.Object(
        { id: Type.String(), documentId: Nullable(Type.String()), at: Timestamp, error: Nullable(Type.String()) },
        { additionalProperties: false },
      ),
      { description: 'Counter transactions the TSE did not sign ("TSE ausgefallen"), oldest first (at most 20).' },
    ),
  },
  { additionalProperties: false, description: 'Germany: the cloud TSE (KassenSichV); null when none is set up.' },
);

const FiscalSettings = Type.Object(
  {
    tse: Nullable(TseSettings),
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
        const [settings, unfiscalised, tse] = await Promise.all([
          c.fiscalSettings.get(companyId),
          c.fiscalSettings.unfiscalised(companyId),
          c.tseSettings.get(companyId),
        ]);
        return { data: { ...settings, unfiscalised, tse } };
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

    app.put(
      '/fiscal/tse',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminSaveTseAccount',
          summary:
            "Germany: store the cloud TSE account (fiskaly SIGN DE); the key and secret are checked with the TSE's auth first",
          security,
          body: TseAccountBody,
          response: { 200: Data(TseSettings), ...errorResponses(400, 403) },
        },
      },
      async (request) => ({ data: await c.tseSettings.saveAccount(request.admin.companyId, request.body) }),
    );

    app.post(
      '/locations/:id/tse',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminSetUpLocationTse',
          summary: "Germany: create and initialise a TSS for this location's device (Kasse) and register its client",
          security,
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 201: Data(TseDevice), ...errorResponses(403, 404, 409) },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ data: await c.tseSettings.setUpDevice(request.admin.companyId, request.params.id) }),
    );
  };
