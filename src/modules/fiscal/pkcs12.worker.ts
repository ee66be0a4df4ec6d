import forge from 'node-forge';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Opens one PKCS#12 container off the event loop: node-forge derives its keys synchronously in
 * JavaScript (seconds for a file of many iterations), which on the main thread would hold every
 * request. Answers the PEMs of the keys and certificates it holds, or the problem.
 */
const { der, password } = workerData as { der: Uint8Array; password: string };

function open(): { keys: string[]; certificates: string[] } | { problem: 'wrong_password' | 'unreadable' } {
  let container: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(der).toString('binary')));
    container = forge.pkcs12.pkcs12FromAsn1(asn1, false, password);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { problem: /invalid password/i.test(message) ? 'wrong_password' : 'unreadable' };
  }
  const bagsOf = (type: string | undefined) => (type ? (container.getBags({ bagType: type })[type] ?? []) : []);
  const { pkcs8ShroudedKeyBag, keyBag, certBag } = forge.pki.oids;
  return {
    keys: [...bagsOf(pkcs8ShroudedKeyBag), ...bagsOf(keyBag)].flatMap((bag) =>
      bag.key ? [forge.pki.privateKeyToPem(bag.key)] : [],
    ),
    certificates: bagsOf(certBag).flatMap((bag) => (bag.cert ? [forge.pki.certificateToPem(bag.cert)] : [])),
  };
}

parentPort!.postMessage(open());
