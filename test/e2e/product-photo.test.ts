// test-engines: both
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant } from '../support/test-app.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { eventually } from '../support/webhook-helpers.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A loopback https image server with a certificate of its own (its CA handed to Portico, tests only). */
function imageServer() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-photo-'));
  const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  const hits: string[] = [];
  const server = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/ok.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/moved') return res.writeHead(302, { location: '/ok.png' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<img src=x>');
    if (req.url === '/huge.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end(Buffer.alloc(6 * 1024 * 1024));
    }
    res.writeHead(404).end();
  });
  return {
    ca: fs.readFileSync(cert, 'utf8'),
    hits,
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`https://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => {
      server.closeAllConnections();
      server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

test('a product photo is fetched once by the server through the guard, kept with the inquiry, or its reason recorded', async () => {
  const images = imageServer();
  const base = await images.listen();
  // Loopback is allowed here as WEBHOOK_ALLOW_PRIVATE_TARGETS allows it for webhooks (test-app's default).
  const t = await createTestApp({ PRODUCT_PHOTO_FETCH: 'true' }, { photoCa: images.ca });
  try {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const send = async (photo: string) => {
      const res = await reachOut(t.app, key, validReachOut({ productPhotoUrl: `${base}${photo}` }));
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().data.id as string;
      return eventually(async () => {
        const got = await t.c.inquiries.photo(demo.companyId, id);
        return got.state === 'none' ? undefined : got;
      });
    };
    const ok = await send('/ok.png');
    assert.equal(ok.state, 'fetched');
    assert.ok(ok.state === 'fetched' && ok.bytes.equals(PNG) && ok.contentType === 'image/png');
    assert.equal(images.hits.filter((h) => h === '/ok.png').length, 1, 'fetched once');

    assert.equal((await send('/moved')).state, 'fetched', 'a redirect is followed');
    for (const [photo, reason] of [
      ['/loop', /more than 3 redirects/],
      ['/page', /not an image/],
      ['/huge.jpg', /larger than 5 MB/],
      ['/missing.png', /HTTP 404/],
    ] as const) {
      const got = await send(photo);
      assert.equal(got.state, 'failed', photo);
      assert.match(got.state === 'failed' ? got.reason : '', reason, photo);
    }
  } finally {
    await t.close();
    images.close();
  }
});

test('without the private-target allowance a loopback photo is refused before any connection', async () => {
  const images = imageServer();
  const base = await images.listen();
  const t = await createTestApp(
    { PRODUCT_PHOTO_FETCH: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' },
    { photoCa: images.ca },
  );
  try {
    const demo = await createTenant(t.c);
    const res = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut({ productPhotoUrl: `${base}/ok.png` }));
    const id = res.json().data.id as string;
    const got = await eventually(async () => {
      const p = await t.c.inquiries.photo(demo.companyId, id);
      return p.state === 'none' ? undefined : p;
    });
    assert.equal(got.state, 'failed');
    assert.match(got.state === 'failed' ? got.reason : '', /private|loopback/);
    assert.deepEqual(images.hits, [], 'no connection was made');
  } finally {
    await t.close();
    images.close();
  }
});
