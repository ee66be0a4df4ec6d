// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from '../../src/lib/clock.ts';
import { hashPassword, ARGON2_PARAMS } from '../../src/lib/password-hash.ts';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

const ORIGIN = 'http://localhost:80';

/** A browser's worth of cookies over app.inject: a session cookie and the CSRF cookie, with the token read off a page. */
class Agent {
  cookies = new Map<string, string>();
  csrf = '';
  readonly t: TestApp;
  constructor(t: TestApp, token?: string) {
    this.t = t;
    if (token) this.cookies.set('portico_session', token);
  }
  private header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  private keep(response: { headers: Record<string, unknown>; body: string }) {
    const set = response.headers['set-cookie'];
    for (const line of [set ?? []].flat() as string[]) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!, value.join('='));
    }
    const m = /name="_csrf" value="([^"]+)"/.exec(response.body);
    if (m) this.csrf = m[1]!;
  }
  async get(url: string) {
    const response = await this.t.app.inject({ method: 'GET', url, headers: { cookie: this.header() } });
    this.keep(response);
    return response;
  }
  async post(url: string, form: Record<string, string> = {}) {
    const response = await this.t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: this.header(), origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: this.csrf, ...form }).toString(),
    });
    this.keep(response);
    return response;
  }
}

const signedOut = (r: { statusCode: number; headers: Record<string, unknown> }) =>
  r.statusCode === 303 && String(r.headers.location).startsWith('/hub/sign-in');

