import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from './config.ts';

test('defaults give an embedded SQLite setup', () => {
  const config = loadConfig({});
  assert.equal(config.databaseUrl, 'sqlite:./data/portico.sqlite');
  assert.equal(config.port, 3000);
  assert.equal(config.rateLimitPerMinute, 600);
  assert.equal(config.worker, true);
  assert.equal(config.redisUrl, null);
  assert.ok(Object.isFrozen(config));
});

test('a bad value names the variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', WEBHOOK_RETRY_DELAYS_MS: '5,x' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /PORT must be an integer/.test(error.message) &&
      /DATABASE_URL must start with sqlite: or postgres/.test(error.message) &&
      /WEBHOOK_RETRY_DELAYS_MS/.test(error.message),
  );
});

test('parses lists and booleans', () => {
  const config = loadConfig({ WEBHOOK_RETRY_DELAYS_MS: '10, 20,30', WORKER: 'off', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
  assert.deepEqual(config.webhookRetryDelaysMs, [10, 20, 30]);
  assert.equal(config.worker, false);
  assert.equal(config.webhookAllowPrivateTargets, true);
});

test('every variable is documented in the README table', async () => {
  const { readFile } = await import('node:fs/promises');
  const { CONFIG_SPEC } = await import('./config.ts');
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const missing = Object.keys(CONFIG_SPEC).filter((name) => !readme.includes(`| \`${name}\` |`));
  assert.deepEqual(missing, []);
});
