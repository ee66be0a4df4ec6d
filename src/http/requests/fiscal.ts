import { Type } from 'typebox';

/** A FINA application certificate: the admin API's body and the hub's upload, once read. */
export const FiscalCertificateBody = Type.Object(
  {
    p12: Type.String({
      minLength: 1,
      maxLength: 200_000,
      description: 'The .p12 (PKCS#12) file FINA issued, base64-encoded.',
    }),
    password: Type.String({ maxLength: 200, description: "The file's password." }),
  },
  { additionalProperties: false },
);

/** A German company's cloud TSE account (fiskaly SIGN DE): the key and secret from its HUB. */
export const TseAccountBody = Type.Object(
  {
    provider: Type.String({ maxLength: 32, examples: ['fiskaly'], description: 'Only `fiskaly` (SIGN DE v2) so far.' }),
    apiKey: Type.String({ maxLength: 200 }),
    apiSecret: Type.String({ maxLength: 500, description: 'Stored sealed; never returned.' }),
    baseUrl: Type.Optional(
      Type.String({
        maxLength: 300,
        description:
          'Default `https://kassensichv.fiskaly.com`; the sandbox is `https://kassensichv-middleware.fiskaly.com`.',
      }),
    ),
  },
  { additionalProperties: false },
);
