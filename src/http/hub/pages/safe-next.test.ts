// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { safeNext } from './sign-in.page.ts';

test('after sign-in only a path inside the hub is followed: no other host, scheme, backslash or control character', () => {
  for (const ok of ['/hub', '/hub/quotations', '/hub/quotations?q=Kova%C4%8D&status=open', '/hub/sales/sale_1'])
    assert.equal(safeNext(ok), ok);
  for (const bad of [
    '//evil.example/hub',
    'https://evil.example/hub',
    '/hubx',
    '/hub\\@evil.example',
    '/hub/\r\nX-Evil: 1',
    '/hub/a b',
    '/hub?\n',
    '/api/v1/admin',
    '',
    null,
    ['/hub'],
    42,
  ]) {
    assert.equal(safeNext(bad), '/hub', JSON.stringify(bad));
  }
});
