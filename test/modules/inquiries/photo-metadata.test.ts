// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { buildSampleDatasheet } from '../../../src/modules/printing/index.ts';
import { imageTypeOf, withoutMetadata } from '../../../src/modules/inquiries/product-photo.ts';

/**
 * Issue 37, item 4: a stored product photo keeps the picture, not what the camera wrote beside it
 * (EXIF with its GPS position, XMP, IPTC, comments). A real JPEG (pdftoppm's) and PNG with such
 * metadata put in come out byte for byte as they were without it; a broken file is refused.
 */
const exifSegment = (text: string) => {
  const body = Buffer.from(`Exif\0\0${text}`, 'latin1');
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};
const pngChunk = (type: string, data: string) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), Buffer.from(data, 'latin1')]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

test('EXIF, XMP and comments leave a JPEG; text chunks leave a PNG; the picture stays byte for byte', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'photo-metadata-'));
  try {
    fs.writeFileSync(path.join(dir, 'p.pdf'), await buildSampleDatasheet('Photo', ['A picture.']));
    execFileSync('pdftoppm', ['-jpeg', '-r', '20', '-singlefile', path.join(dir, 'p.pdf'), path.join(dir, 'p')]);
    execFileSync('pdftoppm', ['-png', '-r', '20', '-singlefile', path.join(dir, 'p.pdf'), path.join(dir, 'p')]);
    const jpeg = fs.readFileSync(path.join(dir, 'p.jpg'));
    const png = fs.readFileSync(path.join(dir, 'p.png'));
    assert.equal(imageTypeOf(jpeg), 'image/jpeg');
    assert.equal(imageTypeOf(png), 'image/png');

    const gps = 'GPSLatitude 45.8150 GPSLongitude 15.9819';
    const comment = Buffer.from([0xff, 0xfe, 0x00, 0x0a, ...Buffer.from('Ana Home')]);
    const tagged = Buffer.concat([jpeg.subarray(0, 2), exifSegment(gps), comment, jpeg.subarray(2)]);
    assert.ok(tagged.includes(gps));
    const cleanJpeg = withoutMetadata('image/jpeg', tagged)!;
    assert.ok(!cleanJpeg.includes(gps) && !cleanJpeg.includes('Ana Home'));
    assert.ok(cleanJpeg.equals(jpeg), 'the JPEG as it was before the metadata went in');

    const iend = png.length - 12;
    const taggedPng = Buffer.concat([png.subarray(0, iend), pngChunk('tEXt', `Comment\0${gps}`), png.subarray(iend)]);
    const cleanPng = withoutMetadata('image/png', taggedPng)!;
    assert.ok(!cleanPng.includes(gps));
    assert.ok(cleanPng.equals(png), 'the PNG as it was');

    assert.equal(withoutMetadata('image/jpeg', tagged.subarray(0, 40)), null, 'a cut JPEG is refused');
    assert.equal(withoutMetadata('image/png', taggedPng.subarray(0, 30)), null, 'a cut PNG is refused');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
