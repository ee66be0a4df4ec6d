import { createPrivateKey, X509Certificate } from 'node:crypto';
import forge from 'node-forge';
import { oibOf } from './cis-format.ts';

/** A FINA application certificate read from its PKCS#12 file. */
export interface FiscalCertificate {
  privateKeyPem: string;
  certificatePem: string;
  subject: string;
  /** The OIB the certificate was issued to, or null when its subject names none. */
  oib: string | null;
  notBefore: Date;
  expiresAt: Date;
}

export type Pkcs12Problem = 'unreadable' | 'wrong_password' | 'no_key_pair';

export class Pkcs12Error extends Error {
  override name = 'Pkcs12Error';
  readonly problem: Pkcs12Problem;
  constructor(problem: Pkcs12Problem, message: string) {
    super(message);
    this.problem = problem;
  }
}

/**
 * Opens a .p12 with its password. Node's crypto reads keys and certificates but not PKCS#12
 * containers, so node-forge (pure JavaScript, the most used PKCS#12 reader on npm, maintained
 * by Digital Bazaar) opens the container; everything after is Node's own crypto.
 */
export function readPkcs12(p12: Buffer, password: string): FiscalCertificate {
  let container: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(p12.toString('binary')));
    container = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/invalid password/i.test(message))
      throw new Pkcs12Error('wrong_password', 'The password does not open this file.');
    throw new Pkcs12Error('unreadable', 'This is not a PKCS#12 (.p12) file that can be read.');
  }
  const bagsOf = (type: string | undefined) => (type ? (container.getBags({ bagType: type })[type] ?? []) : []);
  const { pkcs8ShroudedKeyBag, keyBag, certBag } = forge.pki.oids;
  const keys = [...bagsOf(pkcs8ShroudedKeyBag), ...bagsOf(keyBag)].flatMap((bag) =>
    bag.key ? [forge.pki.privateKeyToPem(bag.key)] : [],
  );
  const certificates = bagsOf(certBag).flatMap((bag) => (bag.cert ? [forge.pki.certificateToPem(bag.cert)] : []));
  // The file may hold the issuing CAs too: the certificate wanted is the one of the private key.
  for (const keyPem of keys) {
    const key = createPrivateKey(keyPem);
    for (const certificatePem of certificates) {
      const certificate = new X509Certificate(certificatePem);
      if (!certificate.checkPrivateKey(key)) continue;
      return {
        privateKeyPem: key.export({ type: 'pkcs8', format: 'pem' }) as string,
        certificatePem,
        subject: certificate.subject.split('\n').reverse().join(', '),
        oib: subjectOib(certificate.subject),
        notBefore: new Date(certificate.validFrom),
        expiresAt: new Date(certificate.validTo),
      };
    }
  }
  throw new Pkcs12Error('no_key_pair', 'The file holds no RSA private key with its certificate.');
}

/**
 * FINA writes the holder's OIB into the subject, in the organisation name (`… HR12345678903`)
 * or an organisationIdentifier (`VATHR-12345678903`); any attribute naming one 11-digit number counts.
 */
function subjectOib(subject: string): string | null {
  for (const line of subject.split('\n')) {
    const value = line.slice(line.indexOf('=') + 1);
    const match = /(?:^|[^0-9])(?:VATHR-|HR)?(\d{11})(?![0-9])/.exec(value);
    if (match) return oibOf(match[1]);
  }
  return null;
}
