import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Config } from '../config/config.ts';

/**
 * `portico backup <dir>` and `portico restore <dir>` for the embedded SQLite database: one
 * consistent copy of the database, taken while the server runs, with the data directory's files
 * that the database needs (datasheets, the generated secrets key). PostgreSQL is backed up with
 * its own tools (README, "Backups").
 */
const MANIFEST = 'portico-backup.json';
const DATABASE = 'portico.sqlite';

export interface BackupManifest {
  format: 1;
  createdAt: string;
  database: string;
  datasheets: number;
  /** `file`: the key is in the backup; `SECRETS_KEY`: it is not, keep the variable's value. */
  secretsKey: 'file' | 'SECRETS_KEY' | 'none';
}

export class BackupError extends Error {
  override name = 'BackupError';
}

function sqliteFile(config: Config): string {
  if (!config.databaseUrl.startsWith('sqlite:') || config.databaseUrl === 'sqlite::memory:')
    throw new BackupError(
      'portico backup and restore handle a SQLite file; back up PostgreSQL with pg_dump/pg_restore (README, "Backups"), plus DATA_DIR and SECRETS_KEY',
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
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database: DATABASE,
    datasheets: countFiles(path.join(target, 'data', 'datasheets')),
    secretsKey,
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
  fs.copyFileSync(path.join(source, manifest.database), temp);
  fs.chmodSync(temp, 0o600);
  fs.renameSync(temp, file);
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const savedSheets = path.join(source, 'data', 'datasheets');
  if (fs.existsSync(savedSheets)) fs.cpSync(savedSheets, sheets, { recursive: true });
  const savedKey = path.join(source, 'data', 'secrets.key');
  if (fs.existsSync(savedKey)) {
    fs.copyFileSync(savedKey, key);
    fs.chmodSync(key, 0o600);
  }
  return manifest;
}

function isEmptyPath(p: string): boolean {
  const stat = fs.statSync(p);
  return stat.isDirectory() ? isEmpty(p) : stat.size === 0;
}
