import { X509Certificate, type KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { REQUEST_ID } from './racun-request.ts';

/** The company's FINA application certificate in the form signing needs. */
export interface SigningCredentials {
  privateKey: KeyObject;
  certificatePem: string;
}

const DSIG = {
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  enveloped: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
};

const REQUEST_XPATH = `//*[local-name(.)='${REQUEST_ID}']`;

/**
 * Signs the request element enveloped (specification chapter 7): exclusive c14n, the Reference
 * to `#RacunZahtjev`, KeyInfo with the certificate and its issuer and serial. RSA-SHA256 and
 * SHA-256 digests rather than v2.5's SHA-1: CIS accepts them since May 2026 and refuses SHA-1
 * from 2027 (the research notes, section 0).
 */
// Parsing the certificate for its DER, issuer and serial once per certificate, not per message.
const parsed = new Map<string, X509Certificate>();
function certificateOf(pem: string): X509Certificate {
  let certificate = parsed.get(pem);
  if (!certificate) {
    if (parsed.size >= 1_000) parsed.clear(); // a bound: replaced certificates fall out
    certificate = new X509Certificate(pem);
    parsed.set(pem, certificate);
  }
  return certificate;
}

export function signRequest(envelopeXml: string, credentials: SigningCredentials): string {
  const certificate = certificateOf(credentials.certificatePem);
  const der = certificate.raw.toString('base64');
  const signer = new SignedXml({
    privateKey: credentials.privateKey,
    publicCert: credentials.certificatePem,
    signatureAlgorithm: DSIG.rsaSha256,
    canonicalizationAlgorithm: DSIG.excC14n,
    getKeyInfoContent: (args) => {
      const p = args?.prefix ? `${args.prefix}:` : '';
      return (
        `<${p}X509Data><${p}X509Certificate>${der}</${p}X509Certificate>` +
        `<${p}X509IssuerSerial><${p}X509IssuerName>${xmlText(issuerName(certificate))}</${p}X509IssuerName>` +
        `<${p}X509SerialNumber>${BigInt(`0x${certificate.serialNumber}`).toString()}</${p}X509SerialNumber>` +
        `</${p}X509IssuerSerial></${p}X509Data>`
      );
    },
  });
  signer.addReference({
    xpath: REQUEST_XPATH,
    transforms: [DSIG.enveloped, DSIG.excC14n],
    digestAlgorithm: DSIG.sha256,
  });
  signer.computeSignature(envelopeXml, { location: { reference: REQUEST_XPATH, action: 'append' } });
  return signer.getSignedXml();
}

/** RFC 2253 order (most specific first), as XML-DSig's X509IssuerName expects. */
function issuerName(certificate: X509Certificate): string {
  return certificate.issuer
    .split('\n')
    .reverse()
    .map((rdn) => rdn.replace(/,/g, '\\,'))
    .join(',');
}

const xmlText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
