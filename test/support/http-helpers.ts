import assert from 'node:assert/strict';
import type { LightMyRequestResponse as InjectResponse } from 'fastify';
import type { App } from '../../src/http/build-app.ts';
import type { Container } from '../../src/container.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { bearer } from './test-app.ts';
import type { NewInquiry } from '../../src/modules/inquiries/index.ts';

export type Res = InjectResponse;

/** The CSRF token a hub page carries, and the secret cookie it pairs with: what a form post sends back. */
export function csrfOf(page: Res): { token: string; cookie: string } {
  const token = /"x-csrf-token":"([^"]+)"/.exec(page.body.replaceAll('&quot;', '"'))![1]!;
  const secret = String(page.headers['set-cookie']).match(/portico_csrf=([^;]+)/)![1]!;
  return { token, cookie: `portico_csrf=${secret}` };
}

/** A signed-in hub user under inject: the headers a same-origin form post needs (session, CSRF cookie and token). */
export async function hubPostHeaders(
  app: App,
  c: Container,
  email: string,
  password: string,
): Promise<Record<string, string>> {
  const { token } = await c.accounts.signIn(email, password);
  const home = await app.inject({ method: 'GET', url: '/hub', headers: { cookie: `portico_session=${token}` } });
  const csrf = csrfOf(home);
  return {
    cookie: `portico_session=${token}; ${csrf.cookie}`,
    origin: 'http://localhost:80',
    'x-csrf-token': csrf.token,
  };
}

export const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Secrets, stack frames or SQL must never reach a response body. */
export const LEAK =
  /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|SQLITE|sqlite3?_|syntax error at|\bselect\b.+\bfrom\b|\binsert into\b|relation "/i;

/** A body that passes every reach-out rule. */
/** A valid body; typed as the service input too, for tests that call the service directly. */
export function validReachOut(overrides: Record<string, unknown> = {}): Record<string, unknown> & NewInquiry {
  return {
    topic: 'Product question',
    subject: 'Is Boja za drvo available in 5 L?',
    message: 'Hello, I would like to know whether the walnut stain comes in 5 L cans.',
    email: 'ana.kovac@example.com',
    phone: '+385 1 234 5678',
    ...overrides,
  } as Record<string, unknown> & NewInquiry;
}

export function reachOut(app: App, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return app.inject({
    method: 'POST',
    url: '/api/v1/public/reach-out',
    headers: { ...bearer(key), ...headers },
    payload: body as object,
  });
}

/** Asserts an RFC 9457 problem with our fields and returns its body. */
export function assertProblem(res: Res, status: number, code?: string): Record<string, any> {
  assert.equal(res.statusCode, status, `expected ${status}, got ${res.statusCode}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/);
  const body = res.json();
  assert.equal(body.status, status);
  assert.equal(typeof body.title, 'string');
  assert.ok(body.title.length > 0);
  assert.equal(typeof body.detail, 'string');
  assert.equal(typeof body.requestId, 'string');
  assert.equal(body.requestId, res.headers['x-request-id']);
  if (code !== undefined) assert.equal(body.code, code);
  assert.doesNotMatch(res.body, LEAK);
  return body;
}

/** Every inquiry of the token's company, following nextCursor to the end. */
export async function listAllInquiries(app: App, adminToken: string): Promise<Array<Record<string, any>>> {
  const all: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/v1/admin/inquiries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await app.inject({ method: 'GET', url, headers: bearer(adminToken) });
    assert.equal(res.statusCode, 200, res.body);
    const page = res.json();
    all.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return all;
}

/** A fresh personal admin token for the demo user with this role. */
export async function tokenForRole(
  c: Container,
  demo: DemoCompany,
  role: 'admin' | 'support' | 'staff',
): Promise<string> {
  const user = demo.users.find((u) => u.role === role);
  assert.ok(user, `demo has a ${role} user`);
  return (await c.apiKeys.createAdminToken(demo.companyId, { userId: user.id, name: `test ${role}` })).token;
}

export function userOfRole(demo: DemoCompany, role: string): DemoCompany['users'][number] {
  const user = demo.users.find((u) => u.role === role);
  assert.ok(user, `demo has a ${role} user`);
  return user;
}

/** Polls until `check` returns a value (not undefined), or fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
