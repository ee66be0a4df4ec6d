import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Config } from '../config/config.ts';

/**
 * `portico backup <dir>` and `portico restore <dir>` for the embedded SQLite database: one
 * consistent copy of the database, taken while the server runs, with the data directory's files
 * that the database needs (datasheets, the generated secrets key). PostgreSQL is backed up with
 * its own tools (docs/operating.md, "Backups").
 */
const MANIFEST = 'portico-backup.json';
const DATABASE = 'portico.sqlite';

export interface BackupManifest {
  /** 2: with `files` (checksums); restore refuses a backup without them. */
  format: 2;
  createdAt: string;
  database: string;
  datasheets: number;
  /** `file`: the key is in the backup; `SECRETS_KEY`: it is not, keep the variable's value. */
  secretsKey: 'file' | 'SECRETS_KEY' | 'none';
  /** Every file of the backup but this manifest, by its path inside the backup (`/`-separated): its SHA-256, hex. */
  files: Record<string, string>;
}

export class BackupError extends Error {
  override name = 'BackupError';
}

function sqliteFile(config: Config): string {
  if (!config.databaseUrl.startsWith('sqlite:') || config.databaseUrl === 'sqlite::memory:')
    throw new BackupError(
      'portico backup and restore handle a SQLite file; back up PostgreSQL with pg_dump/pg_restore (docs/operating.md, "Backups"), plus DATA_DIR and SECRETS_KEY',
    );
  return path.resolve(config.databaseUrl.slice('sqlite:'.length));
}

