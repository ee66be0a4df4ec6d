// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { computeZki, zkiInput, type ZkiElements } from './zki.ts';

const elements: ZkiElements = {
  oib: '12345678903',
  issuedAt: '25.11.2026 14:05:09',
  sequence: '12',
  premises: 'ZG1',
  device: '1',
  total: '1245.56',
};

test('the ZKI input is the elements in order, without separators', () => {
  assert.equal(zkiInput(elements), '1234567890325.11.2026 14:05:0912ZG111245.56');
});

test('the ZKI equals an independent computation with the openssl command line', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zki-'));
  try {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = path.join(dir, 'key.pem');
    fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
    for (const e of [elements, { ...elements, sequence: '1', premises: 'POSL1', device: '12', total: '-105.50' }]) {
      const input = path.join(dir, 'input.txt');
      fs.writeFileSync(input, zkiInput(e), 'utf8');
      // The specification's recipe, spelled by openssl: SHA1withRSA signature, then its MD5.
      const signature = execFileSync('openssl', ['dgst', '-sha1', '-sign', keyFile, input]);
      const md5 = execFileSync('openssl', ['dgst', '-md5', '-r'], { input: signature }).toString().split(' ')[0];
      const zki = computeZki(createPrivateKey(fs.readFileSync(keyFile)), e);
      assert.match(zki, /^[0-9a-f]{32}$/);
      assert.equal(zki, md5);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('any element changed changes the ZKI', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const base = computeZki(privateKey, elements);
  for (const key of Object.keys(elements) as Array<keyof ZkiElements>)
    assert.notEqual(computeZki(privateKey, { ...elements, [key]: `${elements[key]}0` }), base, key);
});

// Golden values: a fixed key and the specification's example elements (v2.6 chapter 12), hashed
// by the openssl command line once (test/fixtures/fiscal-hr/README.md). RSA PKCS#1 v1.5 is
// deterministic, so the ZKI of fixed input under a fixed key never changes.
const goldenKey = createPrivateKey(
  fs.readFileSync(new URL('../../../test/fixtures/fiscal-hr/zki-golden-key.pem', import.meta.url)),
);

test('golden ZKI with SHA-1 under the signature (the default, specification v2.6 chapter 12)', () => {
  assert.equal(computeZki(goldenKey, elements), 'fa4cdbd26b26a924b4217b92e338575c');
  assert.equal(computeZki(goldenKey, elements, 'sha1'), 'fa4cdbd26b26a924b4217b92e338575c');
});

test('golden ZKI with SHA-256 under the signature (the company setting fiscal.zkiHash)', () => {
  assert.equal(computeZki(goldenKey, elements, 'sha256'), '2dcb37e54b6e03b16068891ecffa5392');
});
