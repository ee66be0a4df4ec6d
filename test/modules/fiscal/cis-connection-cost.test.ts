// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { createCisClient } from '../../../src/modules/fiscal/cis-client.ts';
import { echoEnvelope } from '../../../src/modules/fiscal/racun-request.ts';
import { serverCertificate, testCa, type Issued } from '../../support/fiscal-certs.ts';
import { startFakeCisThread, type CisThread } from '../../../bench/support/fake-cis-thread.ts';

/**
 * Issue 37, item 11: each fresh TLS connection to CIS parsed the system's 121 roots again (about
 * two thirds of its cost). A CIS that closes every connection (each request a fresh one, as an
 * invoice after a pause meets) runs on a thread of its own; this thread's CPU per request through
 * the CIS client is compared, in the same run, with a client given the same roots as `ca`, which
 * is what the client did before.
 */
describe('a new CIS connection costs what it must', () => {
  let ca: Issued;
  let cis: CisThread;
  before(async () => {
    ca = testCa();
    cis = await startFakeCisThread(serverCertificate(ca), ca, { closeEach: true });
  });
  after(() => cis.close());

  async function cpuPerRequest(send: () => Promise<string>, n: number): Promise<number> {
    for (let i = 0; i < 5; i++) assert.match(await send(), /EchoResponse|Envelope/); // warm-up
    const start = process.threadCpuUsage();
    for (let i = 0; i < n; i++) await send();
    const used = process.threadCpuUsage(start);
    return (used.user + used.system) / n;
  }

  test('the trust store is built once: a fresh connection costs well under one that parses the roots', async () => {
    const client = createCisClient({ url: cis.url, extraCaPem: ca.certPem });
    const parsing = new Agent({ connect: { ca: [...rootCertificates, ca.certPem], minVersion: 'TLSv1.2' } });
    const viaParsing = async () => {
      const res = await request(cis.url, { method: 'POST', dispatcher: parsing, body: echoEnvelope('x') });
      return res.body.text();
    };
    try {
      // Interleaved rounds, so the machine's load falls on both alike.
      let ours = 0;
      let reference = 0;
      for (let round = 0; round < 3; round++) {
        ours += await cpuPerRequest(() => client.post(echoEnvelope('x'), 'echo', 5_000), 20);
        reference += await cpuPerRequest(viaParsing, 20);
      }
      const ratio = ours / reference;
      assert.ok(
        ratio < 0.6,
        `CPU per fresh connection: ${(ours / 3).toFixed(0)} µs against ${(reference / 3).toFixed(0)} µs (${ratio.toFixed(2)})`,
      );
    } finally {
      await client.close();
      await parsing.close();
    }
  });
});
