import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const db = new DatabaseSync(file);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let checkedVersion = -1;

// The WAL is only stat'ed, never opened here: closing a descriptor of a file drops every POSIX
// lock this process holds on it, SQLite's own connections' included.
function walVersion(): number {
  try {
    const stat = fs.statSync(`${file}-wal`);
    return stat.mtimeMs + stat.size;
  } catch {
    return -1; // no WAL yet
  }
}

const timer = setInterval(() => {
  const version = walVersion();
  if (version === checkedVersion) return; // nothing written since the last checkpoint
  checkedVersion = version;
  try {
    checkpoint.all();
  } catch (error) {
    // Another connection is checkpointing: the next tick tries again. Anything else stops the
    // thread (the parent logs it) and SQLite goes back to checkpointing on commit.
    const code = (error as { errcode?: number }).errcode;
    if (code !== SQLITE_BUSY && code !== SQLITE_LOCKED) throw error;
    checkedVersion = -1;
  }
}, intervalMs);

parentPort!.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
