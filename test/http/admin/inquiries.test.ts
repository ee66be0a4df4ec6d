// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import {
  ISO_MS_UTC,
  assertProblem,
  listAllInquiries,
  reachOut,
  tokenForRole,
  validReachOut,
  type Res,
} from '../../support/http-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/index.ts';
import type { App } from '../../../src/http/build-app.ts';

type Item = Record<string, any>;

async function list(app: App, token: string, query: string): Promise<{ data: Item[]; nextCursor: string | null }> {
  const res = await app.inject({ method: 'GET', url: `/api/v1/admin/notifications${query}`, headers: bearer(token) });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

/** Pages through /admin/inquiries with `limit`, returning each page. */
async function pages(
  app: App,
  token: string,
  limit: number,
): Promise<Array<{ data: Item[]; nextCursor: string | null }>> {
  const out = [];
  let cursor: string | null = null;
  do {
    const res: Res = await app.inject({
      method: 'GET',
      url: `/api/v1/admin/inquiries?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      headers: bearer(token),
    });
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json();
    out.push(page);
    cursor = page.nextCursor;
    assert.ok(out.length <= 10, 'pagination ends');
  } while (cursor);
  return out;
}

// Ties on createdAt are ordered by id in the database's collation, so only the time order is checked here.
const newestFirst = (x: Item, y: Item) => (x.createdAt === y.createdAt ? 0 : x.createdAt < y.createdAt ? 1 : -1);

describe('notifications and inquiry pages', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('a reach-out notifies the admin and the support user once each, not the staff user; each marks only their own read', async () => {
    const demo = await createTenant(t.c);
    const admin = demo.adminToken;
    const support = await tokenForRole(t.c, demo, 'support');
    const staff = await tokenForRole(t.c, demo, 'staff');

    const res = await reachOut(
      t.app,
      demo.locations[0]!.apiKey,
      validReachOut({ subject: 'Colour chart', topic: 'Paint', name: 'Ana Kovač' }),
    );
    assert.equal(res.statusCode, 201, res.body);
    const inquiryId = res.json().data.id;

    const mine: Record<string, Item> = {};
    for (const [role, token] of [
      ['admin', admin],
      ['support', support],
    ] as const) {
      const unread = await list(t.app, token, '?unread=true');
      assert.equal(unread.data.length, 1, `${role} has exactly one unread notification`);
      const note = unread.data[0]!;
      assert.equal(note.kind, 'inquiry.created');
      assert.deepEqual(note.subject, { type: 'inquiry', id: inquiryId });
      assert.match(note.title, /Colour chart/);
      assert.equal(note.readAt, null);
      assert.match(note.createdAt, ISO_MS_UTC);
      mine[role] = note;
    }
    assert.notEqual(mine.admin!.id, mine.support!.id, 'one notification per user');
    assert.deepEqual((await list(t.app, staff, '')).data, [], 'staff are not notified');
    assert.deepEqual((await list(t.app, staff, '?unread=true')).data, []);

    // Nobody else can mark a user's notification: not the staff user, not the other recipient.
    for (const token of [staff, support]) {
      const denied = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/notifications/${mine.admin!.id}/read`,
        headers: bearer(token),
      });
      assertProblem(denied, 404, 'not_found');
    }
    assert.equal((await list(t.app, admin, '?unread=true')).data.length, 1, 'still unread after the refused attempts');

    const read = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/notifications/${mine.admin!.id}/read`,
      headers: bearer(admin),
    });
    assert.equal(read.statusCode, 200, read.body);
    const readAt = read.json().data.readAt;
    assert.match(readAt, ISO_MS_UTC);
    assert.equal(read.json().data.id, mine.admin!.id);

    assert.deepEqual((await list(t.app, admin, '?unread=true')).data, [], 'it left the unread list');
    const all = await list(t.app, admin, '');
    assert.equal(all.data.length, 1, 'it is still in the full list');
    assert.equal(all.data[0]!.readAt, readAt);
    assert.equal((await list(t.app, support, '?unread=true')).data.length, 1, "the support user's copy is untouched");

    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/notifications/${mine.admin!.id}/read`,
      headers: bearer(admin),
    });
    assert.equal(again.statusCode, 200);
    assert.equal(again.json().data.readAt, readAt, 'marking read twice keeps the first time');
    assertProblem(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/notifications/ntf_doesnotexist/read',
        headers: bearer(admin),
      }),
      404,
      'not_found',
    );
  });

  test("a burst of concurrent reach-outs from two companies: every inquiry stored once, with its own company's notifications only", async () => {
    // Concurrent inquiries share transactions (group commit); nothing may leak between them.
    const a = await createTenant(t.c);
    const b = await createTenant(t.c);
    const sent = Array.from({ length: 40 }, (_, i) => ({
      tenant: i % 2 ? b : a,
      body: validReachOut({ subject: `Burst ${i}` }),
    }));
    const responses = await Promise.all(
      sent.map((s, i) => reachOut(t.app, s.tenant.locations[i % 4 < 2 ? 0 : 1]!.apiKey, s.body)),
    );
    const ids = responses.map((res) => {
      assert.equal(res.statusCode, 201, res.body);
      return res.json().data.id as string;
    });
    assert.equal(new Set(ids).size, 40);
    // Straight from the tables: the API filters by company, so it would hide a cross-company row.
    const rows = await t.c.database.db
      .selectFrom('notifications')
      .innerJoin('users', 'users.id', 'notifications.user_id')
      .select([
        'notifications.company_id as company',
        'users.company_id as userCompany',
        'notifications.subject_id as inquiry',
      ])
      .where('notifications.subject_id', 'in', ids)
      .execute();
    assert.equal(rows.length, 40 * 2, 'an admin and a support user per inquiry');
    for (const row of rows) {
      assert.equal(row.userCompany, row.company, "recipients belong to the inquiry's company");
      assert.equal(row.company, sent[ids.indexOf(row.inquiry!)]!.tenant.companyId);
    }
    for (const tenant of [a, b]) {
      const mine = sent.flatMap((s, i) => (s.tenant === tenant ? [ids[i]!] : []));
      for (const role of ['admin', 'support'] as const) {
        const token = role === 'admin' ? tenant.adminToken : await tokenForRole(t.c, tenant, role);
        const seen = (await list(t.app, token, '?limit=100')).data
          .filter((n) => n.subject?.type === 'inquiry')
          .map((n) => n.subject.id);
        assert.deepEqual([...seen].sort(), [...mine].sort(), `${role} sees one notification per own inquiry`);
      }
    }
  });

  test('inquiries page newest first with nextCursor: no duplicates, all seen, last page ends with null', async () => {
    const demo = await createTenant(t.c);
    const created: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await reachOut(t.app, demo.locations[i % 2]!.apiKey, validReachOut({ subject: `Inquiry ${i}` }));
      assert.equal(res.statusCode, 201, res.body);
      created.push(res.json().data.id);
    }
    const result = await pages(t.app, demo.adminToken, 2);
    assert.deepEqual(
      result.map((p) => p.data.length),
      [2, 2, 1],
    );
    assert.ok(result.slice(0, -1).every((p) => typeof p.nextCursor === 'string' && p.nextCursor.length > 0));
    assert.equal(result.at(-1)!.nextCursor, null);
    const seen = result.flatMap((p) => p.data);
    assert.equal(new Set(seen.map((i) => i.id)).size, 5, 'no duplicates');
    assert.deepEqual(seen.map((i) => i.id).sort(), [...created].sort(), 'all five seen');
    assert.deepEqual(seen, [...seen].sort(newestFirst), 'newest first');
    assert.ok(seen[0]!.createdAt >= seen[4]!.createdAt);

    const exact = await pages(t.app, demo.adminToken, 5);
    assert.equal(exact.length, 1, 'a page that holds everything has no next page');
    assert.equal(exact[0]!.nextCursor, null);
    assertProblem(
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/admin/inquiries?cursor=garbage',
        headers: bearer(demo.adminToken),
      }),
      400,
      'validation_failed',
    );
    assertProblem(
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/inquiries?limit=0', headers: bearer(demo.adminToken) }),
      400,
      'validation_failed',
    );
  });

  test('pages stay exact when every inquiry has the same timestamp (ties broken by id)', async () => {
    const frozen = new Date('2026-03-01T10:00:00.000Z');
    const ft = await createTestApp({}, { clock: { now: () => new Date(frozen) } });
    try {
      const demo = await createTenant(ft.c);
      const created: string[] = [];
      for (let i = 0; i < 5; i++)
        created.push((await reachOut(ft.app, demo.locations[0]!.apiKey, validReachOut())).json().data.id);
      const result = await pages(ft.app, demo.adminToken, 2);
      const seen = result.flatMap((p) => p.data.map((i) => i.id));
      assert.deepEqual([...seen].sort(), [...created].sort(), 'every id exactly once');
      const onePage = (await pages(ft.app, demo.adminToken, 100))[0]!.data.map((i) => i.id);
      assert.deepEqual(seen, onePage, 'pages follow the same order as one big page');
      assert.equal(result.at(-1)!.nextCursor, null);
    } finally {
      await ft.close();
    }
  });
});

