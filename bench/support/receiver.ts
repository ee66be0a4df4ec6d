/**
 * The webhook receiver of the webhooks bench, in its own process: a minimal node:http server
 * answering 200 "ok" to every request after reading the body. For each request it records the
 * receive time (performance.timeOrigin + performance.now(), i.e. wall-clock ms with sub-ms
 * precision, the same clock Date.now() reads in every process of this machine), the body's
 * `id` and `timestamp`. The work is the same whether the dispatcher or autocannon drives it.
 *
 * Control over the IPC channel: {cmd:'reset'} | {cmd:'count'} | {cmd:'stats'}; prints `READY <port>`.
 */
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';

const origin = performance.timeOrigin;
let receivedAt: number[] = [];
let sentAt: number[] = [];
let ids = new Set<string>();
let order: string[] = [];
let bad = 0;

const server = createServer({ keepAlive: true, requestTimeout: 0 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = origin + performance.now();
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: string; timestamp?: string };
      receivedAt.push(at);
      sentAt.push(body.timestamp ? Date.parse(body.timestamp) : Number.NaN);
      order.push(body.id ?? '');
      if (body.id) ids.add(body.id);
    } catch {
      bad++;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
    res.end('ok');
  });
});
server.keepAliveTimeout = 30_000;
server.on('clientError', (_err, socket) => socket.destroy());

process.on('message', (raw) => {
  const msg = raw as { cmd: string };
  if (msg.cmd === 'reset') {
    receivedAt = [];
    sentAt = [];
    ids = new Set();
    order = [];
    bad = 0;
    process.send!({ ok: true });
  } else if (msg.cmd === 'count') {
    process.send!({ count: receivedAt.length, unique: ids.size, lastAt: receivedAt.at(-1) ?? null });
  } else if (msg.cmd === 'stats') {
    process.send!({ count: receivedAt.length, unique: ids.size, bad, receivedAt, sentAt, ids: order });
  }
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
});