function isEmpty(dir: string): boolean {
  try {
    return fs.readdirSync(dir).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

export function backup(config: Config, target: string): BackupManifest {
  const source = sqliteFile(config);
  if (!isEmpty(target)) throw new BackupError(`${target} is not empty; back up into a new directory`);
  if (!fs.existsSync(source)) throw new BackupError(`no database at ${source}`);
  fs.mkdirSync(target, { recursive: true, mode: 0o700 });

  // VACUUM INTO copies the database as one read transaction sees it: consistent, while writers
  // go on (WAL), and without restarting as the page-by-page backup API does when they write.
  const db = new DatabaseSync(source);
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    const out = path.join(target, DATABASE);
    db.exec(`VACUUM INTO '${out.replaceAll("'", "''")}'`);
    fs.chmodSync(out, 0o600);
  } finally {
    db.close();
  }
  // Files after the database: a datasheet is written before the row that names it, and rewritten
  // only by an atomic rename, so every datasheet the copy names is on disk by now.
  const sheets = path.join(config.dataDir, 'datasheets');
  if (fs.existsSync(sheets)) fs.cpSync(sheets, path.join(target, 'data', 'datasheets'), { recursive: true });
  const key = path.join(config.dataDir, 'secrets.key');
  let secretsKey: BackupManifest['secretsKey'] = config.secretsKey ? 'SECRETS_KEY' : 'none';
  if (!config.secretsKey && fs.existsSync(key)) {
    fs.mkdirSync(path.join(target, 'data'), { recursive: true, mode: 0o700 });
    fs.copyFileSync(key, path.join(target, 'data', 'secrets.key'));
    fs.chmodSync(path.join(target, 'data', 'secrets.key'), 0o600);
    secretsKey = 'file';
  }
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(target, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const full = path.join(entry.parentPath, entry.name);
      files[path.relative(target, full).split(path.sep).join('/')] = sha256(full);
    }
  const manifest: BackupManifest = {
    format: 2,
    createdAt: new Date().toISOString(),
    database: DATABASE,
    datasheets: countFiles(path.join(target, 'data', 'datasheets')),
    secretsKey,
    files,
  };
  fs.writeFileSync(path.join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

/** Puts a backup in place of DATABASE_URL's file and DATA_DIR's files; the server must be stopped. */
export function restore(config: Config, source: string, options: { force: boolean }): BackupManifest {
  const file = sqliteFile(config);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(source, MANIFEST), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${source} is not a Portico backup (no ${MANIFEST})`);
  }
  verify(source, manifest);
  // A server writing to the files replaced here would go on writing to the deleted ones, and
  // lose on restart what it acknowledged meanwhile: never, not even with --force.
  const running = runningInstances(file);
  if (running.length > 0)
    throw new BackupError(
      `a running Portico (process ${running.join(', ')}) holds ${file}; stop it (and its workers) first, then restore`,
    );
  const sheets = path.join(config.dataDir, 'datasheets');
  const key = path.join(config.dataDir, 'secrets.key');
  const occupied = [file, `${file}-wal`, sheets, key].filter((p) => fs.existsSync(p) && !isEmptyPath(p));
  if (occupied.length > 0 && !options.force)
    throw new BackupError(
      `the target is not empty (${occupied.join(', ')}); restore into a fresh DATABASE_URL and DATA_DIR, or add --force to replace them`,
    );
  for (const p of [file, `${file}-wal`, `${file}-shm`, `${file}-revocations`]) fs.rmSync(p, { force: true });
  fs.rmSync(sheets, { recursive: true, force: true });

  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.restore-${process.pid}`;
  fs.copyFileSync(path.join(source, DATABASE), temp);
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Only the files the manifest lists (and verify() checked): regular files inside the backup.
  for (const relative of Object.keys(manifest.files)) {
    if (!relative.startsWith('data/datasheets/')) continue;
    const to = path.join(sheets, ...relative.slice('data/datasheets/'.length).split('/'));
    fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
    fs.copyFileSync(path.join(source, ...relative.split('/')), to);
  }
  if (manifest.files['data/secrets.key']) {
    fs.copyFileSync(path.join(source, 'data', 'secrets.key'), key);
    fs.chmodSync(key, 0o600);
  }
  return manifest;
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * The backup is what `portico backup` wrote: its manifest names the database by its one name,
 * lists every file with its SHA-256, and the directory holds those files and nothing else, each a
 * regular file (no symbolic link, no path outside the backup), with its checksum.
 */
function verify(source: string, manifest: BackupManifest): void {
  const refuse = (why: string) => {
    throw new BackupError(`${source} cannot be restored: ${why}`);
  };
  if (manifest.format !== 2 || typeof manifest.files !== 'object' || manifest.files === null)
    refuse('its manifest has no checksums (made by an older Portico, or not by portico backup); back up again');
  if (manifest.database !== DATABASE) refuse(`its manifest names the database "${String(manifest.database)}"`);
  const listed = new Set<string>();
  for (const [relative, sum] of Object.entries(manifest.files)) {
    const parts = relative.split('/');
    if (
      relative === MANIFEST ||
      parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\')) ||
      (relative !== DATABASE && relative !== 'data/secrets.key' && !relative.startsWith('data/datasheets/'))
    )
      refuse(`its manifest names "${relative}", which is not a file of a backup`);
    listed.add(relative);
    const full = path.join(source, ...parts);
    const stat = fs.lstatSync(full, { throwIfNoEntry: false });
    if (!stat) refuse(`${relative} is missing`);
    if (!stat!.isFile()) refuse(`${relative} is not a regular file (a symbolic link, a directory or a device)`);
    if (typeof sum !== 'string' || sha256(full) !== sum) refuse(`${relative} does not match its checksum`);
  }
  if (!listed.has(DATABASE)) refuse('its manifest lists no database');
  for (const entry of fs.readdirSync(source, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(source, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isDirectory() || relative === MANIFEST) continue;
    if (!listed.has(relative)) refuse(`${relative} is not in its manifest`);
  }
}

/**
 * Each serving or working process holds the SQLite file it writes by a file named after its
 * process id beside the database (`portico.sqlite.instances/1234`), removed when it exits; one
 * left by a killed process names a process that no longer runs, and is ignored.
 */
export function holdInstanceLock(config: Config): void {
  if (!config.databaseUrl.startsWith('sqlite:') || config.databaseUrl === 'sqlite::memory:') return;
  const dir = `${sqliteFile(config)}.instances`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const mine = path.join(dir, String(process.pid));
  fs.writeFileSync(mine, `${new Date().toISOString()}\n`);
  process.once('exit', () => fs.rmSync(mine, { force: true }));
}

function runningInstances(file: string): number[] {
  let names: string[];
  try {
    names = fs.readdirSync(`${file}.instances`);
  } catch {
    return [];
  }
  return names
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0 && pid !== process.pid)
    .filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
      }
    });
}

function isEmptyPath(p: string): boolean {
  const stat = fs.statSync(p);
  return stat.isDirectory() ? isEmpty(p) : stat.size === 0;
}
