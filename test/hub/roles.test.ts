// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { can } from '../../src/http/access.ts';
import { HUB_ROUTES } from '../../src/http/hub/index.ts';
import { USER_ROLES, type UserRole } from '../../src/modules/companies/index.ts';
import { bearer, createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { csrfOf } from '../support/http-helpers.ts';

const ORIGIN = 'http://localhost:80';
// An empty form, as a browser posts one (a JSON body is a 415 in the hub).
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** A signed-in user under inject: the session cookie, and a CSRF token with its secret cookie. */
async function session(t: TestApp, email: string, password: string) {
  const { token } = await t.c.accounts.signIn(email, password);
  const home = await t.app.inject({ method: 'GET', url: '/hub', headers: { cookie: `portico_session=${token}` } });
  assert.equal(home.statusCode, 200);
  const csrf = csrfOf(home);
  return { cookie: `portico_session=${token}; ${csrf.cookie}`, csrf: csrf.token };
}

/**
 * The "Roles" of docs/hub.md over every hub page, as over every admin route: each page and action names
 * its permission (config.hub), and a role without it gets 403 on GET and on a well-formed POST
 * (right origin, valid CSRF token); a role with it gets anything but 403, and never a 500.
 */
describe('roles: who may open which hub page', () => {
  let t: TestApp;
  let sessions: Record<UserRole, { cookie: string; csrf: string }>;
  let apiKey: string;
  before(async () => {
    t = await createTestApp();
    const demo = await createTenant(t.c, { passwords: true });
    apiKey = demo.locations[0]!.apiKey;
    const of = (role: UserRole) => demo.users.find((u) => u.role === role)!;
    sessions = {
      admin: await session(t, of('admin').email, of('admin').password!),
      staff: await session(t, of('staff').email, of('staff').password!),
      support: await session(t, of('support').email, of('support').password!),
    };
  });
  after(async () => {
    await t.close();
  });

  test('each role gets 403 exactly where the role table refuses it, on pages and on actions', async () => {
    const routes = [...new Map(HUB_ROUTES.map((r) => [`${r.method} ${r.url}`, r])).values()].filter(
      (r) => r.access !== 'public' && r.url !== '/hub/sign-out',
    );
    assert.ok(routes.length >= 1, `found ${routes.length} hub routes`);
    for (const route of routes) {
      const url = route.url.replace(/:\w+/g, 'nope_0000000000');
      for (const role of USER_ROLES) {
        const { cookie, csrf } = sessions[role];
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { cookie, origin: ORIGIN, 'x-csrf-token': csrf, ...(route.method === 'GET' ? {} : FORM) },
          ...(route.method === 'GET' ? {} : { payload: '' }),
        });
        const refused = route.access !== 'signed-in' && route.access !== 'public' && !can(role, route.access);
        const where = `${role} ${route.method} ${route.url} (${route.access})`;
        if (refused) assert.equal(res.statusCode, 403, where);
        else {
          assert.notEqual(res.statusCode, 403, where);
          assert.ok(res.statusCode < 500, `${where}: ${res.statusCode}`);
        }
      }
    }
  });

  test('staff read the inquiries (menu and list) but not the spam folder', async () => {
    const staff = sessions.staff;
    const list = await t.app.inject({ method: 'GET', url: '/hub/inquiries', headers: { cookie: staff.cookie } });
    assert.equal(list.statusCode, 200);
    assert.match(list.body, /<a[^>]+href="\/hub\/inquiries"/, 'the menu names the inquiries');
    assert.doesNotMatch(list.body, /folder=spam/, 'no way to the spam folder');
    const spam = await t.app.inject({
      method: 'GET',
      url: '/hub/inquiries?folder=spam',
      headers: { cookie: staff.cookie },
    });
    assert.equal(spam.statusCode, 403);
    const support = await t.app.inject({
      method: 'GET',
      url: '/hub/inquiries?folder=spam',
      headers: { cookie: sessions.support.cookie },
    });
    assert.equal(support.statusCode, 200);
  });

  test('a location API key opens nothing in the hub', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/hub', headers: bearer(apiKey) });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/hub/sign-in?next=%2Fhub');
  });

  test('an unsafe request needs both the right Origin and a valid token of this user', async () => {
    const admin = sessions.admin;
    const signOut = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/hub/sign-out',
        headers: { cookie: admin.cookie, ...FORM, ...headers },
        payload: '',
      });
    assert.equal((await signOut({ 'x-csrf-token': admin.csrf })).statusCode, 403, 'no Origin');
    assert.equal(
      (await signOut({ origin: 'http://127.0.0.1:9', 'x-csrf-token': admin.csrf })).statusCode,
      403,
      'another origin',
    );
    assert.equal((await signOut({ origin: ORIGIN })).statusCode, 403, 'no token');
    assert.equal(
      (await signOut({ origin: ORIGIN, 'x-csrf-token': sessions.staff.csrf })).statusCode,
      403,
      "another user's token",
    );
    assert.equal(
      (await signOut({ origin: ORIGIN, 'x-csrf-token': admin.csrf })).statusCode,
      303,
      'both right: signed out',
    );
  });
});
