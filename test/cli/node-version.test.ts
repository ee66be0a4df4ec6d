// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
// An older Node, as the entry sees one: this Node with its version reported as 20 (the entry
// reads only process.versions.node). The test then runs on every machine, instead of needing an
// old Node installed beside the new one.
const AS_NODE_20 = `data:text/javascript,Object.defineProperty(process,"versions",{value:{...process.versions,node:"20.11.1"}})`;

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

test('on a Node older than 24 the entry says so in one line and exits 1, without a stack trace', async () => {
  for (const command of [['serve', '--demo-if-empty'], ['worker'], ['--help']]) {
    const r = await run(process.execPath, ['--import', AS_NODE_20, 'bin/portico.js', ...command]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr, 'Portico needs Node.js 24.7 or later; this is 20.11.1\n');
    assert.equal(r.stdout, '');
  }
});
