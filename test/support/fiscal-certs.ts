import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import forge from 'node-forge';

/**
 * Certificates for fiscalisation tests, made here: a test CA standing in for FINA's and for the
 * CIS server's, the fake CIS's server certificate for 127.0.0.1, and FINA-like application
 * certificates (OIB in the organisation name) with any validity.
 */
export interface Issued {
  keyPem: string;
  certPem: string;
}

const DAY = 86_400_000;

function rsaKey(): { privateKey: string; publicKey: string } {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
}

function issue(opts: {
  subject: forge.pki.CertificateField[];
  issuer: Issued | null;
  notBefore: Date;
  notAfter: Date;
  ca?: boolean;
  ip?: string;
}): Issued {
  const key = rsaKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(key.publicKey);
  cert.serialNumber = `01${randomBytes(8).toString('hex')}`;
  cert.validity.notBefore = opts.notBefore;
  cert.validity.notAfter = opts.notAfter;
  cert.setSubject(opts.subject);
  cert.setIssuer(opts.issuer ? forge.pki.certificateFromPem(opts.issuer.certPem).subject.attributes : opts.subject);
  const extensions: object[] = [{ name: 'basicConstraints', cA: opts.ca === true }];
  if (opts.ca) extensions.push({ name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true });
  else extensions.push({ name: 'keyUsage', digitalSignature: true, keyEncipherment: true });
  if (opts.ip) extensions.push({ name: 'subjectAltName', altNames: [{ type: 7, ip: opts.ip }] });
  cert.setExtensions(extensions);
  const signer = forge.pki.privateKeyFromPem(opts.issuer ? opts.issuer.keyPem : key.privateKey);
  cert.sign(signer as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return { keyPem: key.privateKey, certPem: forge.pki.certificateToPem(cert) };
}

export function testCa(): Issued {
  const now = Date.now();
  return issue({
    subject: [{ shortName: 'CN', value: 'Portico Test CA' }],
    issuer: null,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 365 * DAY),
    ca: true,
  });
}

export function serverCertificate(ca: Issued): Issued {
  const now = Date.now();
  return issue({
    subject: [{ shortName: 'CN', value: '127.0.0.1' }],
    issuer: ca,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 30 * DAY),
    ip: '127.0.0.1',
  });
}

/**
 * CIS's own application certificate, which signs its answers (`fiskalcistest` on APIS IT's test
 * service, `fiskalcis` in production): issued by `ca`, or self-signed when `ca` is null (a forger's).
 */
export function cisSignerCertificate(ca: Issued | null): Issued {
  const now = Date.now();
  return issue({
    subject: [
      { shortName: 'C', value: 'HR' },
      { shortName: 'O', value: 'POREZNA UPRAVA' },
      { shortName: 'CN', value: 'fiskalcistest' },
    ],
    issuer: ca,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + 30 * DAY),
  });
}

/** A FINA-like application certificate for `oib`, valid from `fromDays` to `toDays` around now. */
export function fiscalCertificate(ca: Issued, oib: string, opts: { fromDays?: number; toDays?: number } = {}): Issued {
  const now = Date.now();
  return issue({
    subject: [
      { shortName: 'C', value: 'HR' },
      { shortName: 'O', value: `TEST SHOP D.O.O. HR${oib}` },
      { shortName: 'L', value: 'ZAGREB' },
      { shortName: 'CN', value: 'FISKAL 1' },
    ],
    issuer: ca,
    notBefore: new Date(now + (opts.fromDays ?? -1) * DAY),
    notAfter: new Date(now + (opts.toDays ?? 365) * DAY),
  });
}

/** The PKCS#12 file as FINA's older tools write it (3DES, SHA-1 MAC), base64. */
export function p12Base64(issued: Issued, password: string, ca?: Issued): string {
  const chain = [forge.pki.certificateFromPem(issued.certPem)];
  if (ca) chain.push(forge.pki.certificateFromPem(ca.certPem));
  const asn1 = forge.pkcs12.toPkcs12Asn1(forge.pki.privateKeyFromPem(issued.keyPem), chain, password, {
    algorithm: '3des',
    friendlyName: 'fiskal',
  });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary').toString('base64');
}

/** The same file as today's `openssl pkcs12 -export` writes it (AES-256, PBKDF2, SHA-256 MAC), base64. */
export function opensslP12Base64(issued: Issued, password: string, dir: string): string {
  const key = path.join(dir, 'p12-key.pem');
  const cert = path.join(dir, 'p12-cert.pem');
  const out = path.join(dir, 'fiscal.p12');
  fs.writeFileSync(key, issued.keyPem, { mode: 0o600 });
  fs.writeFileSync(cert, issued.certPem);
  execFileSync('openssl', [
    'pkcs12',
    '-export',
    '-inkey',
    key,
    '-in',
    cert,
    '-out',
    out,
    '-passout',
    `pass:${password}`,
  ]);
  return fs.readFileSync(out).toString('base64');
}
