import { createPrivateKey } from 'node:crypto';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { FiscalCertificate } from './certificate.ts';
import type { FiscalCertificateRow } from './fiscal.repository.ts';
import type { SigningCredentials } from './xml-signature.ts';

/**
 * Seals a certificate for storage and opens it for signing. Opening (AES-GCM, then parsing the
 * key) happens once per stored value: every receipt of a company signs with the same key.
 */
export function createFiscalCredentials(secretBox: SecretBox) {
  const opened = new Map<string, SigningCredentials>();
  return {
    seal(certificate: FiscalCertificate): string {
      return secretBox.seal(
        JSON.stringify({ key: certificate.privateKeyPem, certificate: certificate.certificatePem }),
      );
    },
    open(row: Pick<FiscalCertificateRow, 'sealed'>): SigningCredentials {
      const known = opened.get(row.sealed);
      if (known) return known;
      const { key, certificate } = JSON.parse(secretBox.open(row.sealed)) as { key: string; certificate: string };
      const credentials = { privateKey: createPrivateKey(key), certificatePem: certificate };
      if (opened.size >= 1_000) opened.clear(); // a bound, not a policy: replaced certificates fall out
      opened.set(row.sealed, credentials);
      return credentials;
    },
  };
}
export type FiscalCredentials = ReturnType<typeof createFiscalCredentials>;
