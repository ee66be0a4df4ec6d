// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/config/config.ts';
import { backup, restore } from '../../src/main/backup.ts';
import { createContainer } from '../../src/container.ts';
import { createDemoCompany } from '../../src/modules/demo/demo-company.ts';
import { buildSampleDatasheet } from '../../src/modules/printing/index.ts';
import { exited, freePort, startPortico, waitForHttp } from '../support/processes.ts';

const run = promisify(execFile);
const CLI = path.resolve(import.meta.dirname, '../../src/main/cli.ts');

function portico(args: string[], env: Record<string, string>) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * Issue 37, item 8: `restore --force` into a running instance "succeeded" (the server kept writing
 * to the deleted files); a backup with a symbolic link as a datasheet, or a manifest naming
 * `../outside.sqlite`, made restore copy a file from outside the backup. Restore now verifies the
 * checksum manifest `portico backup` writes, takes only regular files the manifest lists, and
 * refuses a database a running instance holds.
 */
test('restore verifies the backup, refuses links and paths outside it, and a database a running Portico holds', {
  timeout: 300_000,
}, async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-restore-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const live = { DATABASE_URL: `sqlite:${path.join(dir, 'live', 'portico.sqlite')}`, DATA_DIR: path.join(dir, 'live') };
  const c = await createContainer(loadConfig({ ...live, LOG_LEVEL: 'silent' }));
  const demo = await createDemoCompany(c);
  const sheet = await buildSampleDatasheet('Sheet', ['Backed up.']);
  await c.catalogAdmin.setDatasheet(demo.companyId, demo.products[0]!.id, { bytes: sheet }, c.config.datasheetMaxBytes);
  await c.close();

  // The commands' own functions (the CLI is a thin shell around them; it is run once below).
  const good = path.join(dir, 'backup');
  backup(loadConfig(live), good);
  const manifest = JSON.parse(fs.readFileSync(path.join(good, 'portico-backup.json'), 'utf8'));
  assert.equal(manifest.format, 2);
  assert.equal(manifest.files['portico.sqlite'], sha256(path.join(good, 'portico.sqlite')));
  const sheetPath = Object.keys(manifest.files).find((f) => f.startsWith('data/datasheets/'))!;
  assert.ok(sheetPath, 'the datasheet is listed');

  // A file outside every backup, which a crafted one tries to bring in.
  const outside = path.join(dir, 'outside.sqlite');
  fs.copyFileSync(path.join(good, 'portico.sqlite'), outside);
  fs.appendFileSync(outside, 'not yours');
  const crafted = (name: string, change: (b: string, m: typeof manifest) => void) => {
    const b = path.join(dir, name);
    fs.cpSync(good, b, { recursive: true });
    const m = structuredClone(manifest);
    change(b, m);
    fs.writeFileSync(path.join(b, 'portico-backup.json'), JSON.stringify(m));
    return b;
  };
  const cases: Array<[string, string, RegExp]> = [
    [
      'a symbolic link as a datasheet',
      crafted('link', (b, m) => {
        fs.rmSync(path.join(b, sheetPath));
        fs.symlinkSync(outside, path.join(b, sheetPath));
        m.files[sheetPath] = sha256(outside);
      }),
      /is not a regular file/,
    ],
    [
      'a manifest naming ../outside.sqlite',
      crafted('dotdot', (_b, m) => {
        m.database = '../outside.sqlite';
      }),
      /names the database "\.\.\/outside\.sqlite"/,
    ],
    [
      'a listed file outside the backup',
      crafted('listed', (_b, m) => {
        m.files['data/datasheets/../../../outside.sqlite'] = sha256(outside);
      }),
      /not a file of a backup/,
    ],
    [
      'a datasheet changed after the backup',
      crafted('tampered', (b) => fs.appendFileSync(path.join(b, sheetPath), 'x')),
      /does not match its checksum/,
    ],
    [
      'a file the manifest does not list',
      crafted('extra', (b) => fs.writeFileSync(path.join(b, 'data', 'datasheets', 'extra.pdf'), '%PDF-')),
      /extra\.pdf is not in its manifest/,
    ],
    [
      'a manifest without checksums',
      crafted('old', (_b, m) => {
        m.format = 1;
        delete m.files;
      }),
      /no checksums/,
    ],
  ];
  const fresh = {
    DATABASE_URL: `sqlite:${path.join(dir, 'fresh', 'portico.sqlite')}`,
    DATA_DIR: path.join(dir, 'fresh', 'data'),
  };
  const freshConfig = loadConfig(fresh);
  for (const [what, backupDir, why] of cases) {
    assert.throws(() => restore(freshConfig, backupDir, { force: true }), why, what);
    assert.equal(fs.existsSync(path.join(dir, 'fresh')), false, `${what}: nothing written`);
  }

  // The good backup restores; a server then runs on it.
  restore(freshConfig, good, { force: false });
  const restoredSheet = path.join(dir, 'fresh', 'data', 'datasheets', ...sheetPath.split('/').slice(2));
  assert.ok(fs.readFileSync(restoredSheet).equals(sheet));
  const env = { ...fresh, HOST: '127.0.0.1', PORT: String(await freePort()) };
  const server = startPortico(['serve'], env);
  t.after(async () => {
    server.kill('SIGKILL');
    await exited(server);
  });
  await waitForHttp(`http://127.0.0.1:${env.PORT}/readyz`);
  const held = await portico(['restore', good, '--force'], fresh);
  assert.equal(held.code, 1, 'a running instance holds the database, --force or not');
  assert.match(held.stderr, new RegExp(`a running Portico \\(process ${server.pid}\\) holds`));
  assert.equal((await fetch(`http://127.0.0.1:${env.PORT}/readyz`)).status, 200, 'the server serves on, untouched');

  // Stopped, the database is free again; a killed server's lock names a process that is gone.
  server.kill('SIGKILL');
  await exited(server);
  assert.equal(restore(freshConfig, good, { force: true }).database, 'portico.sqlite');
});
