/**
 * The fake cloud TSE in a process of its own for the TSE bench, so its ECDSA signing and TLS do
 * not share an event loop with the server under test (as the real TSE does not). Reads its
 * server certificate from the files named in argv, prints `{url, apiKey, apiSecret}` as one
 * line of JSON, and runs until its stdin closes.
 */
import fs from 'node:fs';
import { startFakeTse } from '../../test/support/fake-tse.ts';

const [keyFile, certFile] = process.argv.slice(2);
const tse = await startFakeTse({
  server: { keyPem: fs.readFileSync(keyFile!, 'utf8'), certPem: fs.readFileSync(certFile!, 'utf8') },
});
process.stdout.write(`${JSON.stringify({ url: tse.url, apiKey: tse.apiKey, apiSecret: tse.apiSecret })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void tse.close().then(() => process.exit(0));
});
