/**
 * The fake CIS in a thread of its own: a real CIS is another machine, so its TLS and XML work
 * must not share the event loop whose latency the fiscal bench measures.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Issued } from '../../test/support/fiscal-certs.ts';
import { startFakeCis } from '../../test/support/fake-cis.ts';

export interface CisThread {
  url: string;
  close(): Promise<void>;
}

export async function startFakeCisThread(
  server: Issued,
  ca: Issued,
  opts: { closeEach?: boolean } = {},
): Promise<CisThread> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { server, ca, closeEach: opts.closeEach ?? false },
  });
  const url = await new Promise<string>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  return { url, close: async () => void (await worker.terminate()) };
}

if (!isMainThread) {
  const { server, ca, closeEach } = workerData as { server: Issued; ca: Issued; closeEach: boolean };
  const cis = await startFakeCis({ server, ca, check: false, closeEach });
  parentPort!.postMessage(cis.url);
}
