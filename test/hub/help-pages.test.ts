// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GUIDES, HELP_LINKS } from '../../src/http/hub/help/guides.ts';
import { paths } from '../../src/http/hub/paths.ts';
import { USER_ROLES, type UserRole } from '../../src/modules/companies/index.ts';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';

/**
 * /hub/help for every signed-in role: the index lists every guide in the reader's language, a
 * guide renders in the hub's layout and CSP, an unknown name is a 404, and the pages that carry a
 * Help link carry the one HELP_LINKS gives them.
 */
describe('help pages in the hub', () => {
  let t: TestApp;
  const cookies = {} as Record<UserRole, string>;
  before(async () => {
    t = await createTestApp();
    const demo = await createTenant(t.c, { passwords: true });
    for (const role of USER_ROLES) {
      const user = demo.users.find((u) => u.role === role)!;
      cookies[role] = `portico_session=${(await t.c.accounts.signIn(user.email, user.password!)).token}`;
    }
  });
  after(async () => {
    await t.close();
  });
  const get = (url: string, role: UserRole = 'admin') =>
    t.app.inject({ method: 'GET', url, headers: { cookie: cookies[role] } });

  test('every role reads the index and a guide; the menu links to help', async () => {
    for (const role of USER_ROLES) {
      const index = await get(paths.help, role);
      assert.equal(index.statusCode, 200, role);
      for (const g of GUIDES) assert.ok(index.body.includes(`href="${paths.helpGuide(g)}"`), `${role}: ${g} listed`);
      assert.match(index.body, /<nav[\s\S]*href="\/hub\/help"[\s\S]*<\/nav>/, 'in the navigation');
      const guide = await get(paths.helpGuide('fiscalisation-hr'), role);
      assert.equal(guide.statusCode, 200, role);
    }
  });

  test('a guide in the layout: its headings with ids, English marked, the CSP kept; the index in the reader language', async () => {
    const res = await get(paths.helpGuide('fiscalisation-hr'));
    assert.match(res.headers['content-security-policy'] as string, /default-src 'self'/);
    assert.match(res.body, /<html lang="hr">/);
    assert.match(res.body, /<article class="help-guide" lang="en">/);
    assert.match(res.body, /<h2 id="fiscalisation-croatia">Fiscalisation \(Croatia\)<\/h2>/);
    assert.match(res.body, /<div class="table-box" role="region"/);
    assert.match(res.body, /Upute su napisane na engleskom jeziku\./);
    const index = await get(paths.help);
    assert.match(index.body, /Fiskalizacija u Hrvatskoj/);
  });

  test('an unknown guide, or a path to another file, is a 404', async () => {
    for (const url of ['/hub/help/README', '/hub/help/lint', '/hub/help/..%2Fpackage.json', '/hub/help/incoming-hr5'])
      assert.equal((await get(url)).statusCode, 404, url);
  });

  test('the pages with a Help link show the one of the link table', async () => {
    const pages: Array<[string, keyof typeof HELP_LINKS]> = [
      [paths.fiscal, 'fiscal'],
      [paths.exchange, 'exchange'],
      [paths.purchases, 'purchases'],
      [paths.drawer, 'drawer'],
      [paths.counter, 'counter'],
      [paths.reports, 'reports'],
      [paths.developer, 'apiKeys'],
    ];
    for (const [url, topic] of pages) {
      const res = await get(url);
      assert.equal(res.statusCode, 200, url);
      const { guide, anchor } = HELP_LINKS[topic];
      assert.ok(res.body.includes(`href="${paths.helpGuide(guide, anchor)}"`), `${url} links to ${guide}#${anchor}`);
    }
  });
});
