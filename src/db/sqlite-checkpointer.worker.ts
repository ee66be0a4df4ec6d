import fs from 'node:fs';
import os from 'node:os';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, pages, intervalMs } = workerData as { file: string; pages: number; intervalMs: number };
const db = new DatabaseSync(file);
const header = Buffer.alloc(100);
const readU32 = os.endianness() === 'LE' ? (at: number) => header.readUInt32LE(at) : (at: number) => header.readUInt32BE(at);
let shm: number | null = null;

/**
 * WAL frames not yet copied back, read from the wal-index header at the start of the -shm file
 * (https://sqlite.org/walformat.html: mxFrame at byte 16, nBackfill at byte 96, native byte
 * order): one pread instead of a checkpoint attempt every few milliseconds. A torn read only
 * moves one checkpoint by a tick.
 */
function pendingFrames(): number {
  try {
    shm ??= fs.openSync(`${file}-shm`, 'r');
    if (fs.readSync(shm, header, 0, header.length, 0) < header.length) return 0;
    return readU32(16) - readU32(96);
  } catch {
    return 0; // no WAL index yet
  }
}

const timer = setInterval(() => {
  if (pendingFrames() < pages) return;
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  } catch {
    // Busy: another connection is checkpointing. The next tick tries again.
  }
}, intervalMs);

parentPort!.once('message', () => {
  clearInterval(timer);
  if (shm !== null) fs.closeSync(shm);
  db.close();
  parentPort!.close();
});
