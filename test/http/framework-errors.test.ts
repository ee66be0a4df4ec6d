// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { bearer, createTenant, createTestApp, type TestApp } from '../support/test-app.ts';
import { assertProblem } from '../support/http-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/** Writes `chunks` on one connection to the app, one after another, and returns all it answered until it closed. */
function rawExchange(port: number, chunks: string[], gapMs = 150): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within 5 s; got: ${received}`));
    }, 5_000);
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      received += data;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('connect', async () => {
      for (const chunk of chunks) {
        if (socket.destroyed) break;
        socket.write(chunk);
        await new Promise((r) => setTimeout(r, gapMs));
      }
    });
  });
}

/** Splits raw HTTP/1.1 responses carrying a Content-Length. */
function responses(raw: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const out = [];
  let rest = raw;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    assert.ok(end > 0, `a header block in: ${rest}`);
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    assert.ok(Number.isInteger(length), `Content-Length in ${statusLine}: ${JSON.stringify(headers)}`);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

function assertRawProblem(
  res: { status: number; headers: Record<string, string>; body: string },
  status: number,
  code: string,
) {
  assert.equal(res.status, status, res.body);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  const body = JSON.parse(res.body);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(typeof body.detail, 'string');
  assert.equal(typeof body.requestId, 'string');
}

describe("the framework's and Node's own errors are problem+json with a code", () => {
  let t: TestApp;
  let d: DemoCompany;
  let port: number;
  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  after(() => t.close());

  test('a bad percent escape in a path is a 400 problem, on routes with parameters and without', async () => {
    for (const url of [
      '/api/v1/admin/webhooks/%zz',
      '/api/v1/admin/products/%E0%A4%A',
      '/api/v1/public/quotes/%',
      '/api/v1/admin/%zz',
    ]) {
      const token = url.includes('/public/') ? d.locations[0]!.apiKey : d.adminToken;
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      assert.ok(res.statusCode === 400 || res.statusCode === 404, `${url}: ${res.statusCode} ${res.body}`);
      const body = assertProblem(res, res.statusCode);
      assert.ok(['malformed_request', 'not_found'].includes(body.code), `${url}: ${res.body}`);
    }
    assertProblem(
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/webhooks/%zz', headers: bearer(d.adminToken) }),
      400,
      'malformed_request',
    );
    // Longer than any id: not found, as a path with a NUL is.
    assertProblem(
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/admin/webhooks/${'a'.repeat(500)}`,
        headers: bearer(d.adminToken),
      }),
      404,
      'not_found',
    );
  });

  test('a malformed request after a good one on a kept-alive connection gets a complete problem response', async () => {
    const good = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`;
    const raw = await rawExchange(port, [good, 'GARBAGE / NOT-HTTP\r\n\r\n']);
    const [first, second, ...more] = responses(raw);
    assert.equal(first!.status, 200, raw);
    assertRawProblem(second!, 400, 'malformed_request');
    assert.equal(second!.headers.connection, 'close');
    assert.equal(more.length, 0);
  });

  test('a malformed first request, a header too large and a bad Content-Length are problems too', async () => {
    const [bad] = responses(await rawExchange(port, ['GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n']));
    assertRawProblem(bad!, 400, 'malformed_request');

    const [huge] = responses(
      await rawExchange(port, [`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]),
    );
    assertRawProblem(huge!, 431, 'headers_too_large');

    const [length] = responses(
      await rawExchange(port, [
        'POST /api/v1/public/reach-out HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n',
      ]),
    );
    assertRawProblem(length!, 400, 'malformed_request');
  });

  test('the body errors Fastify raises itself stay problems (content type, size, JSON)', async () => {
    const key = d.locations[0]!.apiKey;
    const post = (headers: Record<string, string>, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/public/reach-out',
        headers: { ...bearer(key), ...headers },
        payload,
      });
    assertProblem(await post({ 'content-type': 'application/xml' }, '<a/>'), 415, 'unsupported_media_type');
    assertProblem(await post({ 'content-type': 'application/json' }, '{'), 400, 'malformed_json');
    assertProblem(
      await post({ 'content-type': 'application/json' }, `{"message":"${'x'.repeat(1_100_000)}"}`),
      413,
      'payload_too_large',
    );
  });
});

test('a request still arriving while the server drains gets a 503 problem with Retry-After', async () => {
  const t = await createTestApp();
  try {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const port = (t.app.server.address() as AddressInfo).port;
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (data: string) => {
      received += data;
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // Half a request: the connection is busy, so closing the server waits for it.
    socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await new Promise((r) => setTimeout(r, 100));
    const closing = t.app.close();
    await new Promise((r) => setTimeout(r, 100));
    socket.write('\r\n');
    await Promise.race([closed, new Promise((r) => setTimeout(r, 3_000))]);
    socket.destroy();
    await closing;
    const [res] = responses(received);
    assertRawProblem(res!, 503, 'unavailable');
    assert.equal(res!.headers['retry-after'], '1');
  } finally {
    await t.close();
  }
});
