import { createHash, sign, X509Certificate, type KeyObject } from 'node:crypto';
import { REQUEST_ID } from './racun-request.ts';
import { issuerRfc2253 } from './x509-name.ts';

/** The company's FINA application certificate in the form signing needs. */
export interface SigningCredentials {
  privateKey: KeyObject;
  certificatePem: string;
}

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const ALGORITHM = {
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  enveloped: `${DSIG_NS}enveloped-signature`,
};

/**
 * Signs the request element enveloped (specification chapter 7): exclusive c14n, the Reference
 * to `#RacunZahtjev`, KeyInfo with the certificate and its issuer and serial. RSA-SHA256 and
 * SHA-256 digests rather than v2.5's SHA-1: CIS accepts them since May 2026 and refuses SHA-1
 * from 2027 (the research notes, section 0).
 *
 * Without a DOM: `racunEnvelope` writes the request element in its exclusive-c14n form already
 * (its namespace declared on it before its one attribute, text escaped as c14n escapes it, no
 * empty-element tags), so the enveloped digest is the SHA-256 of that text as it stands, and
 * SignedInfo is written in canonical form here. This is byte for byte what xml-crypto makes of
 * the same envelope, at a fifth of the cost (parsing, XPath and canonicalising in JavaScript
 * were most of a receipt's fiscal CPU); `xml-signature.test.ts` holds the two equal over random
 * receipts, and the fake CIS verifies every signature with xml-crypto.
 */
export function signRequest(envelopeXml: string, credentials: SigningCredentials, id: string = REQUEST_ID): string {
  const open = `<tns:${id} `;
  const close = `</tns:${id}>`;
  const start = envelopeXml.indexOf(open);
  const end = envelopeXml.lastIndexOf(close);
  if (start < 0 || end < start) throw new Error(`no ${id} element to sign`);
  const element = envelopeXml.slice(start, end + close.length);
  const digest = createHash('sha256').update(element, 'utf8').digest('base64');

  const signedInfo = (tag: (name: string, algorithm: string) => string) =>
    `${tag('CanonicalizationMethod', ALGORITHM.excC14n)}${tag('SignatureMethod', ALGORITHM.rsaSha256)}` +
    `<Reference URI="#${id}"><Transforms>${tag('Transform', ALGORITHM.enveloped)}${tag('Transform', ALGORITHM.excC14n)}</Transforms>` +
    `${tag('DigestMethod', ALGORITHM.sha256)}<DigestValue>${digest}</DigestValue></Reference>`;
  // What is signed: SignedInfo canonicalised (its namespace declared, no empty-element tags) ...
  const canonical = `<SignedInfo xmlns="${DSIG_NS}">${signedInfo((n, a) => `<${n} Algorithm="${a}"></${n}>`)}</SignedInfo>`;
  const value = sign('sha256', Buffer.from(canonical, 'utf8'), credentials.privateKey).toString('base64');
  // ... what is sent: the same SignedInfo in the Signature element, which declares the namespace.
  const signature =
    `<Signature xmlns="${DSIG_NS}"><SignedInfo>${signedInfo((n, a) => `<${n} Algorithm="${a}"/>`)}</SignedInfo>` +
    `<SignatureValue>${value}</SignatureValue><KeyInfo>${keyInfo(credentials.certificatePem)}</KeyInfo></Signature>`;
  return `${envelopeXml.slice(0, end)}${signature}${envelopeXml.slice(end)}`;
}

// The certificate's DER, issuer and serial as KeyInfo, once per certificate, not per message.
const keyInfos = new Map<string, string>();
function keyInfo(pem: string): string {
  let made = keyInfos.get(pem);
  if (!made) {
    const certificate = new X509Certificate(pem);
    made =
      `<X509Data><X509Certificate>${certificate.raw.toString('base64')}</X509Certificate>` +
      `<X509IssuerSerial><X509IssuerName>${xmlText(issuerName(certificate))}</X509IssuerName>` +
      `<X509SerialNumber>${BigInt(`0x${certificate.serialNumber}`).toString()}</X509SerialNumber>` +
      `</X509IssuerSerial></X509Data>`;
    if (keyInfos.size >= 1_000) keyInfos.clear(); // a bound: replaced certificates fall out
    keyInfos.set(pem, made);
  }
  return made;
}

/** RFC 2253, as XML-DSig's X509IssuerName expects (x509-name.ts): escaped once, then XML-escaped as any text. */
function issuerName(certificate: X509Certificate): string {
  return issuerRfc2253(certificate.raw);
}

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
