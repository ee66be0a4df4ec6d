import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request as received by the test webhook receiver. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>; // lowercase names; repeated headers joined with ", "
  body: string; // UTF-8 decoded
  rawBody: Buffer; // exact bytes received
  receivedAt: number; // performance.now() when the body was complete
}

export interface ReceiverResponse {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface WebhookReceiver {
  url: string; // http://127.0.0.1:<port> (no trailing slash)
  requests: RecordedRequest[];
  waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * A real HTTP server on 127.0.0.1 (random port) recording every request.
 * `respond` decides the answer (may be async; a promise that never settles
 * simulates a receiver that never answers). `n` is the 1-based request number.
 * Default answer: 200 "ok". Keep-alive friendly; `close()` also drops
 * connections that are still open or hanging.
 */
export async function startWebhookReceiver(opts?: {
  respond?: (req: RecordedRequest, n: number) => ReceiverResponse | Promise<ReceiverResponse>;
}): Promise<WebhookReceiver> {
  const requests: RecordedRequest[] = [];
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  const respond = opts?.respond;

  const server = createServer({ keepAlive: true, requestTimeout: 0 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: flatHeaders(req),
        body: rawBody.toString('utf8'),
        rawBody,
        receivedAt: performance.now(),
      };
      requests.push(recorded);
      const n = requests.length;
      waiters = waiters.filter((w) => {
        if (requests.length >= w.count) {
          w.resolve();
          return false;
        }
        return true;
      });
      const send = (r: ReceiverResponse): void => {
        if (res.destroyed || res.writableEnded) return;
        const body = r.body ?? '';
        res.writeHead(r.status, { 'content-length': Buffer.byteLength(body), ...(r.headers ?? {}) });
        res.end(body);
      };
      if (!respond) {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
        res.end('ok');
        return;
      }
      Promise.resolve()
        .then(() => respond(recorded, n))
        .then(send, () => send({ status: 500, body: 'receiver respond() failed' }));
    });
  });
  server.keepAliveTimeout = 30_000;
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    waitFor(count: number, timeoutMs = 5_000): Promise<RecordedRequest[]> {
      if (requests.length >= count) return Promise.resolve(requests.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(
            new Error(`webhook receiver: expected ${count} requests, got ${requests.length} within ${timeoutMs} ms`),
          );
        }, timeoutMs);
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests.slice());
          },
        };
        waiters.push(waiter);
      });
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
