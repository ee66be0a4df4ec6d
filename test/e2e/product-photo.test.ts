// test-engines: both
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { PHOTO_MAX_BYTES, reencodePhoto } from '../../src/modules/inquiries/product-photo.ts';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { adminCall } from '../support/sales-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { reachOut, validReachOut } from '../support/http-helpers.ts';
import { eventually } from '../support/webhook-helpers.ts';

/**
 * Pictures made with sharp: three of different colours (so three different images once
 * re-encoded), the first again with a text chunk a camera or editor might write, and as stored
 * (decoded and written anew as WebP, issue 37, item 4).
 */
const picture = (background: string) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background } })
    .png()
    .toBuffer();
const [PNG, OTHER_PNG, THIRD_PNG] = await Promise.all([picture('#c33'), picture('#36c'), picture('#3a3')]);
const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
};
const iend = PNG.length - 12;
const PNG_WITH_TEXT = Buffer.concat([
  PNG.subarray(0, iend),
  pngChunk('tEXt', Buffer.from('Comment\0taken at home', 'latin1')),
  PNG.subarray(iend),
]);
const storedOf = async (bytes: Buffer, type = 'image/png') => {
  const r = await reencodePhoto(type, bytes);
  assert.ok(r.ok);
  return r.bytes;
};
const [STORED, OTHER_STORED] = [await storedOf(PNG), await storedOf(OTHER_PNG)];

/** A phone-sized JPEG (2400×1600, ≈ 2 MB of noise: over the stored cap) with its GPS position in EXIF. */
const GPS = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '45/1 48/1 54/1',
  GPSLongitudeRef: 'E',
  GPSLongitude: '15/1 58/1 55/1',
};
const PHONE_JPEG = await sharp({
  create: {
    width: 2400,
    height: 1600,
    channels: 3,
    background: '#888',
    noise: { type: 'gaussian', mean: 128, sigma: 60 },
  },
})
  .jpeg({ quality: 80 })
  .withExif({ IFD0: { Make: 'Portico test phone' }, IFD3: GPS })
  .toBuffer();
/**
 * A decompression bomb: a 17 KB PNG of 12,000 × 12,000 one-bit pixels (144 million; decoded, 144 MB
 * or more), refused from its header.
 */
