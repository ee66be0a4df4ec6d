/**
 * The baseline of the reach-out bench: a bare Fastify app (default options, logger off) with
 * POST /echo returning the parsed JSON body. Run as its own process; prints `READY <port>`.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/echo', async (request) => request.body);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
process.stdout.write(`READY ${typeof address === 'object' && address ? address.port : 0}\n`);
const close = () => {
  void app.close().then(() => process.exit(0));
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
