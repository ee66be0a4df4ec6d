// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { hubPostHeaders } from '../support/http-helpers.ts';

/** Odd input a browser never sends but a person with curl may: a clear 4xx page, never a 500, nothing saved. */
describe('hub: odd input is refused, not a 500', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let companyId: string;
  before(async () => {
    t = await createTestApp();
    const demo = await createTenant(t.c, { passwords: true });
    companyId = demo.companyId;
    const admin = demo.users.find((u) => u.role === 'admin')!;
    headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
  });
  after(async () => {
    await t.close();
  });

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const cases: Array<{
    name: string;
    method: 'GET' | 'POST';
    url: string;
    extra?: Record<string, string>;
    payload?: string;
    status: number;
  }> = [
    {
      name: 'repeated query parameters',
      method: 'GET',
      url: '/hub/catalog/products?q=a&q=b&active=true&active=false',
      status: 200,
    },
    { name: 'an unsafe request with no body at all', method: 'POST', url: '/hub/catalog/models', status: 400 },
    {
      name: 'a JSON body whose field is an object',
      method: 'POST',
      url: '/hub/developer/api-keys',
      extra: { 'content-type': 'application/json' },
      payload: '{"name":{"toString":1}}',
      status: 415,
    },
    {
      name: 'a validity of 10^20 days',
      method: 'POST',
      url: '/hub/company',
      extra: form,
      payload: 'name=Boje&quotationValidityDays=99999999999999999999',
      status: 400,
    },
    {
      name: 'repeated form fields',
      method: 'POST',
      url: '/hub/team',
      extra: form,
      payload: 'email=a%40b.hr&email=c%40d.hr&name=A&role=staff&role=admin',
      status: 400,
    },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const res = await t.app.inject({
        method: c.method,
        url: c.url,
        headers: { ...headers, ...c.extra },
        ...(c.payload === undefined ? {} : { payload: c.payload }),
      });
      assert.equal(res.statusCode, c.status, res.body.slice(0, 300));
      assert.match(String(res.headers['content-type']), /^text\/html/);
    });
  }

  test('the validity refused on the page was not saved, and a quotation still prints its expiry', async () => {
    assert.equal((await t.c.companies.getCompany(companyId)).quotationValidityDays, 30);
  });
});
