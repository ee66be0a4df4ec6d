// test-engines: both
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';

const ORIGIN = 'http://localhost:80';

/** One sign-in form post as a browser sends it, timed. */
async function signIn(t: TestApp, email: string, password: string) {
  const page = await t.app.inject({ method: 'GET', url: '/hub/sign-in' });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
  const cookie = String(page.headers['set-cookie']).match(/portico_csrf=[^;]+/)![0];
  const started = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: '/hub/sign-in',
    headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: csrf, email, password }).toString(),
  });
  return {
    status: res.statusCode,
    ms: performance.now() - started,
    retryAfter: res.headers['retry-after'],
    body: res.body,
  };
}

test('13 failures, then 14 wrong attempts in parallel with the right password: it is answered within 10 s, and signs in once a place is free', async () => {
  const t = await createTestApp();
  try {
    const tenant = await createTenant(t.c, { passwords: true });
    const owner = tenant.users.find((u) => u.role === 'admin')! as { email: string; password: string };
    for (let i = 0; i < 13; i++) assert.equal((await signIn(t, owner.email, `guess ${i}`)).status, 401);

    const storm = Array.from({ length: 14 }, (_, i) => signIn(t, owner.email, `parallel guess ${i}`));
    const right = await signIn(t, owner.email, owner.password);
    assert.ok(right.ms <= 10_000, `answered in ${Math.round(right.ms)} ms`);
    assert.ok([303, 429].includes(right.status), `signed in or told to try again shortly, not wrong: ${right.status}`);
    if (right.status === 429) {
      assert.ok(Number(right.retryAfter) >= 1);
      assert.match(right.body, /Previše pokušaja|Too many sign-in attempts/);
    }
    const wrong = await Promise.all(storm);
    assert.equal(wrong.filter((w) => w.status === 401).length, 2, 'two were held back and checked');
    assert.equal(wrong.filter((w) => w.status === 429).length, 12, 'the rest were told to try again at once');
    for (const w of wrong.filter((x) => x.status === 429))
      assert.ok(w.ms < 2_000, `busy answered in ${Math.round(w.ms)} ms`);
    const failures = (await t.c.signInThrottle.failures([owner.email])).get(owner.email);
    assert.equal(failures, 15, 'the attempts told to try again did not count');

    // The held ones are done: the owner's next try signs in within one delay.
    const again = await signIn(t, owner.email, owner.password);
    assert.equal(again.status, 303);
    assert.ok(again.ms <= 10_000, `signed in after ${Math.round(again.ms)} ms`);
  } finally {
    await t.close();
  }
});