describe("tenancy: one company never sees another's inquiries or notifications", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
  // Every test makes its own two tenants, so no test depends on another's data.
  const tenants = async (): Promise<[DemoCompany, DemoCompany]> => [await createTenant(t.c), await createTenant(t.c)];

  test("inquiries: B's admin and support users never see A's, by list or by id", async () => {
    const [a, b] = await tenants();
    const fromA = await reachOut(t.app, a.locations[0]!.apiKey, validReachOut({ subject: 'Only for A' }));
    assert.equal(fromA.statusCode, 201);
    const fromB = await reachOut(t.app, b.locations[1]!.apiKey, validReachOut({ subject: 'Only for B' }));
    assert.equal(fromB.statusCode, 201);
    const idA = fromA.json().data.id;
    const idB = fromB.json().data.id;

    const listA = await listAllInquiries(t.app, a.adminToken);
    const listB = await listAllInquiries(t.app, b.adminToken);
    assert.ok(
      listA.some((i) => i.id === idA),
      'A sees its own inquiry',
    );
    assert.ok(
      listB.some((i) => i.id === idB),
      'B sees its own inquiry',
    );
    assert.ok(!listB.some((i) => i.id === idA), "B never lists A's inquiry");
    assert.ok(!listA.some((i) => i.id === idB), "A never lists B's inquiry");
    const locationsA = new Set(a.locations.map((l) => l.id));
    assert.ok(listB.every((i) => !locationsA.has(i.locationId)));

    for (const token of [b.adminToken, await tokenForRole(t.c, b, 'support')]) {
      const res = await get(`/api/v1/admin/inquiries/${idA}`, token);
      const problem = assertProblem(res, 404, 'not_found');
      assert.ok(!res.body.includes('Only for A'));
      assert.ok(!JSON.stringify(problem).includes(a.companyId), 'the 404 does not reveal the owner');
    }
    assert.equal((await get(`/api/v1/admin/inquiries/${idA}`, a.adminToken)).statusCode, 200);
  });

  test("notifications: B's users are never told of A's inquiries and cannot mark A's notifications read", async () => {
    const [a, b] = await tenants();
    const fromA = await reachOut(t.app, a.locations[1]!.apiKey, validReachOut({ subject: 'Notify only A' }));
    assert.equal(fromA.statusCode, 201);
    const idA = fromA.json().data.id;

    const mineA = (await get('/api/v1/admin/notifications?limit=100', a.adminToken)).json().data;
    const noteA = mineA.find((n: { subject: { id: string } | null }) => n.subject?.id === idA);
    assert.ok(noteA, "A's admin is notified");

    for (const token of [b.adminToken, await tokenForRole(t.c, b, 'support'), await tokenForRole(t.c, b, 'staff')]) {
      const res = await get('/api/v1/admin/notifications?limit=100', token);
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(!res.body.includes(idA) && !res.body.includes('Notify only A'), "B sees nothing of A's inquiry");
      const mark = await t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/notifications/${noteA.id}/read`,
        headers: bearer(token),
      });
      assertProblem(mark, 404, 'not_found');
    }
    const still = (await get('/api/v1/admin/notifications?unread=true&limit=100', a.adminToken)).json().data;
    assert.ok(
      still.some((n: { id: string }) => n.id === noteA.id),
      "A's notification is still unread",
    );
  });
});
