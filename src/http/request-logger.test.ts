// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import Fastify from 'fastify';
import { requestLogger } from './request-logger.ts';

function capture(level: string) {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(JSON.parse(String(chunk)));
      cb();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

test("request logs carry the request id, and levels below the logger's are dropped", async () => {
  const { logger, lines } = capture('warn');
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLogger, genReqId: () => 'req-42' });
  app.get('/', async (request) => {
    request.log.info('not written');
    request.log.warn({ extra: 1 }, 'written');
    request.log.child({ step: 'pricing' }).error('from a child');
    return { ok: true };
  });
  const response = await app.inject({ method: 'GET', url: '/' });
  assert.equal(response.statusCode, 200);
  await app.close();
  assert.deepEqual(
    lines.map((l) => [l.msg, l.reqId, l.level]),
    [
      ['written', 'req-42', 40],
      ['from a child', 'req-42', 50],
    ],
  );
  assert.equal(lines[0].extra, 1);
  assert.equal(lines[1].step, 'pricing');
});

test("a route's own log level applies to its requests", async () => {
  const { logger, lines } = capture('warn');
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLogger, genReqId: () => 'req-7' });
  app.get('/verbose', { logLevel: 'debug' }, async (request) => {
    request.log.debug('debug line');
    return { ok: true };
  });
  await app.inject({ method: 'GET', url: '/verbose' });
  await app.close();
  assert.ok(
    lines.some((l) => l.msg === 'debug line' && l.reqId === 'req-7'),
    JSON.stringify(lines),
  );
});
