// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';

const execFile = promisify(execFileCallback);

// A print thread holds the renderer (≈ 50 MiB of pdfmake, pdfkit and fontkit) once per thread:
// what else it loads is paid once per thread too, so it loads printing's own files, the labels
// (i18n) and the money and IBAN formatting of lib/, and nothing of the rest of the application
// (services, repositories, the database driver, webhooks).
test('a print thread loads printing, i18n and lib/money and lib/iban only', async () => {
  const src = new URL('../../', import.meta.url).href;
  const worker = new URL('./print-worker.ts', import.meta.url).href;
  const script = `
    import { registerHooks } from 'node:module';
    const loaded = [];
    registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });
    await import(${JSON.stringify(worker)});
    process.stdout.write(JSON.stringify(loaded));
    process.exit(0);`;
  const { stdout } = await execFile(process.execPath, ['--input-type=module', '--eval', script]);
  const files = (JSON.parse(stdout) as string[])
    .filter((url) => url.startsWith(src))
    .map((url) => url.slice(src.length));
  assert.ok(files.includes('modules/printing/print-worker.ts'), files.join('\n'));
  assert.deepEqual(
    files.filter((file) => !/^modules\/(printing|i18n)\/|^lib\/(money|iban)\.ts$/.test(file)),
    [],
  );
});
