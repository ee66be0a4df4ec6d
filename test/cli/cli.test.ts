// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/main/cli.ts';
import { createTestApp, bearer, type TestApp } from '../support/test-app.ts';
import { waitFor } from '../support/http-helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const COMMANDS = [
  'serve',
  'worker',
  'migrate',
  'demo',
  'company create',
  'company list',
  'company update',
  'location create',
  'user create',
  'user set-password',
  'admin-token create',
  'api-key create',
  'api-key list',
  'api-key revoke',
  'catalog import',
];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('the portico CLI', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let app: TestApp | undefined;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-cli-'));
    const databaseUrl = process.env.TEST_DATABASE_URL ?? `sqlite:${path.join(dir, 'cli.sqlite')}`;
    // The compile cache halves the start-up of each child (its TypeScript is parsed once, not per run).
    env = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      NODE_COMPILE_CACHE: path.join(os.tmpdir(), 'portico-test-compile-cache'),
    };
  });
  after(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** `portico <args>` as a process of its own, as an operator runs it (the timeout only guards a hang). */
  function spawnCli(args: string[], script = 'src/main/cli.ts'): Promise<Run> {
    return new Promise((resolve) => {
      execFile(process.execPath, [script, ...args], { cwd: ROOT, env, timeout: 120_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }
  /**
   * `portico <args>` in this process, with the same settings, output and exit code: the commands'
   * work is under test here, and a process per command cost seconds of CPU each (the first test
   * runs real processes, for what only a process shows: the exit code, bin/portico.js).
   */
  async function run(args: string[]): Promise<Run> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env,
    });
    return { code, stdout, stderr };
  }
  async function ok(args: string[]): Promise<any> {
    const r = await run(args);
    assert.equal(r.code, 0, `portico ${args.join(' ')} → ${r.code}: ${r.stderr}`);
    return r.stdout;
  }
  const okJson = async (args: string[]) => JSON.parse(await ok(args));
  /** An API server on the CLI's database, to prove what the CLI printed really works. */
  async function server(): Promise<TestApp> {
    app ??= await createTestApp({ DATABASE_URL: env.DATABASE_URL! });
    return app;
  }

  test('--help (also through bin/portico.js) lists every command; usage mistakes exit 2 with one line on stderr', async () => {
    // Few processes, run side by side: each start loads the whole application.
    const [help, binHelp, unknown, missing] = await Promise.all([
      spawnCli(['--help']),
      spawnCli(['--help'], 'bin/portico.js'),
      spawnCli(['frobnicate']),
      spawnCli(['company', 'create', '--currency', 'EUR']),
    ]);
    for (const r of [help, binHelp]) {
      assert.equal(r.code, 0, r.stderr);
      for (const command of COMMANDS) assert.ok(r.stdout.includes(command), `help mentions "${command}"`);
    }
    assert.equal(binHelp.stdout, help.stdout);
    for (const [r, mention] of [
      [unknown, 'frobnicate'],
      [missing, '--name'],
    ] as const) {
      assert.equal(r.code, 2, `exit code: ${r.stderr}`);
      assert.equal(r.stdout, '');
      const lines = r.stderr.trimEnd().split('\n');
      assert.equal(lines.length, 1, `one line on stderr: ${r.stderr}`);
      assert.ok(lines[0]!.includes(mention), lines[0]);
      assert.doesNotMatch(r.stderr, /\bat .*\(/, 'no stack trace');
    }
  });

  const withoutSignerCa = (e: NodeJS.ProcessEnv) => {
    delete e.FISCAL_CIS_SIGNER_CA;
    delete e.FISCAL_CIS_CA;
    return e;
  };
  test('demo --json prints one complete tenant, new on every call, whose keys work; its stdout is the JSON alone', async () => {
    // As an operator runs it, logging warnings (this test's settings leave FISCAL_CIS_SIGNER_CA
    // unset, which the container warns about at start): the warning goes to stderr, and stdout
    // parses whole, as `portico demo --json | jq` reads it.
    const warned = await new Promise<Run>((resolve) =>
      execFile(
        process.execPath,
        ['src/main/cli.ts', 'demo', '--json'],
        { cwd: ROOT, env: withoutSignerCa({ ...env, LOG_LEVEL: 'warn' }), timeout: 120_000 },
        (error, stdout, stderr) => resolve({ code: error ? -1 : 0, stdout, stderr }),
      ),
    );
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /FISCAL_CIS_SIGNER_CA is not set/, 'the warning is still said, on stderr');
    assert.doesNotMatch(warned.stdout, /FISCAL_CIS_SIGNER_CA/);
    assert.match(JSON.parse(warned.stdout).companyId, /^cmp_/, 'stdout is the JSON and nothing else');
    const [out1, out2] = await Promise.all([ok(['demo', '--json']), ok(['demo', '--json'])]);
    const demo2 = JSON.parse(out2);
    assert.equal(out1.trimEnd().split('\n').length, 1, 'one line of JSON');
    const demo = JSON.parse(out1);
    assert.match(demo.companyId, /^cmp_/);
    assert.match(demo.adminToken, /^pta_/);
    for (const role of ['admin', 'support', 'staff'])
      assert.ok(demo.users.filter((u: any) => u.role === role).length >= 1, role);
    assert.ok(demo.locations.length >= 2);
    for (const l of demo.locations) assert.match(l.apiKey, /^ptc_/);
    assert.ok(demo.categories.length >= 2 && demo.models.length >= 2);
    const products = demo.products as Array<{
      name: string;
      categoryId: string | null;
      modelId: string | null;
      hasDatasheet: boolean;
      units: Array<{ price: string }>;
    }>;
    assert.ok(products.length >= 6);
    assert.ok(new Set(products.map((p) => p.categoryId).filter(Boolean)).size >= 2, 'two or more categories');
    assert.ok(new Set(products.map((p) => p.modelId).filter(Boolean)).size >= 2, 'two or more models');
    assert.ok(products.some((p) => p.hasDatasheet));
    assert.ok(products.some((p) => p.units.length >= 2));
    for (const price of products.flatMap((p) => p.units.map((u) => u.price))) assert.match(price, /^\d+\.\d{2}$/);
    assert.ok(products.some((p) => p.units.some((u) => u.price === '12.40')));
    assert.ok(
      products.some((p) => /[^\x00-\x7f]/.test(p.name)),
      'non-ASCII names',
    );

    assert.notEqual(demo2.companyId, demo.companyId);
    assert.notEqual(demo2.locations[0].apiKey, demo.locations[0].apiKey);

    const { app: http } = await server();
    const products1 = await http.inject({
      method: 'GET',
      url: '/api/v1/public/products?limit=100',
      headers: bearer(demo.locations[1].apiKey),
    });
    assert.equal(products1.statusCode, 200, products1.body);
    assert.deepEqual(
      products1
        .json()
        .data.map((p: any) => p.id)
        .sort(),
      products.map((p: any) => p.id).sort(),
    );
    const inquiries = await http.inject({
      method: 'GET',
      url: '/api/v1/admin/inquiries',
      headers: bearer(demo.adminToken),
    });
    assert.equal(inquiries.statusCode, 200);
  });

  test('company, location, user, api-key create / list / revoke end to end', async () => {
    const company = await okJson(['company', 'create', '--name', 'Željezarija Test', '--currency', 'eur']);
    assert.match(company.id, /^cmp_/);
    assert.equal(company.name, 'Željezarija Test');
    assert.equal(company.currency, 'EUR');

    const location = await okJson(['location', 'create', '--company', company.id, '--name', 'Osijek', '--code', 'OS1']);
    assert.match(location.id, /^loc_/);
    assert.equal(location.companyId, company.id);
    assert.equal(location.code, 'OS1');

    const user = await okJson([
      'user',
      'create',
      '--company',
      company.id,
      '--email',
      'boss@example.com',
      '--name',
      'Boss',
      '--role',
      'admin',
      '--password',
      'correct horse battery',
    ]);
    assert.match(user.id, /^usr_/);
    assert.equal(user.role, 'admin');
    assert.ok(!JSON.stringify(user).includes('correct horse battery'), 'the password is never printed');

    const key = await okJson([
      'api-key',
      'create',
      '--company',
      company.id,
      '--location',
      location.id,
      '--name',
      'Web shop',
    ]);
    assert.match(key.key, /^ptc_/);
    assert.equal(key.locationId, location.id);
    assert.equal(key.name, 'Web shop');

    const list = await okJson(['api-key', 'list', '--company', company.id]);
    assert.ok(Array.isArray(list));
    assert.deepEqual(
      list.map((k: any) => k.id),
      [key.id],
    );
    assert.equal(list[0].revokedAt, null);
    assert.ok(!JSON.stringify(list).includes(key.key.split('_').at(-1)), 'the list never shows the secret');

    const { app: http, c } = await server();
    const categories = () => http.inject({ method: 'GET', url: '/api/v1/public/categories', headers: bearer(key.key) });
    assert.equal((await categories()).statusCode, 200, 'the new key works');

    const revoked = await run(['api-key', 'revoke', '--company', company.id, '--id', key.id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout.trim(), 'revoked');
    // On SQLite at once; on PostgreSQL when the revoking statement's NOTIFY reaches the server's cache.
    await waitFor('the revoked key refused', async () => ((await categories()).statusCode === 401 ? true : undefined));
    const after = await c.apiKeys.listApiKeys(company.id);
    assert.ok(after[0]!.revokedAt, 'it is stored as revoked');
  });

  test('company update sets the profile (checked like the settings API); company list finds the id without SQL', async () => {
    const company = await okJson(['company', 'create', '--name', 'Profil d.o.o.', '--locale', 'hr', '--country', 'hr']);
    assert.equal(company.locale, 'hr');
    assert.equal(company.country, 'HR');
    const updated = await okJson([
      'company',
      'update',
      '--company',
      company.id,
      '--street',
      'Savska cesta 41',
      '--postal-code',
      '10000',
      '--city',
      'Zagreb',
      '--tax-id',
      '12345678903',
      '--locale',
      'hr-hr',
      '--iban',
      'HR12 1001 0051 8630 0016 0',
      '--holder',
      'Profil d.o.o.',
      '--bic',
      'zabahr2x',
      '--payment-instructions',
      'Poziv na broj: {number}',
    ]);
    assert.deepEqual(updated.address, { street: 'Savska cesta 41', postalCode: '10000', city: 'Zagreb' });
    assert.equal(updated.taxId, '12345678903');
    assert.equal(updated.locale, 'hr-HR');
    assert.deepEqual(updated.bankAccount, { iban: 'HR1210010051863000160', bic: 'ZABAHR2X', holder: 'Profil d.o.o.' });
    assert.equal(updated.template.paymentInstructions, 'Poziv na broj: {number}');

    // Every bad field at once, named, and nothing changed.
    const bad = await run([
      'company',
      'update',
      '--company',
      company.id,
      '--iban',
      'HR1210010051863000161',
      '--holder',
      'X',
      '--locale',
      'fr-FR',
      '--payment-instructions',
      '{iban}',
    ]);
    assert.equal(bad.code, 1);
    for (const field of ['bankAccount.iban', 'locale', 'printTemplate.paymentInstructions'])
      assert.match(bad.stderr, new RegExp(field.replace('.', '\\.')));
    const cleared = await okJson(['company', 'update', '--company', company.id, '--no-bank-account']);
    assert.equal(cleared.bankAccount, null);
    assert.equal(cleared.locale, 'hr-HR', 'the refused update changed nothing');
    const usage = await run(['company', 'update', '--company', company.id]);
    assert.equal(usage.code, 2);

    const list = await okJson(['company', 'list']);
    const listed = list.find((entry: any) => entry.id === company.id);
    assert.deepEqual(listed && { name: listed.name, country: listed.country, locale: listed.locale }, {
      name: 'Profil d.o.o.',
      country: 'HR',
      locale: 'hr-HR',
    });
  });
});
