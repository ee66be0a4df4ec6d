// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const ORIGIN = 'http://localhost:80';

/** One browser over app.inject: its cookies and the CSRF token read off the last page. */
function browser(t: TestApp) {
  const cookies = new Map<string, string>();
  let csrf = '';
  const keep = <R extends { headers: Record<string, unknown>; body: string }>(response: R): R => {
    for (const line of [response.headers['set-cookie'] ?? []].flat() as string[]) {
      const [name, ...value] = line.split(';')[0]!.split('=');
      cookies.set(name!, value.join('='));
    }
    csrf = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1] ?? csrf;
    return response;
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  return {
    get: async (url: string) => keep(await t.app.inject({ method: 'GET', url, headers: { cookie: cookie() } })),
    async signIn(email: string, password: string) {
      if (!csrf) keep(await t.app.inject({ method: 'GET', url: '/hub/sign-in', headers: { cookie: cookie() } }));
      const started = performance.now();
      const response = keep(
        await t.app.inject({
          method: 'POST',
          url: '/hub/sign-in',
          headers: { cookie: cookie(), origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
        }),
      );
      return { status: response.statusCode, ms: performance.now() - started };
    },
  };
}

describe('hub sign-in: only failures count, and past the limit attempts are slowed, never refused', () => {
  let t: TestApp;
  let tenant: DemoCompany;
  const user = (role: string) => tenant.users.find((u) => u.role === role)! as { email: string; password: string };
  before(async () => {
    t = await createTestApp({ HUB_SIGN_IN_ATTEMPTS: '10' });
    tenant = await createTenant(t.c, { passwords: true });
  });
  after(() => t.close());

  test('eleven correct sign-ins in a row all pass, none held back', async () => {
    const staff = user('staff');
    for (let i = 0; i < 11; i++) {
      const { status } = await browser(t).signIn(staff.email, staff.password);
      assert.equal(status, 303, `sign-in ${i + 1}`);
      // Held back or not is the throttle's decision, read from it rather than timed: a loaded
      // machine's argon2id alone can take as long as a hold.
      const failures = (await t.c.signInThrottle.failures([staff.email])).get(staff.email) ?? 0;
      assert.equal(failures, 0, `sign-in ${i + 1} counted as a failure`);
      assert.equal(t.c.signInThrottle.isSlowed(failures), false, `sign-in ${i + 1} would be held back`);
    }
  });

  test('ten failures, then the right password passes: slowed, not refused; an admin sees it on the team page', async () => {
    const support = user('support');
    const guesser = browser(t);
    for (let i = 0; i < 10; i++) assert.equal((await guesser.signIn(support.email, `guess ${i}`)).status, 401);
    const wrong = await guesser.signIn(support.email, 'guess 11');
    assert.equal(wrong.status, 401, 'a wrong password past the limit is still just wrong');
    assert.ok(wrong.ms >= 1000, `held back ${Math.round(wrong.ms)} ms`);
    const right = await browser(t).signIn(support.email, support.password);
    assert.equal(right.status, 303, 'the right password signs in');
    assert.ok(right.ms >= 1000, `held back ${Math.round(right.ms)} ms`);

    const admin = browser(t);
    assert.equal((await admin.signIn(user('admin').email, user('admin').password)).status, 303);
    const team = await admin.get('/hub/team');
    assert.equal(team.statusCode, 200);
    assert.match(team.body, /Prijava usporena: 11 neuspjelih pokušaja u 15 minuta|Sign-in slowed: 11 failed attempts/);
  });
});

// The shared Redis of every test machine (docs/development.md, Tests); keys are a fresh e-mail's, so tests running at once never meet.
describe('hub sign-in counts are shared through Redis', () => {
  test('failures counted by one instance slow the next attempt on another', async (t) => {
    const redisUrl = 'redis://127.0.0.1:6379';
    const a = await createTestApp({ REDIS_URL: redisUrl, HUB_SIGN_IN_ATTEMPTS: '3' });
    const b = await createTestApp({ REDIS_URL: redisUrl, HUB_SIGN_IN_ATTEMPTS: '3' });
    t.after(async () => {
      await a.close();
      await b.close();
    });
    const email = `nobody-${randomUUID()}@example.com`;
    for (let i = 0; i < 3; i++) assert.equal((await browser(a).signIn(email, 'wrong password 1')).status, 401);
    const other = await browser(b).signIn(email, 'wrong password 2');
    assert.equal(other.status, 401);
    assert.ok(other.ms >= 1000, `the other instance held it back ${Math.round(other.ms)} ms`);
  });
});