describe('hub accounts: sessions, passwords, team, reset links', () => {
  let t: TestApp;
  let tenant: DemoCompany;
  let now = Date.parse('2026-11-24T08:00:00Z');
  const clock: Clock = { now: () => new Date(now) };
  const user = (role: string) =>
    tenant.users.find((u) => u.role === role)! as { id: string; email: string; password: string };
  const signIn = async (email: string, password: string) =>
    new Agent(t, (await t.c.accounts.signIn(email, password)).token);

  before(async () => {
    t = await createTestApp({ HUB_SESSION_IDLE_MINUTES: '30', HUB_SESSION_MAX_HOURS: '12' }, { clock });
    tenant = await createTenant(t.c, { passwords: true });
  });
  after(async () => t?.close());

  test('a session ends after 30 idle minutes, and 12 hours after sign-in however busy', async () => {
    const admin = user('admin');
    const idle = await signIn(admin.email, admin.password);
    assert.equal((await idle.get('/hub')).statusCode, 200);
    now += 29 * 60_000;
    assert.equal((await idle.get('/hub')).statusCode, 200, 'used within the idle time');
    now += 29 * 60_000;
    assert.equal((await idle.get('/hub')).statusCode, 200, 'each use restarts the idle time');
    now += 31 * 60_000;
    assert.ok(signedOut(await idle.get('/hub')), 'idle too long');
    assert.ok(signedOut(await idle.get('/hub')), 'and it stays ended');

    const busy = await signIn(admin.email, admin.password);
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      now += 20 * 60_000;
      assert.equal((await busy.get('/hub')).statusCode, 200);
    }
    now += 21 * 60_000;
    assert.ok(signedOut(await busy.get('/hub')), 'past the absolute end');
  });

  test('changing my password needs the current one, checks the rule, and ends my other sessions only', async () => {
    const tenant2 = await createTenant(t.c, { passwords: true });
    const staff = tenant2.users.find((u) => u.role === 'staff')!;
    const here = await signIn(staff.email, staff.password!);
    const elsewhere = await signIn(staff.email, staff.password!);
    await here.get('/hub/account');

    const wrong = await here.post('/hub/account/password', { currentPassword: 'not it at all', newPassword: 'short' });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /id="current-password"[^>]*aria-invalid="true" aria-describedby="current-password-error"/);
    assert.match(wrong.body, /id="new-password"[^>]*aria-invalid="true"/);
    assert.match(wrong.body, /Trenutačna lozinka nije točna/, "in the user's language (the demo company is Croatian)");

    const changed = await here.post('/hub/account/password', {
      currentPassword: staff.password!,
      newPassword: 'ovo je nova lozinka',
    });
    assert.equal(changed.statusCode, 303);
    assert.equal(changed.headers.location, '/hub/account?notice=passwordChanged');
    assert.equal((await here.get('/hub/account')).statusCode, 200, 'the session I used stays');
    assert.ok(signedOut(await elsewhere.get('/hub')), 'the other session ended');
    await assert.rejects(t.c.accounts.signIn(staff.email, staff.password!));
    await t.c.accounts.signIn(staff.email, 'ovo je nova lozinka');
  });

  test('my language: the hub speaks it, and "company" goes back to the company\'s', async () => {
    const support = user('support');
    const agent = await signIn(support.email, support.password);
    await agent.get('/hub/account');
    assert.equal((await agent.post('/hub/account/language', { language: 'de' })).statusCode, 303);
    const german = await agent.get('/hub/account?notice=languageSaved');
    assert.match(german.body, /<html lang="de">/);
    assert.match(german.body, /Sprache gespeichert\./);
    assert.equal((await agent.post('/hub/account/language', { language: 'fr' })).statusCode, 400);
    assert.equal((await agent.post('/hub/account/language', { language: '' })).statusCode, 303);
    assert.match((await agent.get('/hub/account')).body, /<html lang="hr">/);
  });

  test("a password stored with other argon2 parameters is re-hashed with today's at sign-in", async () => {
    const support = user('support');
    const old = await hashPassword(support.password, { memory: 8_192, passes: 1, parallelism: 1 });
    await t.c.store.repos.accounts.setPasswordHash(tenant.companyId, support.id, old);
    await t.c.accounts.signIn(support.email, support.password);
    const stored = (await t.c.store.repos.accounts.findUser(tenant.companyId, support.id))!.password_hash!;
    assert.notEqual(stored, old);
    assert.ok(
      stored.startsWith(
        `$argon2id$v=19$m=${ARGON2_PARAMS.memory},t=${ARGON2_PARAMS.passes},p=${ARGON2_PARAMS.parallelism}$`,
      ),
      stored,
    );
  });

  test('disabling a user ends their sessions at once; the last active admin can be neither disabled nor demoted', async () => {
    const admin = user('admin');
    const staff = user('staff');
    const boss = await signIn(admin.email, admin.password);
    const worker = await signIn(staff.email, staff.password);
    assert.equal((await worker.get('/hub')).statusCode, 200);
    await boss.get('/hub/team');
    const disabled = await boss.post(`/hub/team/${staff.id}/disable`);
    assert.equal(disabled.statusCode, 303);
    assert.ok(signedOut(await worker.get('/hub')), 'the staff session ended');
    await assert.rejects(t.c.accounts.signIn(staff.email, staff.password));
    assert.match((await boss.get('/hub/team')).body, /Onemogućen/);
    assert.equal((await boss.post(`/hub/team/${staff.id}/enable`)).statusCode, 303);
    await t.c.accounts.signIn(staff.email, staff.password);

    const self = await boss.post(`/hub/team/${admin.id}/disable`);
    assert.equal(self.statusCode, 409);
    assert.match(self.body, /barem jednog aktivnog administratora/);
    assert.equal((await boss.post(`/hub/team/${admin.id}/role`, { role: 'staff' })).statusCode, 409);
    assert.equal((await boss.get('/hub')).statusCode, 200, 'still an admin, still signed in');

    // With a second admin, the first may step down.
    const added = await boss.post('/hub/team', {
      email: `second-${Date.now()}@example.com`,
      name: 'Druga Adminica',
      role: 'admin',
    });
    assert.equal(added.statusCode, 200);
    const second = (await t.c.accounts.listTeam(tenant.companyId)).find((u) => u.name === 'Druga Adminica')!;
    assert.equal(second.hasPassword, false);
    assert.equal((await boss.post(`/hub/team/${second.id}/role`, { role: 'support' })).statusCode, 303);
    assert.equal((await boss.post(`/hub/team/${second.id}/role`, { role: 'admin' })).statusCode, 303);
  });

  test('two admins disabling each other at once: one wins, the company keeps an admin', async () => {
    const other = await createTenant(t.c, { passwords: true });
    const first = other.users.find((u) => u.role === 'admin')!;
    const { user: second } = await t.c.accounts.createUser(other.companyId, first.id, {
      email: `b-${Date.now()}@example.com`,
      name: 'B',
      role: 'admin',
    });
    const results = await Promise.allSettled([
      t.c.accounts.setDisabled(other.companyId, second.id, true),
      t.c.accounts.setDisabled(other.companyId, first.id, true),
    ]);
    assert.deepEqual(results.map((r) => r.status).sort(), ['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    assert.equal(refused.reason.code, 'conflict');
    assert.equal(
      (await t.c.accounts.listTeam(other.companyId)).filter((u) => u.role === 'admin' && !u.disabled).length,
      1,
    );
  });

  test('adding a user checks each field and shows the errors beside them', async () => {
    const admin = user('admin');
    const boss = await signIn(admin.email, admin.password);
    await boss.get('/hub/team');
    const bad = await boss.post('/hub/team', { email: user('staff').email, name: ' ', role: 'owner' });
    assert.equal(bad.statusCode, 400);
    for (const id of ['new-email', 'new-name', 'new-role'])
      assert.match(bad.body, new RegExp(`id="${id}"[^>]*aria-invalid="true" aria-describedby="${id}-error"`), id);
  });

  test("a reset link is shown once, works once, not twice and not after 24 hours; using it ends the user's sessions", async () => {
    const admin = user('admin');
    const staff = user('staff');
    const boss = await signIn(admin.email, admin.password);
    const worker = await signIn(staff.email, staff.password);
    await boss.get('/hub/team');
    const shown = await boss.post(`/hub/team/${staff.id}/reset`);
    assert.equal(shown.statusCode, 200);
    const url = /<p class="secret" id="reset-link">http:\/\/localhost(?::80)?(\/hub\/reset\/[\w-]+)<\/p>/.exec(
      shown.body,
    )?.[1];
    assert.ok(url, 'the link is on the page');
    const token = url.split('/').at(-1)!;
    const stored = await t.c.store.repos.accounts.findPasswordReset(token);
    assert.equal(stored, undefined, 'the token itself is not stored, only its hash');
    assert.ok(!(await boss.get('/hub/team')).body.includes(token), 'shown once: the team page does not show it again');

    const visitor = new Agent(t);
    const form = await visitor.get(url);
    assert.equal(form.statusCode, 200);
    assert.match(form.body, new RegExp(staff.email.replace(/[.+]/g, '\\$&')));
    assert.equal((await visitor.post(url, { password: 'too short' })).statusCode, 400);
    const done = await visitor.post(url, { password: 'nova lozinka iz poveznice' });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/hub/reset-done');
    assert.ok(signedOut(await worker.get('/hub')), "the staff user's sessions ended");
    await t.c.accounts.signIn(staff.email, 'nova lozinka iz poveznice');

    const again = await visitor.post(url, { password: 'a second new password' });
    assert.equal(again.statusCode, 410);
    assert.match(again.body, /already been used/);
    await assert.rejects(t.c.accounts.signIn(staff.email, 'a second new password'));
    assert.match((await visitor.get(url)).body, /already been used/);

    const late = await t.c.accounts.createResetLink(tenant.companyId, admin.id, staff.id);
    now += 24 * 3_600_000;
    const expired = await visitor.get(`/hub/reset/${late.token}`);
    assert.equal(expired.statusCode, 410);
    assert.match(expired.body, /has expired/);
    assert.equal(
      (await visitor.post(`/hub/reset/${late.token}`, { password: 'expired link password' })).statusCode,
      410,
    );
    assert.match((await visitor.get('/hub/reset/not-a-token')).body, /not valid/);

    // A new link replaces an unused earlier one.
    const first = await t.c.accounts.createResetLink(tenant.companyId, admin.id, staff.id);
    const second = await t.c.accounts.createResetLink(tenant.companyId, admin.id, staff.id);
    assert.deepEqual(await t.c.accounts.checkResetLink(first.token), { ok: false, reason: 'invalid' });
    assert.equal((await t.c.accounts.checkResetLink(second.token)).ok, true);
  });

  test("staff and support get 403 on the team and company pages, GET and POST; another company's user is not found", async () => {
    for (const role of ['staff', 'support']) {
      const other = await createTenant(t.c, { passwords: true });
      const u = other.users.find((x) => x.role === role)!;
      const agent = await signIn(u.email, u.password!);
      await agent.get('/hub/account');
      assert.equal((await agent.get('/hub/team')).statusCode, 403, `${role} GET /hub/team`);
      assert.equal(
        (await agent.post('/hub/team', { email: 'x@example.com', name: 'X', role: 'admin' })).statusCode,
        403,
        `${role} POST /hub/team`,
      );
      assert.equal(
        (await agent.post(`/hub/team/${u.id}/role`, { role: 'admin' })).statusCode,
        403,
        `${role} POST role`,
      );
      assert.equal((await agent.post(`/hub/team/${u.id}/reset`)).statusCode, 403, `${role} POST reset`);
      assert.equal((await agent.get('/hub/company')).statusCode, 403, `${role} GET /hub/company`);
      assert.equal(
        (await agent.post('/hub/company', { name: 'Mine now' })).statusCode,
        403,
        `${role} POST /hub/company`,
      );
      assert.ok(!(await agent.get('/hub/account')).body.includes('href="/hub/team"'), 'no Team link for them');
    }
    const admin = user('admin');
    const boss = await signIn(admin.email, admin.password);
    await boss.get('/hub/team');
    const stranger = (await createTenant(t.c, { passwords: true })).users[2]!;
    assert.equal((await boss.post(`/hub/team/${stranger.id}/disable`)).statusCode, 404);
    assert.equal((await boss.post(`/hub/team/${stranger.id}/reset`)).statusCode, 404);
    await t.c.accounts.signIn(stranger.email, stranger.password!);
  });

  test('company profile: saved through updateSettings; a bad field is shown beside it and nothing changes', async () => {
    const admin = user('admin');
    const boss = await signIn(admin.email, admin.password);
    const form = await boss.get('/hub/company');
    assert.equal(form.statusCode, 200);
    const before = await t.c.companies.getCompany(tenant.companyId);
    const fields = {
      name: 'Šišić boje d.o.o.',
      street: 'Ilica 1',
      postalCode: '10000',
      city: 'Zagreb',
      country: 'HR',
      taxId: '12345678903',
      locale: 'hr-HR',
      quotationValidityDays: '21',
    };
    const bad = await boss.post('/hub/company', { ...fields, taxId: '12345678900', quotationValidityDays: '0' });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.body, /id="tax-id"[^>]*aria-invalid="true"/);
    assert.match(bad.body, /id="validity"[^>]*aria-invalid="true"/);
    assert.deepEqual(await t.c.companies.getCompany(tenant.companyId), before);
    const ok = await boss.post('/hub/company', fields);
    assert.equal(ok.statusCode, 303, ok.body.slice(0, 500));
    const after = await t.c.companies.getCompany(tenant.companyId);
    assert.equal(after.name, 'Šišić boje d.o.o.');
    assert.deepEqual(after.address, { street: 'Ilica 1', postalCode: '10000', city: 'Zagreb' });
    assert.equal(after.quotationValidityDays, 21);
    assert.deepEqual(after.bankAccount, before.bankAccount, "the bank account is not this page's");
  });
});
