// test-engines: sqlite
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createAnswerVerifier } from '../../../src/modules/fiscal/cis-answer-signature.ts';
import { loadConfig } from '../../../src/config/config.ts';
import { createContainer } from '../../../src/container.ts';
import { provisionDatabase } from '../../support/test-app.ts';
import { signedAnswer } from '../../support/fake-cis.ts';
import { cisSignerCertificate, fiscalCertificate, testCa, type Issued } from '../../support/fiscal-certs.ts';

const JIR = () => `<tns:Jir>${randomUUID()}</tns:Jir>`;
const WARNING = /FISCAL_CIS_SIGNER_CA is not set/;

/**
 * The fallback of CIS answer checking (src/modules/fiscal/cis-answer-signature.ts): with no CA
 * for CIS's answer-signing certificate configured (neither FISCAL_CIS_SIGNER_CA nor the
 * FISCAL_CIS_CA it falls back to: a production server trusting CIS's TLS through the system's
 * roots) the certificate's issuer is not checked, but an answer is still believed only when it is
 * signed, whole, by a `fiskalcis` certificate valid now (specification v2.6 chapter 7): unsigned,
 * tampered, signed by another certificate, expired, or carrying an unsigned answer beside a
 * signed one, it is refused. The server says so once at start.
 */
describe('CIS answers with no signer CA configured', () => {
  let ca: Issued;
  let signer: Issued;
  let stranger: Issued;
  before(() => {
    ca = testCa();
    signer = cisSignerCertificate(ca);
    // A fiskalcis certificate from a CA of its own: what the missing chain check lets through.
    stranger = cisSignerCertificate(null);
  });

  const unanchored = (now = () => new Date()) => {
    let warned = 0;
    const verify = createAnswerVerifier({ trustedCaPem: null, now, onUnanchored: () => warned++ });
    return { verify, warned: () => warned };
  };

  test('the issuer is not checked: a whole fiskalcis signature is believed, from the CA or not', () => {
    const { verify, warned } = unanchored();
    assert.equal(warned(), 1, 'told once, when made');
    for (const by of [signer, stranger]) {
      const jir = JIR();
      const verdict = verify(signedAnswer('RacunOdgovor', 'm-1', jir, by), 'RacunOdgovor');
      assert.ok(verdict.ok, JSON.stringify(verdict));
      assert.ok(verdict.ok && verdict.xml.includes(jir), 'the JIR read is the signed one');
    }
    // With the CA configured the stranger's answer is refused: the difference is the chain alone.
    let warnedAnchored = 0;
    const anchored = createAnswerVerifier({
      trustedCaPem: ca.certPem,
      now: () => new Date(),
      onUnanchored: () => warnedAnchored++,
    });
    assert.equal(warnedAnchored, 0);
    assert.ok(anchored(signedAnswer('RacunOdgovor', 'm-2', JIR(), signer), 'RacunOdgovor').ok);
    const refused = anchored(signedAnswer('RacunOdgovor', 'm-3', JIR(), stranger), 'RacunOdgovor');
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.reason, /untrusted certificate .*CN=fiskalcistest/);
  });

  test('still refused: unsigned, tampered, signed by another certificate, expired, an unsigned answer beside a signed one', () => {
    const { verify } = unanchored();
    const refused = (body: string, why: RegExp, v = verify) => {
      const verdict = v(body, 'RacunOdgovor');
      assert.equal(verdict.ok, false, `believed: ${body.slice(0, 300)}`);
      assert.match(verdict.ok ? '' : verdict.reason, why);
    };
    refused(signedAnswer('RacunOdgovor', 'm-4', JIR(), null), /not signed/);
    const tampered = signedAnswer('RacunOdgovor', 'm-5', JIR(), signer).replace(/<tns:Jir>[^<]+<\/tns:Jir>/, JIR());
    refused(tampered, /does not verify/);
    // A signature cut short: the SignatureValue's bytes changed.
    const broken = signedAnswer('RacunOdgovor', 'm-6', JIR(), signer).replace(
      /<SignatureValue>([A-Za-z0-9+/]{8})/,
      (_m, head: string) => `<SignatureValue>${head === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA'}`,
    );
    refused(broken, /does not verify/);
    // A whole signature, by a certificate that is not CIS's (a taxpayer's FISKAL certificate).
    refused(signedAnswer('RacunOdgovor', 'm-7', JIR(), fiscalCertificate(ca, '12345678903')), /not CIS's/);
    // CIS's certificate, outside its validity.
    const later = unanchored(() => new Date(Date.now() + 400 * 86_400_000)).verify;
    refused(signedAnswer('RacunOdgovor', 'm-8', JIR(), signer), /outside its validity/, later);
    // A forged answer put before a genuine one: the one read is the first, unsigned.
    const genuine = signedAnswer('RacunOdgovor', 'm-9', JIR(), signer);
    const forged = `<tns:RacunOdgovor xmlns:tns="http://www.apis-it.hr/fin/2012/types/f73" Id="x">${JIR()}</tns:RacunOdgovor>`;
    refused(genuine.replace('<soap:Body>', `<soap:Body>${forged}`), /not signed/);
    // Not an answer at all.
    refused('<html>proxy error</html>', /no RacunOdgovor|not XML/);
  });

  test('the server warns at start, once, when no signer CA is configured; not when one is', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cis-unanchored-'));
    const { url, drop } = await provisionDatabase(dir);
    const caFile = path.join(dir, 'ca.pem');
    fs.writeFileSync(caFile, ca.certPem);
    try {
      const warningsAtStart = async (env: Record<string, string>) => {
        const lines: Array<{ level: number; msg: string }> = [];
        const sink = new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
            done();
          },
        });
        const c = await createContainer(
          loadConfig({ DATABASE_URL: url, DATA_DIR: dir, PRODUCT_PHOTO_FETCH: 'false', ...env }),
          { logger: pino({ level: 'info' }, sink), migrate: false },
        );
        await c.close();
        return lines.filter((l) => l.level === 40 && WARNING.test(l.msg)).map((l) => l.msg);
      };
      assert.deepEqual(await warningsAtStart({}), [
        'FISCAL_CIS_SIGNER_CA is not set: CIS answers are checked for a whole fiskalcis signature, not for its issuer',
      ]);
      assert.deepEqual(await warningsAtStart({ FISCAL_CIS_SIGNER_CA: caFile }), []);
      // FISCAL_CIS_CA (a test CIS's) anchors the answers when FISCAL_CIS_SIGNER_CA is empty.
      assert.deepEqual(await warningsAtStart({ FISCAL_CIS_CA: caFile }), []);
    } finally {
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
