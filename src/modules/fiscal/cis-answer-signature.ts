import { X509Certificate } from 'node:crypto';
import { DOMParser, XMLSerializer, type Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { CIS_NS } from './racun-request.ts';

const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** What an answer's check came to: the signed answer element's text, or why it is not trusted. */
export type VerifiedAnswer = { ok: true; xml: string } | { ok: false; reason: string };

/**
 * Checks a CIS answer's XML signature (specification v2.6 §2.1.5 and chapter 7: CIS signs every
 * answer with its application certificate `fiskalcis`, `fiskalcistest` on the test service, and
 * the issuer "provjerava elektronički potpis"): the certificate in its KeyInfo must be issued by
 * one of the trusted CAs (when any are configured), valid now and named fiskalcis; the signature must verify; and what is
 * read afterwards is only what the signature covers (the referenced answer element, as
 * xml-crypto canonicalised it), so a second, unsigned answer beside a signed one is never read.
 */
export function createAnswerVerifier(opts: {
  trustedCaPem: string | null;
  now: () => Date;
  onUnanchored?: () => void;
}) {
  const anchors = opts.trustedCaPem ? splitPem(opts.trustedCaPem).map((pem) => new X509Certificate(pem)) : [];
  if (anchors.length === 0) opts.onUnanchored?.();

  return function verify(body: string, answerName: string): VerifiedAnswer {
    let answer: Element | null;
    try {
      const doc = new DOMParser({ onError: () => {} }).parseFromString(body, 'text/xml');
      answer = doc.getElementsByTagNameNS(CIS_NS, answerName).item(0);
    } catch {
      return { ok: false, reason: 'not XML' };
    }
    if (!answer) return { ok: false, reason: `no ${answerName}` };
    const signatures = answer.getElementsByTagNameNS(DSIG_NS, 'Signature');
    if (signatures.length !== 1) return { ok: false, reason: 'answer not signed' };
    const signature = signatures.item(0)!;
    const der = signature.getElementsByTagNameNS(DSIG_NS, 'X509Certificate').item(0)?.textContent?.replace(/\s+/g, '');
    if (!der) return { ok: false, reason: 'no certificate in the answer signature' };
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(Buffer.from(der, 'base64'));
    } catch {
      return { ok: false, reason: 'unreadable certificate in the answer signature' };
    }
    // With no CA configured the chain is not checked (the TLS connection to CIS already is; the
    // server warns at start), but the answer must still be signed, whole, by a fiskalcis
    // certificate: refusing every answer would leave every receipt of a shop without its JIR.
    if (anchors.length > 0 && !anchors.some((ca) => certificate.checkIssued(ca) && certificate.verify(ca.publicKey)))
      return { ok: false, reason: `answer signed by an untrusted certificate (${oneLine(certificate.subject)})` };
    const now = opts.now().getTime();
    if (Date.parse(certificate.validFrom) > now || Date.parse(certificate.validTo) < now)
      return { ok: false, reason: 'answer signed by a certificate outside its validity' };
    if (!/(^|\n)CN=fiskalcis(test)?(\n|$)/i.test(certificate.subject))
      return { ok: false, reason: `answer signed by a certificate not CIS's (${oneLine(certificate.subject)})` };
    const id = answer.getAttribute('Id');
    const verifier = new SignedXml({ publicCert: certificate.toString() });
    try {
      verifier.loadSignature(new XMLSerializer().serializeToString(signature));
      if (!verifier.checkSignature(body)) return { ok: false, reason: 'answer signature does not verify' };
    } catch (error) {
      return { ok: false, reason: `answer signature does not verify: ${(error as Error).message}` };
    }
    const references = verifier.getReferences();
    if (references.length !== 1 || !id || references[0]!.uri !== `#${id}`)
      return { ok: false, reason: 'answer signature does not cover the answer' };
    const signed = verifier.getSignedReferences();
    if (signed.length !== 1) return { ok: false, reason: 'answer signature does not cover the answer' };
    return { ok: true, xml: signed[0]! };
  };
}
export type AnswerVerifier = ReturnType<typeof createAnswerVerifier>;

function splitPem(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}

const oneLine = (subject: string) => subject.replace(/\n/g, ', ');
