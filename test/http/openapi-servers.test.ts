// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createTestApp } from '../support/test-app.ts';

test('the documented server is relative, so "Try it out" in /docs calls the host the page was opened as', async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  await app.app.listen({ host: '127.0.0.1', port: 0 });
  const origin = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;

  const doc = (await (await fetch(`${origin}/api/v1/public/openapi.json`)).json()) as {
    servers: Array<{ url: string }>;
  };
  assert.deepEqual(
    doc.servers.map((s) => s.url),
    ['/'],
  );
  // What the docs page does: resolve the server against the page's own URL, then call an operation there.
  const base = new URL(doc.servers[0]!.url, `${origin}/docs/`);
  assert.equal(base.origin, origin);
  const res = await fetch(new URL('api/v1/public/openapi.json', base));
  assert.equal(res.status, 200);
  await res.body?.cancel();
});

test('with PUBLIC_BASE_URL the documented server is that URL', async (t) => {
  const app = await createTestApp({ PUBLIC_BASE_URL: 'https://api.example.com/' });
  t.after(() => app.close());
  const doc = (await app.app.inject({ method: 'GET', url: '/api/v1/public/openapi.json' })).json();
  assert.deepEqual(
    doc.servers.map((s: { url: string }) => s.url),
    ['https://api.example.com'],
  );
});
