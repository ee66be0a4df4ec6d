// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { assertProblem, tokenForRole } from '../../support/http-helpers.ts';
import Fastify from 'fastify';
import { ADMIN_ROUTES, PERMISSIONS, enforceRoles, rolesFor } from '../../../src/http/access.ts';
import { USER_ROLES, type UserRole } from '../../../src/modules/companies/index.ts';

interface Operation {
  method: string;
  path: string;
  operationId: string;
}

/** Every admin operation the running app serves, from its own OpenAPI document. */
function adminOperations(doc: { paths?: Record<string, Record<string, { operationId?: string }>> }): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/api/v1/admin/')) continue;
    for (const [method, op] of Object.entries(item)) {
      assert.ok(op.operationId, `${method} ${path} has an operationId`);
      ops.push({ method: method.toUpperCase(), path, operationId: op.operationId });
    }
  }
  return ops;
}

/**
 * The "Roles" of docs/hub.md, proved over every admin route: for each route and each role, a refused
 * role gets 403 `forbidden` and an allowed one anything but 403 (ids that do not exist and
 * empty bodies, so allowed calls end in 404 or 400 and change nothing that matters).
 */
describe('roles: who may call which admin route', () => {
  let t: TestApp;
  let tokens: Record<UserRole, string>;
  let operations: Operation[];
  before(async () => {
    t = await createTestApp();
    const demo = await createTenant(t.c);
    tokens = {
      admin: demo.adminToken,
      staff: await tokenForRole(t.c, demo, 'staff'),
      support: await tokenForRole(t.c, demo, 'support'),
    };
    operations = adminOperations(t.app.swagger() as never);
  });
  after(async () => {
    await t.close();
  });

  test('every admin route has exactly one rule, and every rule a route (no hidden or stale entries)', () => {
    assert.ok(operations.length >= 40, `found ${operations.length} admin operations`);
    assert.deepEqual(operations.map((o) => o.operationId).sort(), Object.keys(ADMIN_ROUTES).sort());
    for (const { method, path, operationId } of operations) {
      // A route that changes something is never granted by a read permission.
      if (method !== 'GET') assert.doesNotMatch(ADMIN_ROUTES[operationId]!, /:read$/, `${method} ${path}`);
    }
  });

  test('each role gets 403 exactly where the table refuses it', async () => {
    const seen: string[] = [];
    for (const { method, path, operationId } of operations) {
      const url = path.replace(/\{[^}]+\}/g, 'nope_0000000000');
      const allowed = rolesFor(operationId)!;
      for (const role of USER_ROLES) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: bearer(tokens[role]),
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
        const label = `${role} ${method} ${path} (${operationId}): ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (allowed.includes(role)) {
          assert.notEqual(res.statusCode, 403, label);
          assert.ok(res.statusCode < 500, label);
        } else {
          assertProblem(res, 403, 'forbidden');
        }
        seen.push(`${role} ${operationId} ${allowed.includes(role) ? 'allowed' : 'refused'}`);
      }
    }
    // Cells of the roles table (docs/hub.md), named outright, as a check on the table itself.
    for (const cell of [
      'staff adminListOrders allowed',
      'staff adminGetQuotation allowed',
      'support adminGetOrder allowed',
      'staff adminListInquiries allowed',
      'staff adminReplyToInquiry allowed',
      'staff adminReleaseInquiry refused',
      'staff adminCancelSale allowed',
      'staff adminCreateCreditNote refused',
      'support adminCancelSale refused',
      'support adminListInquiries allowed',
      'staff adminListProducts allowed',
      'support adminCreateProduct refused',
      'staff adminUpdateProduct refused',
      'staff adminCreateApiKey refused',
      'support adminListWebhooks refused',
      'admin adminRedeliver allowed',
    ])
      assert.ok(seen.includes(cell), cell);
  });

  test('the hub guide states the same table', async () => {
    const readme = await readFile(new URL('../../../docs/hub.md', import.meta.url), 'utf8');
    for (const [permission, roles] of Object.entries(PERMISSIONS)) {
      const row = readme.split('\n').find((l) => l.startsWith(`| \`${permission}\` |`));
      assert.ok(row, `docs/hub.md has a row for ${permission}`);
      const cells = row.split('|').map((c) => c.trim());
      const columns = ['admin', 'staff', 'support'] as const;
      assert.deepEqual(
        columns.map((_, i) => cells[2 + i] === '✓'),
        columns.map((r) => (roles as readonly string[]).includes(r)),
        row,
      );
    }
  });
});

test('an admin route that names no rule stops the server at start', async () => {
  for (const schema of [{ operationId: 'adminSomethingNew' }, {}]) {
    const app = Fastify();
    await assert.rejects(async () => {
      await app.register(async (admin) => {
        enforceRoles(admin);
        admin.get('/forgotten', { schema }, async () => 'open to every role');
      });
      await app.ready();
    }, /GET \/forgotten .*has no entry in src\/http\/access\.ts/);
    await app.close();
  }
});

/**
 * Staff at the counter cancel their own wrong receipt the same day, with a reason; not another's,
 * not yesterday's (that is the owner's: a credit note or an admin's storno); admins any, any day.
 * The day is the company's (Europe/Zagreb): 23:30 UTC is already tomorrow there.
 */
describe('roles: who may cancel which invoice', () => {
  let t: TestApp;
  let demo: Awaited<ReturnType<typeof createTenant>>;
  let now = new Date('2026-06-10T08:00:00.000Z');
  before(async () => {
    t = await createTestApp({}, { clock: { now: () => now } });
    demo = await createTenant(t.c);
  });
  after(async () => {
    await t.close();
  });

  const sell = async (token: string) => {
    const p = demo.products[0]!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/counter-sales',
      headers: bearer(token),
      payload: { lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 1 }], paymentMethod: 'card' },
    });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data.id as string;
  };
  const cancel = (token: string, id: string, reason = 'Wrong tin rung up.') =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/sales/${id}/cancel`,
      headers: bearer(token),
      payload: { reason },
    });

  test('staff: their own the same day, with a reason; not another user’s, not the next day; admin any', async () => {
    const company = await t.c.companies.getCompany(demo.companyId);
    assert.equal(company.timezone, 'Europe/Zagreb', 'the demo shop keeps Zagreb time');
    const staff = await tokenForRole(t.c, demo, 'staff');
    const admin = demo.adminToken;
    const support = await tokenForRole(t.c, demo, 'support');

    const own = await sell(staff);
    const noReason = await cancel(staff, own, '');
    assert.equal(noReason.statusCode, 400, 'a reason is required');
    assertProblem(await cancel(support, own), 403, 'forbidden');
    const done = await cancel(staff, own);
    assert.equal(done.statusCode, 201, done.body);
    assert.equal(done.json().data.kind, 'cancellation');

    const admins = await sell(admin);
    const notOwn = await cancel(staff, admins);
    assertProblem(notOwn, 403, 'forbidden');
    assert.match(notOwn.json().detail, /issued themselves/);

    const late = await sell(staff);
    now = new Date('2026-06-10T23:30:00.000Z'); // 01:30 on 11 June in Zagreb
    const notToday = await cancel(staff, late);
    assertProblem(notToday, 403, 'forbidden');
    assert.match(notToday.json().detail, /on the day it was issued/);
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/v1/admin/sales/${late}`, headers: bearer(staff) })).json().data
        .status,
      'paid',
      'nothing was written',
    );
    const byAdmin = await cancel(admin, late);
    assert.equal(byAdmin.statusCode, 201, byAdmin.body);
    now = new Date('2026-06-10T08:00:00.000Z');
  });
});
