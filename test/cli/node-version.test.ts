// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
// The machines that run the tests keep an older Node as the system one, at /usr/bin/node.
const OLD_NODE = '/usr/bin/node';

function run(node: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(node, args, { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

test('npm start and npm run worker go through the plain-JS entry that checks the Node version first', () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  assert.match(scripts.start!, /^node bin\/portico\.js serve\b/);
  assert.match(scripts.worker!, /^node bin\/portico\.js worker\b/);
});

test('on a Node older than 24 the entry says so in one line and exits 1, without a stack trace', async (t) => {
  const version = await run(OLD_NODE, ['--version']).catch(() => null);
  const major = Number(/^v(\d+)/.exec(version?.stdout ?? '')?.[1]);
  if (!major || major >= 24) {
    t.skip(`no Node older than 24 at ${OLD_NODE}`);
    return;
  }
  for (const command of [['serve', '--demo-if-empty'], ['worker'], ['--help']]) {
    const r = await run(OLD_NODE, ['bin/portico.js', ...command]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, `Portico needs Node.js 24.7 or later; this is ${version!.stdout.trim().slice(1)}\n`);
    assert.equal(r.stdout, '');
  }
});
