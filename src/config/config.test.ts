// test-engines: sqlite
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
  const config = loadConfig({
    WEBHOOK_RETRY_DELAYS_MS: '10, 20,30',
    WORKER: 'off',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  });
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

test('connection limits and SQLite durability have safe defaults', () => {
  const config = loadConfig({});
  assert.equal(config.httpRequestTimeoutMs, 30_000);
  assert.equal(config.httpHeadersTimeoutMs, 10_000);
  assert.equal(config.httpIdleTimeoutMs, 72_000);
  assert.equal(config.httpMaxConnections, 1000);
  assert.equal(config.sqliteSynchronous, 'full');
  assert.equal(loadConfig({ SQLITE_SYNCHRONOUS: 'NORMAL' }).sqliteSynchronous, 'normal');
});

test('a headers timeout longer than the request timeout, or an unknown synchronous mode, is refused', () => {
  assert.throws(
    () => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000', SQLITE_SYNCHRONOUS: 'off' }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/.test(error.message) &&
      /SQLITE_SYNCHRONOUS must be full or normal/.test(error.message),
  );
});

test('the CIS endpoint is https, production by default; FISCAL_CIS_CA must be a readable PEM file', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  assert.equal(loadConfig({}).fiscalCisUrl, 'https://cis.porezna-uprava.hr:8449/FiskalizacijaService');
  assert.equal(loadConfig({}).fiscalCisCa, null);
  assert.equal(loadConfig({}).fiscalWaitMs, 2000);
  const dir = mkdtempSync(join(tmpdir(), 'config-ca-'));
  writeFileSync(join(dir, 'not.pem'), 'hello');
  assert.throws(
    () =>
      loadConfig({
        FISCAL_CIS_URL: 'http://cistest.apis-it.hr:8449/FiskalizacijaServiceTest',
        FISCAL_CIS_CA: join(dir, 'missing.pem'),
      }),
    (error: unknown) =>
      error instanceof ConfigError &&
      /FISCAL_CIS_URL must use https:/.test(error.message) &&
      /FISCAL_CIS_CA must name a readable file/.test(error.message),
  );
  assert.throws(
    () => loadConfig({ FISCAL_CIS_CA: join(dir, 'not.pem') }),
    (error: unknown) => error instanceof ConfigError && /FISCAL_CIS_CA must hold PEM certificates/.test(error.message),
  );
});
