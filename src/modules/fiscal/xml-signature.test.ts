// test-engines: sqlite
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { test } from 'node:test';
import fc from 'fast-check';
import { SignedXml } from 'xml-crypto';
import { fiscalCertificate, testCa } from '../../../test/support/fiscal-certs.ts';
import { racunEnvelope, REQUEST_ID, type RacunFacts } from './racun-request.ts';
import { signRequest } from './xml-signature.ts';

const ca = testCa();
const issued = fiscalCertificate(ca, '12345678903');
const credentials = { privateKey: createPrivateKey(issued.keyPem), certificatePem: issued.certPem };
const XPATH = `//*[local-name(.)='${REQUEST_ID}']`;

/**
 * The reference: xml-crypto parsing, canonicalising and signing the same envelope (RSA PKCS#1
 * v1.5 is deterministic, so equal input signs equal). KeyInfo is not signed; it is taken from
 * the signature under test, and the fake CIS checks it against the CA in every fiscal test.
 */
function signedByXmlCrypto(envelope: string, keyInfo: string): string {
  const signer = new SignedXml({
    privateKey: credentials.privateKey,
    publicCert: credentials.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    getKeyInfoContent: () => keyInfo,
  });
  signer.addReference({
    xpath: XPATH,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signer.computeSignature(envelope, { location: { reference: XPATH, action: 'append' } });
  return signer.getSignedXml();
}

// Any text XML 1.0 can carry, odd characters included (the labels are the company's own words).
const text = fc.string({
  unit: fc.constantFrom(...'aZ09 &<>"\'\r\n\t]]>čćžšđ€𝄞'.split('')),
  minLength: 1,
  maxLength: 12,
});
const amount = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((c) => (c / 100).toFixed(2));
const facts: fc.Arbitrary<RacunFacts> = fc.record({
  oib: fc.constant('12345678903'),
  vatRegistered: fc.boolean(),
  issuedAt: fc.constant('25.11.2026T14:05:09'),
  sequenceMode: fc.constantFrom('P' as const, 'N' as const),
  sequence: fc.integer({ min: 1, max: 999_999 }).map(String),
  premises: text,
  device: text,
  taxes: fc.array(fc.record({ rate: fc.constantFrom('25.00', '13.00', '5.00'), base: amount, amount }), {
    maxLength: 3,
  }),
  exempt: fc.option(amount, { nil: null }),
  total: amount,
  payment: fc.constantFrom('G' as const, 'K' as const, 'T' as const, 'O' as const),
  operatorOib: fc.constant('69435151530'),
  zki: fc.constant('a1e6b1428f0cc755f0c82aa7a1327e35'),
  buyerOib: fc.option(fc.constant('10215072222'), { nil: null }),
});

test('the signature is byte for byte what xml-crypto makes of the same envelope', () => {
  fc.assert(
    fc.property(facts, fc.uuid(), fc.boolean(), (f, messageId, lateDelivery) => {
      const envelope = racunEnvelope(f, { messageId, sentAt: f.issuedAt, lateDelivery });
      const ours = signRequest(envelope, credentials);
      const keyInfo = /<KeyInfo>(.*)<\/KeyInfo>/.exec(ours)![1]!;
      assert.equal(ours, signedByXmlCrypto(envelope, keyInfo));
    }),
    { numRuns: 150 },
  );
});

test('the signature verifies, and a changed amount breaks it', () => {
  const f = fc.sample(facts, { numRuns: 1, seed: 7 })[0]!;
  const signed = signRequest(
    racunEnvelope(f, { messageId: 'm-1', sentAt: f.issuedAt, lateDelivery: false }),
    credentials,
  );
  const verify = (xml: string) => {
    const verifier = new SignedXml({ publicCert: credentials.certificatePem });
    verifier.loadSignature(/<Signature xmlns=.*<\/Signature>/.exec(xml)![0]);
    try {
      return verifier.checkSignature(xml);
    } catch {
      return false; // some failures are thrown, some answered
    }
  };
  assert.equal(verify(signed), true);
  const total = `<tns:IznosUkupno>${f.total}</tns:IznosUkupno>`;
  assert.ok(signed.includes(total));
  assert.equal(verify(signed.replace(total, '<tns:IznosUkupno>0.01</tns:IznosUkupno>')), false);
});
