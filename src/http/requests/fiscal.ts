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
