// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_REDIRECTS,
  PHOTO_FETCH_MAX_BYTES,
  photoResponseRefusal,
  photoUrlRefusal,
  redirectStep,
} from './product-photo.ts';

test('only https URLs of public hosts are fetched', () => {
  assert.equal(photoUrlRefusal('https://shop.example.com/a.jpg', false), null);
  for (const [url, reason] of [
    ['http://shop.example.com/a.jpg', /https/],
    ['ftp://shop.example.com/a.jpg', /https/],
    ['not a url', /valid/],
    ['https://127.0.0.1/a.jpg', /private|loopback/],
    ['https://169.254.169.254/latest/meta-data', /private|loopback|link-local/],
    ['https://10.1.2.3/a.jpg', /private/],
    ['https://[::1]/a.jpg', /private|loopback/],
    ['https://localhost/a.jpg', /private|loopback/],
    ['https://user:pw@shop.example.com/a.jpg', /credentials/],
  ] as const)
    assert.match(photoUrlRefusal(url, false) ?? 'accepted', reason, url);
  assert.match(
    photoUrlRefusal('http://127.0.0.1/a.jpg', true) ?? '',
    /https/,
    'plain http never, even where private targets are allowed',
  );
});

test('only raster images, answered 200, within the size cap, are kept', () => {
  assert.equal(photoResponseRefusal(200, 'image/jpeg', 1000), null);
  assert.equal(photoResponseRefusal(200, 'image/png; charset=binary', null), null);
  assert.match(photoResponseRefusal(404, 'image/png', 10)!, /404/);
  assert.match(photoResponseRefusal(200, 'text/html', 10)!, /not an image/);
  assert.match(photoResponseRefusal(200, 'image/svg+xml', 10)!, /not an image/, 'an SVG can carry script');
  assert.match(photoResponseRefusal(200, undefined, 10)!, /no content type/);
  assert.match(photoResponseRefusal(200, 'image/jpeg', PHOTO_FETCH_MAX_BYTES + 1)!, /larger/);
});

test('redirects are followed a bounded number of times, resolved against the page that sent them', () => {
  assert.deepEqual(redirectStep('https://a.example/x/y.jpg', '../z.jpg', 0), { url: 'https://a.example/z.jpg' });
  assert.deepEqual(redirectStep('https://a.example/y.jpg', 'http://b.example/z.jpg', 1), {
    url: 'http://b.example/z.jpg',
  });
  assert.match((redirectStep('https://a.example/', '/z', MAX_REDIRECTS) as { reason: string }).reason, /more than/);
  assert.match((redirectStep('https://a.example/', undefined, 0) as { reason: string }).reason, /Location/);
});
