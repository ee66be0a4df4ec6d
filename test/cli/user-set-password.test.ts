// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('portico user set-password (a locked-out last admin)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let app: TestApp;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cli-pw-'));
    const databaseUrl = process.env.TEST_DATABASE_URL ?? `sqlite:${path.join(dir, 'cli.sqlite')}`;
    env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'portico-test-compile-cache'),
    };
    app = await createTestApp({ DATABASE_URL: databaseUrl, DATA_DIR: dir });
  });
  after(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function run(args: string[], stdin: string): Promise<Run> {
    return new Promise((resolve) => {
      const child = execFile(
        process.execPath,
        ['src/main/cli.ts', ...args],
        { cwd: ROOT, env, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
        },
      );
      child.stdin!.end(stdin);
    });
  }

  test("reads the password from stdin, sets it and ends the user's sessions; never takes it as an argument", async () => {
    const { c } = app;
    const tenant = await createTenant(c, { passwords: true });
    const admin = tenant.users.find((u) => u.role === 'admin')!;
    const { token } = await c.accounts.signIn(admin.email, admin.password!);
    assert.ok(await c.accounts.authenticate(token));

    const asArgument = await run(
      ['user', 'set-password', '--email', admin.email, '--password', 'whatever whatever'],
      '',
    );
    assert.equal(asArgument.code, 2, 'a password on the command line is refused');

    const short = await run(['user', 'set-password', '--email', admin.email], 'short\n');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /password: Must be at least 12 characters/);

    const unknown = await run(['user', 'set-password', '--email', 'nobody@example.com'], 'a long enough password\n');
    assert.equal(unknown.code, 1);

    const done = await run(
      ['user', 'set-password', '--email', admin.email.toUpperCase(), '--company', tenant.companyId],
      'a brand new sešija password\n',
    );
    assert.equal(done.code, 0, done.stderr);
    assert.ok(!done.stdout.includes('brand new'), 'the password is never printed');
    assert.equal(JSON.parse(done.stdout).userId, admin.id);

    assert.equal(await c.accounts.authenticate(token), null, 'the old session has ended');
    await assert.rejects(c.accounts.signIn(admin.email, admin.password!), /wrong/);
    const again = await c.accounts.signIn(admin.email, 'a brand new sešija password');
    assert.equal(again.user.userId, admin.id, 'the trailing newline is not part of the password');
  });
});
