// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { ownName } from './month-archive.ts';

type Entries = { entries: Array<{ utf8FileName: Buffer }> };

/**
 * Issue 37, item 10: an archive entry's name, which the zip keeps until its end, no longer keeps a
 * 64 KiB slab of Node's buffer pool alive (10 000 documents held ~300 MiB that way). Also guards
 * the yazl internals this relies on: an upgrade that changes them fails here, not in memory.
 */
test("an entry's name is copied out of the shared buffer pool into a buffer of its own", () => {
  const zip = new ZipFile();
  zip.addReadStreamLazy('documents/1-B-1.pdf', { size: 0 }, (ready) => ready(null, new PassThrough().end()));
  const entry = (zip as unknown as Entries).entries.at(-1)!;
  assert.ok(entry.utf8FileName.buffer.byteLength > entry.utf8FileName.length, 'yazl made it a slice of the pool');
  ownName(zip);
  const own = (zip as unknown as Entries).entries.at(-1)!.utf8FileName;
  assert.equal(own.toString('utf8'), 'documents/1-B-1.pdf');
  assert.equal(own.buffer.byteLength, own.length, 'a buffer of its own, no bigger than the name');
});
