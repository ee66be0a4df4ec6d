// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { escapeRfc2253, issuerRfc2253 } from './x509-name.ts';
import { signRequest } from './xml-signature.ts';

const pem = fs.readFileSync(new URL('../../../test/fixtures/fiscal-hr/issuer-rfc2253.pem', import.meta.url), 'utf8');
// Java's X500Principal.getName(RFC2253) for the fixture (test/fixtures/fiscal-hr/README.md).
const JAVA = String.raw`CN=Fina \"Demo\" CA\+2020\;\<x\>\ ,2.5.4.97=#0c1156415448522d3835383231313330333638,O=Financijska agencija\, d.d.,C=HR`;

test('the issuer in RFC 2253, as Java writes it: reversed, escaped once, unknown types by OID', () => {
  assert.equal(issuerRfc2253(new X509Certificate(pem).raw), JAVA);
});

test('escaping: the special characters, a leading # or space, a trailing space', () => {
  assert.equal(escapeRfc2253('a,b+c"d\\e<f>g;h'), 'a\\,b\\+c\\"d\\\\e\\<f\\>g\\;h');
  assert.equal(escapeRfc2253('#x'), '\\#x');
  assert.equal(escapeRfc2253(' x '), '\\ x\\ ');
  assert.equal(escapeRfc2253('Šibenik'), 'Šibenik');
});

test('the signature names the issuer once escaped, XML-escaped as text', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signed = signRequest(
    '<soapenv:Envelope><soapenv:Body><tns:RacunZahtjev xmlns:tns="x" Id="RacunZahtjev"></tns:RacunZahtjev></soapenv:Body></soapenv:Envelope>',
    { privateKey, certificatePem: pem },
  );
  const name = /<X509IssuerName>([^<]*)<\/X509IssuerName>/.exec(signed)![1]!;
  assert.equal(name, JAVA.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
  assert.ok(!name.includes('\\\\'), 'no backslash escaped twice');
});
