// test-engines: sqlite
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';

/**
 * A slow client must not hold a connection for ever (issue 15, item 4). These tests speak raw
 * HTTP over a socket to 127.0.0.1, against a server built with one-second limits. Each socket
 * is bounded: if the server has not closed it after `deadlineMs` the test fails and closes it.
 */
interface Outcome {
  closedByServer: boolean;
  response: string;
}

function slowClient(
  port: number,
  opts: { head: string; trickle: string; everyMs: number; deadlineMs: number },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let response = '';
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ closedByServer, response });
    };
    const deadline = setTimeout(() => finish(false), opts.deadlineMs);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      response += chunk;
    });
    socket.on('close', () => finish(true));
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? finish(true) : reject(error),
    );
    socket.on('connect', () => {
      socket.write(opts.head);
      let i = 0;
      timer = setInterval(() => {
        if (!socket.destroyed && socket.writable) socket.write(opts.trickle[i++ % opts.trickle.length]!);
      }, opts.everyMs);
    });
  });
}

describe('connection limits', () => {
  let t: TestApp;
  let port: number;
  let apiKey: string;
  before(async () => {
    t = await createTestApp({
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_IDLE_TIMEOUT_MS: '1000',
      HTTP_MAX_CONNECTIONS: '3',
    });
    apiKey = (await createTenant(t.c)).locations[0]!.apiKey;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await t.close();
  });

  const post = (auth: string) =>
    `POST /api/v1/public/reach-out HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"topic":"`;

  test('a body trickling in byte by byte is cut once the request timeout passes, answered 401 or not', async () => {
    const [unauthenticated, authenticated] = await Promise.all([
      slowClient(port, { head: post(''), trickle: 'x', everyMs: 100, deadlineMs: 8000 }),
      slowClient(port, {
        head: post(`Authorization: Bearer ${apiKey}\r\n`),
        trickle: 'x',
        everyMs: 100,
        deadlineMs: 8000,
      }),
    ]);
    assert.ok(
      unauthenticated.closedByServer,
      `the unauthenticated slow body was still open: ${unauthenticated.response}`,
    );
    assert.match(unauthenticated.response, /^HTTP\/1\.1 401 /, 'the 401 went out first');
    assert.ok(authenticated.closedByServer, `the authenticated slow body was still open: ${authenticated.response}`);
  });

  test('headers trickling in are cut by the headers timeout', async () => {
    const outcome = await slowClient(port, {
      head: 'GET /healthz HTTP/1.1\r\n',
      trickle: 'X-Slow: a\r\n',
      everyMs: 100,
      deadlineMs: 8000,
    });
    assert.ok(outcome.closedByServer, 'the slow headers were still open');
  });

  test('a kept-alive connection gone silent is closed by the idle timeout', async () => {
    const outcome = await slowClient(port, {
      head: 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      trickle: '',
      everyMs: 60_000,
      deadlineMs: 8000,
    });
    assert.match(outcome.response, /^HTTP\/1\.1 200 /);
    assert.ok(outcome.closedByServer, 'the idle connection was still open');
  });

  test('connections beyond the cap are refused while the others stay served', async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: 3 },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
            s.on('error', reject);
          }),
      ),
    );
    try {
      // Give the server the moment it needs to count the three as its own.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const extra = await slowClient(port, {
        head: 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
        trickle: '',
        everyMs: 60_000,
        deadlineMs: 5000,
      });
      assert.ok(extra.closedByServer);
      assert.equal(extra.response, '', 'the fourth connection got no answer');
    } finally {
      for (const s of sockets) s.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(res.status, 200, 'a connection is served again once others closed');
  });
});