const BOMB = (() => {
  const side = 12_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth 1, greyscale
  return Buffer.concat([
    PNG.subarray(0, 8),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(side * (1 + side / 8)), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
})();

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
    if (req.url === '/ok.png' || req.url === '/again.png')
      return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (req.url === '/with-text.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_WITH_TEXT);
    if (req.url === '/other.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(OTHER_PNG);
    if (req.url === '/third.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(THIRD_PNG);
    if (req.url === '/moved') return res.writeHead(302, { location: '/ok.png' }).end();
    if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end();
    if (req.url === '/page') return res.writeHead(200, { 'content-type': 'text/html' }).end('<img src=x>');
    // Issue 37: a label is not a type. HTML and SVG bytes sent as images.
    if (req.url === '/page.png')
      return res.writeHead(200, { 'content-type': 'image/png' }).end('<html><script>alert(1)</script></html>');
    if (req.url === '/drawing.jpg')
      return res
        .writeHead(200, { 'content-type': 'image/jpeg' })
        .end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    if (req.url === '/labelled-gif') return res.writeHead(200, { 'content-type': 'image/gif' }).end(PNG); // a PNG: decoded as one
    // Issue 37, item 4: what only a decode tells. A phone's photo with its position, the same cut
    // short, an HTML page after a PNG's end, script behind a GIF signature, a pixel bomb.
    const send = (type: string, body: Buffer | string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (req.url === '/phone.jpg') return send('image/jpeg', PHONE_JPEG);
    if (req.url === '/cut.jpg') return send('image/jpeg', PHONE_JPEG.subarray(0, PHONE_JPEG.length / 2));
    if (req.url === '/trailer.png')
      return send('image/png', Buffer.concat([PNG, Buffer.from('<html><script>alert(1)</script></html>')]));
    if (req.url === '/script.gif') return send('image/gif', 'GIF89a=1;/*<script>alert(1)</script>*/');
    if (req.url === '/bomb.png') return send('image/png', BOMB);
    if (req.url === '/huge.jpg') return send('image/jpeg', Buffer.alloc(9 * 1024 * 1024));
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
    assert.ok(ok.state === 'fetched' && ok.bytes.equals(STORED) && ok.contentType === 'image/webp');
    const decoded = await sharp(ok.state === 'fetched' ? ok.bytes : Buffer.alloc(0)).metadata();
    assert.deepEqual([decoded.format, decoded.width, decoded.height], ['webp', 64, 48], 'the picture, re-encoded');
    assert.equal(images.hits.filter((h) => h === '/ok.png').length, 1, 'fetched once');

    assert.equal((await send('/moved')).state, 'fetched', 'a redirect is followed');
    const relabelled = await send('/labelled-gif');
    assert.ok(relabelled.state === 'fetched' && relabelled.bytes.equals(STORED), 'decoded as what the bytes are');

    // Issue 37, item 4: a phone's photo (over the stored cap, its position in EXIF) is stored
    // smaller and without the position, or anything else the camera wrote.
    const sent = await sharp(PHONE_JPEG).metadata();
    assert.ok(
      PHONE_JPEG.length > PHOTO_MAX_BYTES &&
        sent.exif?.includes('Portico test phone') &&
        PHONE_JPEG.includes('Exif\0\0'),
      'the photo as sent',
    );
    const phone = await send('/phone.jpg');
    assert.equal(phone.state, 'fetched', phone.state === 'failed' ? phone.reason : '');
    const kept = phone.state === 'fetched' ? phone.bytes : Buffer.alloc(0);
    assert.ok(kept.length <= PHOTO_MAX_BYTES, `stored ${kept.length} bytes`);
    const stored = await sharp(kept).metadata();
    assert.deepEqual([stored.format, stored.width, stored.height], ['webp', 1600, 1067], 'the longer edge at 1600 px');
    assert.deepEqual([stored.exif, stored.xmp, stored.icc, stored.iptc], [undefined, undefined, undefined, undefined]);
    // Markers long enough that the noise in a megabyte of pixels cannot make them by chance (a
    // three-letter 'GPS' turned up in about one image in twenty).
    assert.ok(
      !kept.includes('Portico test phone') && !kept.includes('Exif\0\0') && !kept.includes('EXIF'),
      'no EXIF in the bytes',
    );
    // An HTML page after a PNG's end does not survive the decode; the picture does.
    const trailer = await send('/trailer.png');
    assert.ok(trailer.state === 'fetched' && trailer.bytes.equals(STORED) && !trailer.bytes.includes('script'));

    for (const [photo, reason] of [
      ['/loop', /more than 3 redirects/],
      ['/page', /not an image/],
      ['/huge.jpg', /larger than 8 MB/],
      ['/page.png', /not an image: the bytes are not .* \(labelled image\/png\)/],
      ['/drawing.jpg', /not an image: the bytes are not .* \(labelled image\/jpeg\)/],
      ['/missing.png', /HTTP 404/],
      ['/cut.jpg', /not an image: a damaged JPEG file/],
      ['/script.gif', /not an image: a damaged GIF file/],
      // Refused from its header, before a pixel is decoded.
      ['/bomb.png', /not stored: 12000×12000 is more than 40 million pixels/],
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

test("a company's photos are bounded together: past PRODUCT_PHOTO_QUOTA_BYTES one more is not stored", async () => {
  const images = imageServer();
  const base = await images.listen();
  const quota = STORED.length + OTHER_STORED.length + 10;
  const t = await createTestApp(
    { PRODUCT_PHOTO_FETCH: 'true', PRODUCT_PHOTO_QUOTA_BYTES: String(quota) },
    { photoCa: images.ca },
  );
  try {
    const [demo, other] = [await createTenant(t.c), await createTenant(t.c)];
    const send = async (d: typeof demo, photo = '/ok.png') => {
      const res = await reachOut(t.app, d.locations[0]!.apiKey, validReachOut({ productPhotoUrl: `${base}${photo}` }));
      assert.equal(res.statusCode, 201, res.body);
      const id = res.json().data.id as string;
      return eventually(async () => {
        const got = await t.c.inquiries.photo(d.companyId, id);
        return got.state === 'none' ? undefined : got;
      });
    };
    assert.equal((await send(demo)).state, 'fetched');
    assert.equal((await send(demo, '/other.png')).state, 'fetched');
    const third = await send(demo, '/third.png');
    assert.equal(third.state, 'failed');
    assert.match(third.state === 'failed' ? third.reason : '', /not stored: the company's photos take/);
    assert.equal((await send(other)).state, 'fetched', 'another company has its own quota');
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

/** Reaches out with a photo and waits until the server has fetched (or refused) it. */
async function sendPhoto(t: TestApp, d: DemoCompany, url: string, key = d.locations[0]!.apiKey) {
  const res = await reachOut(t.app, key, validReachOut({ productPhotoUrl: url }));
  assert.equal(res.statusCode, 201, res.body);
  const id = res.json().data.id as string;
  const got = await eventually(async () => {
    const p = await t.c.inquiries.photo(d.companyId, id);
    return p.state === 'none' ? undefined : p;
  });
  return { id, got };
}

const blobsOf = (t: TestApp, companyId: string) =>
  t.c.database.db
    .selectFrom('inquiry_photo_blobs')
    .select(['sha256', 'size'])
    .where('company_id', '=', companyId)
    .execute();

test('issue 37: the same picture is stored once per company, and the quota counts it once', async () => {
  const images = imageServer();
  const base = await images.listen();
  // Room for one picture and a little: before dedupe the second copy of the same bytes went over.
  const t = await createTestApp(
    { PRODUCT_PHOTO_FETCH: 'true', PRODUCT_PHOTO_QUOTA_BYTES: String(STORED.length + 10) },
    { photoCa: images.ca },
  );
  try {
    const [demo, other] = [await createTenant(t.c), await createTenant(t.c)];
    for (const url of ['/ok.png', '/again.png', '/with-text.png', '/ok.png']) {
      const { got } = await sendPhoto(t, demo, `${base}${url}`);
      assert.equal(got.state, 'fetched', url);
      assert.ok(got.state === 'fetched' && got.bytes.equals(STORED), `${url}: the picture as stored, its text gone`);
    }
    assert.deepEqual(
      (await blobsOf(t, demo.companyId)).map((b) => b.size),
      [STORED.length],
      'four inquiries, one stored image',
    );
    const refused = await sendPhoto(t, demo, `${base}/other.png`);
    assert.equal(refused.got.state, 'failed', 'a second picture does not fit');
    assert.match(refused.got.state === 'failed' ? refused.got.reason : '', /not stored: the company's photos take/);
    // Another company keeps its own copy (no company reads another's rows), under its own quota.
    assert.equal((await sendPhoto(t, other, `${base}/ok.png`)).got.state, 'fetched');
    assert.equal((await blobsOf(t, other.companyId)).length, 1);
    assert.equal((await blobsOf(t, demo.companyId)).length, 1);
  } finally {
    await t.close();
    images.close();
  }
});

test('issue 37: photos go with the retention after their inquiry arrived; an image nobody names is deleted', async () => {
  const images = imageServer();
  const base = await images.listen();
  let now = Date.parse('2026-03-01T09:00:00Z');
  const clock = { now: () => new Date(now) };
  const t = await createTestApp(
    { PRODUCT_PHOTO_FETCH: 'true', PRODUCT_PHOTO_RETENTION_DAYS: '30' },
    { photoCa: images.ca, clock },
  );
  try {
    const demo = await createTenant(t.c, { passwords: true });
    const testKey = await adminCall(t.app, demo.adminToken, 'POST', '/api-keys', {
      locationId: demo.locations[0]!.id,
      name: 'Test',
      mode: 'test',
    });
    assert.equal(testKey.statusCode, 201, testKey.body);
    const old = await sendPhoto(t, demo, `${base}/ok.png`);
    const oldOther = await sendPhoto(t, demo, `${base}/other.png`);
    now += 20 * 86_400_000;
    const recent = await sendPhoto(t, demo, `${base}/again.png`); // the first one's bytes
    const testOne = await sendPhoto(t, demo, `${base}/with-text.png`, testKey.json().data.key); // test mode, the same bytes again
    assert.equal((await blobsOf(t, demo.companyId)).length, 2);

    // Day 20: nothing is 30 days old yet.
    assert.deepEqual(await t.c.inquiries.expirePhotos(), { removed: 0, deleted: 0 });
    now += 11 * 86_400_000; // day 31: the first two inquiries are past 30 days
    assert.deepEqual(
      await t.c.inquiries.expirePhotos(),
      { removed: 2, deleted: 1 },
      "other.png's image named by nobody",
    );
    for (const gone of [old, oldOther]) {
      const p = await t.c.inquiries.photo(demo.companyId, gone.id);
      assert.deepEqual(p, { state: 'removed', days: 30 });
    }
    assert.equal(
      (await t.c.inquiries.photo(demo.companyId, recent.id)).state,
      'fetched',
      'the image a newer inquiry names stays',
    );
    assert.deepEqual(
      (await blobsOf(t, demo.companyId)).map((b) => b.size),
      [STORED.length],
    );

    // The hub says why the photo is gone, with its link.
    const admin = demo.users.find((u) => u.role === 'admin')!;
    const { token } = await t.c.accounts.signIn(admin.email, admin.password!);
    const cookie = `portico_session=${token}`;
    const page = await t.app.inject({ method: 'GET', url: `/hub/inquiries/${old.id}`, headers: { cookie } });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(
      page.body,
      /Fotografija je uklonjena: fotografije se čuvaju 30 dana od primitka upita/,
      "the hub says why, in the reader's language",
    );
    const served = await t.app.inject({ method: 'GET', url: `/hub/inquiries/${old.id}/photo`, headers: { cookie } });
    assert.equal(served.statusCode, 404);

    // Test data deleted: its photo goes with it; the image stays while the recent live inquiry names it.
    assert.equal(testOne.got.state, 'fetched');
    assert.equal(await t.c.inquiries.deleteTestData(demo.companyId), 1);
    assert.deepEqual(await t.c.inquiries.expirePhotos(), { removed: 0, deleted: 0 });
    // Day 52: the recent one expires too, and with it the last name of the image; but an image
    // given to an inquiry within the grace (an hour) is never swept, whatever names it.
    now += 21 * 86_400_000;
    assert.deepEqual(await t.c.inquiries.expirePhotos(), { removed: 1, deleted: 1 });
    assert.deepEqual(await blobsOf(t, demo.companyId), []);
    const fresh = await sendPhoto(t, demo, `${base}/ok.png`);
    await t.c.database.db
      .updateTable('inquiry_photos')
      .set({ sha256: null })
      .where('inquiry_id', '=', fresh.id)
      .execute();
    assert.deepEqual(await t.c.inquiries.expirePhotos(), { removed: 0, deleted: 0 }, 'within the grace');
    now += 3_600_001;
    assert.deepEqual(await t.c.inquiries.expirePhotos(), { removed: 0, deleted: 1 }, 'past the grace');
  } finally {
    await t.close();
    images.close();
  }
});
