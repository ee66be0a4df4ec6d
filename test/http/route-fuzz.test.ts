// test-engines: both
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { bearer, createTenant, createTestApp, onPostgres, type TestApp } from '../support/test-app.ts';
import { LEAK } from '../support/http-helpers.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

describe('route fuzz', () => {
  /**
   * Every route of the OpenAPI document, called with a plausible request spoiled in one of the
   * ways that once produced a 500: a field named like an Object built-in, a number that is not a
   * finite decimal, an empty id, a malformed URL. The answer is never a 5xx, and every 4xx is a
   * problem with a code. Deterministic: a fixed seed per route, printed with any failure.
   */
  const SEED = 20261123;
  const RUNS_PER_ROUTE = 6;

  const BUILT_INS = [
    'constructor',
    'toString',
    'valueOf',
    'hasOwnProperty',
    'isPrototypeOf',
    '__defineGetter__',
    '__proto__',
    'propertyIsEnumerable',
    '__lookupSetter__',
  ];
  /** Written into JSON as they are: valid JSON numbers that are not plain finite decimals in range. */
  const JSON_NUMBERS = [
    '1e400',
    '-1e400',
    '-0',
    '9007199254740993',
    '1e-400',
    '1E+2',
    '0.0000001',
    '123456789012345678901234567890',
    '-1',
  ];
  /** Query-string text that a coercion might read as a number. */
  const TEXT_NUMBERS = [...JSON_NUMBERS, 'Infinity', '-Infinity', 'NaN', '0x10', ' 5', '9'.repeat(400), ''];
  const BAD_SEGMENTS = [
    '%zz',
    '%',
    '%E0%A4%A',
    '%00',
    '%C0%80',
    '%ff',
    '%2e%2e',
    '..',
    'a'.repeat(300),
    '%20',
    '%2F',
    '',
  ];

  type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
  interface Route {
    method: string;
    path: string;
    query: Array<{ name: string; type?: string }>;
    body: Json | undefined;
    token: 'key' | 'admin';
  }
  interface Request {
    method: string;
    url: string;
    token: 'key' | 'admin';
    body?: string;
  }

  type Mutation =
    | { kind: 'builtIn'; name: string; inQuery: boolean; at: number }
    | { kind: 'number'; text: string; at: number }
    | { kind: 'emptyId'; at: number }
    | { kind: 'badUrl'; segment: string };

  let t: TestApp;
  let d: DemoCompany;
  const ids: Record<string, string> = {};

  before(async () => {
    // SMTP configured (at a port nothing answers; no worker sends): a reply or a sending is queued,
    // not the deliberate 503 of a server without e-mail, which a fuzzed route may reach.
    t = await createTestApp({
      RATE_LIMIT_PER_MINUTE: '100000',
      TELEGRAM_API_URL: 'http://127.0.0.1:9',
      SMTP_URL: 'smtp://127.0.0.1:9',
    });
    d = await createTenant(t.c);
    const call = async (method: 'POST', url: string, token: string, payload: object) => {
      const res = await t.app.inject({ method, url, headers: bearer(token), payload });
      assert.ok(res.statusCode < 300, `${url}: ${res.body}`);
      return res.json().data;
    };
    const key = d.locations[0]!.apiKey;
    const product = d.products[0]!;
    const lines = [{ productId: product.id, unitId: product.units[0]!.id, quantity: 1 }];
    ids.quotes = ids.quotations = (
      await call('POST', '/api/v1/public/quotes', key, { format: 'json', customer: { name: 'Ana' }, lines })
    ).id;
    ids.orders = (
      await call('POST', '/api/v1/public/orders', key, {
        customer: { name: 'Ana', email: 'ana@example.com', phone: '+385 1 234 5678' },
        lines,
      })
    ).id;
    ids.inquiries = (
      await call('POST', '/api/v1/public/reach-out', key, {
        topic: 't',
        subject: 's',
        message: 'm',
        email: 'ana@example.com',
        phone: '+385 1 234 5678',
      })
    ).id;
    // A key of its own: the fuzz may revoke it, never the one it calls with.
    ids['api-keys'] = (
      await call('POST', '/api/v1/admin/api-keys', d.adminToken, { name: 'fuzz', locationId: d.locations[1]!.id })
    ).id;
    ids.webhooks = (
      await call('POST', '/api/v1/admin/webhooks', d.adminToken, { kind: 'http', url: 'http://127.0.0.1:9/hook' })
    ).id;
    const firstId = async (url: string) =>
      (await t.app.inject({ method: 'GET', url, headers: bearer(d.adminToken) })).json().data[0].id as string;
    ids.notifications = await firstId('/api/v1/admin/notifications');
    ids['tax-rates'] = ids.taxRate = await firstId('/api/v1/admin/tax-rates');
    Object.assign(ids, {
      products: product.id,
      units: product.units[0]!.id,
      categories: d.categories[2]!.id,
      models: d.models[0]!.id,
      deliveries: 'whd_none',
    });
  });
  after(() => t.close());

  test(`every route of the OpenAPI document: built-in names, odd numbers, empty ids and bad URLs are never a 5xx (${onPostgres() ? 'PostgreSQL' : 'SQLite'})`, async () => {
    const doc = t.app.swagger() as unknown as OpenApi;
    // Deletions last: a spoiled query string is ignored where a route declares none, so a DELETE may succeed.
    const routes = routesOf(doc).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    assert.ok(routes.length >= 40, `${routes.length} routes in the document`);
    for (const [i, route] of routes.entries()) {
      const seed = SEED + i;
      await fc.assert(
        fc.asyncProperty(mutationOf(route), async (mutation) => {
          const request = spoil(route, mutation);
          const res = await t.app.inject({
            method: request.method as 'GET',
            url: request.url,
            headers: {
              ...bearer(request.token === 'key' ? d.locations[0]!.apiKey : d.adminToken),
              ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(request.body === undefined ? {} : { payload: request.body }),
          });
          const what = `${route.method} ${route.path} (seed ${seed}) ${JSON.stringify(mutation)} → ${request.method} ${request.url.slice(0, 200)} ${request.body?.slice(0, 300) ?? ''}\n→ ${res.statusCode} ${res.body.slice(0, 400)}`;
          assert.ok(res.statusCode < 500, what);
          if (res.statusCode >= 400) {
            assert.match(String(res.headers['content-type']), /^application\/problem\+json/, what);
            const body = res.json();
            assert.equal(typeof body.code, 'string', what);
            assert.equal(body.status, res.statusCode, what);
            assert.doesNotMatch(res.body, LEAK, what);
          }
        }),
        { seed, numRuns: RUNS_PER_ROUTE, endOnFailure: true },
      );
    }
  });

  function mutationOf(route: Route): fc.Arbitrary<Mutation> {
    const at = fc.nat({ max: 1000 });
    return fc.oneof(
      fc.record({
        kind: fc.constant('builtIn' as const),
        name: fc.constantFrom(...BUILT_INS),
        inQuery: route.body === undefined ? fc.constant(true) : fc.boolean(),
        at,
      }),
      fc.record({
        kind: fc.constant('number' as const),
        text: fc.constantFrom(...(route.body === undefined ? TEXT_NUMBERS : JSON_NUMBERS)),
        at,
      }),
      fc.record({ kind: fc.constant('emptyId' as const), at }),
      fc.record({ kind: fc.constant('badUrl' as const), segment: fc.constantFrom(...BAD_SEGMENTS) }),
    );
  }

  /** The route's plausible request with one mutation. Bodies travel as text, so `1e400` and `__proto__` arrive as written. */
  function spoil(route: Route, m: Mutation): Request {
    let path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => idFor(route.path, name));
    const query = new URLSearchParams();
    let body = route.body === undefined ? undefined : JSON.stringify(route.body);
    const numberParams = route.query.filter((q) => q.type === 'integer' || q.type === 'number');
    switch (m.kind) {
      case 'builtIn':
        if (m.inQuery || body === undefined) query.set(m.name, '1');
        else body = withField(route.body!, m.at, m.name);
        break;
      case 'number':
        if (body === undefined || numberParams.length > 0)
          query.set((numberParams[m.at % Math.max(numberParams.length, 1)] ?? { name: 'limit' }).name, m.text);
        else
          body =
            withLeaf(route.body!, m.at, m.text, (v) => typeof v === 'number') ??
            withLeaf(route.body!, m.at, m.text, () => true);
        break;
      case 'emptyId': {
        const segments = route.path.match(/\{\w+\}/g);
        if (segments && (m.at % 2 === 0 || body === undefined)) path = route.path.replace(/\{(\w+)\}/g, '');
        else if (body !== undefined)
          body =
            withLeaf(route.body!, m.at, '""', (v, key) => typeof v === 'string' && /id$|ids/i.test(key)) ??
            withLeaf(route.body!, m.at, '""', (v) => typeof v === 'string') ??
            body;
        else query.set(route.query[m.at % Math.max(route.query.length, 1)]?.name ?? 'id', '');
        break;
      }
      case 'badUrl':
        path = route.path.includes('{') ? route.path.replace(/\{(\w+)\}/g, m.segment) : `${path}/${m.segment}`;
        break;
    }
    const search = query.toString();
    return {
      method: route.method,
      url: `${path}${search ? `?${search}` : ''}`,
      token: route.token,
      ...(body === undefined ? {} : { body }),
    };
  }

  function idFor(path: string, _name: string): string {
    const resource = path.split('/').at(path.split('/').findIndex((s) => s.startsWith('{')) - 1) ?? '';
    return ids[resource] ?? 'unknown_id';
  }

  /** The JSON text of `value` with an extra field `name` in its `at`-th object (counted depth-first). */
  function withField(value: Json, at: number, name: string): string {
    const objects = nodes(value).filter(
      (n): n is { [key: string]: Json } => typeof n === 'object' && n !== null && !Array.isArray(n),
    );
    const target = objects[at % objects.length]!;
    const marker = `"__fuzz_marker__":0`;
    const text = JSON.stringify(value, (_k, v) => (v === target ? { ...v, __fuzz_marker__: 0 } : v));
    return text.replace(marker, `${JSON.stringify(name)}:1`);
  }

  /** The JSON text of `value` with its `at`-th leaf that satisfies `pick` written as `raw`; undefined when none does. */
  function withLeaf(value: Json, at: number, raw: string, pick: (v: Json, key: string) => boolean): string | undefined {
    const leaves: Array<{ parent: Record<string, Json> | Json[]; key: string }> = [];
    const walk = (node: Json) => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, child] of Object.entries(node)) {
        if (child !== null && typeof child === 'object') walk(child);
        else if (pick(child, key)) leaves.push({ parent: node, key });
      }
    };
    walk(value);
    if (leaves.length === 0) return undefined;
    const { parent, key } = leaves[at % leaves.length]!;
    const marker = '"__fuzz_leaf__"';
    const original = (parent as Record<string, Json>)[key]!;
    (parent as Record<string, Json>)[key] = '__fuzz_leaf__';
    const text = JSON.stringify(value).replace(marker, raw);
    (parent as Record<string, Json>)[key] = original;
    return text;
  }

  function nodes(value: Json): Json[] {
    if (value === null || typeof value !== 'object') return [];
    return [value, ...Object.values(value).flatMap(nodes)];
  }

  interface Schema {
    type?: string;
    $ref?: string;
    properties?: Record<string, Schema>;
    items?: Schema;
    required?: string[];
    anyOf?: Schema[];
    oneOf?: Schema[];
    enum?: Json[];
    const?: Json;
    examples?: Json[];
    format?: string;
    minimum?: number;
    exclusiveMinimum?: number;
    minItems?: number;
    maxLength?: number;
  }
  interface OpenApi {
    paths: Record<
      string,
      Record<
        string,
        {
          security?: Array<Record<string, unknown>>;
          parameters?: Array<{ in: string; name: string; schema?: Schema }>;
          requestBody?: { content: Record<string, { schema: Schema }> };
        }
      >
    >;
    components?: { schemas?: Record<string, Schema> };
  }

  function routesOf(doc: OpenApi): Route[] {
    const routes: Route[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const json = op.requestBody?.content['application/json']?.schema;
        routes.push({
          method: method.toUpperCase(),
          path,
          query: (op.parameters ?? [])
            .filter((p) => p.in === 'query')
            .map((p) => ({ name: p.name, type: p.schema?.type })),
          body: json ? sample(doc, json, '') : undefined,
          token: op.security?.some((s) => 'apiKey' in s) ? 'key' : 'admin',
        });
      }
    }
    return routes;
  }

  /** A plausible value for a schema: the tenant's real ids, loopback URLs, every optional field filled. */
  function sample(doc: OpenApi, schema: Schema, key: string): Json {
    if (schema.$ref) return sample(doc, doc.components?.schemas?.[schema.$ref.split('/').at(-1)!] ?? {}, key);
    if (schema.oneOf?.length) return sample(doc, schema.oneOf[0]!, key);
    if (schema.anyOf?.length) return sample(doc, schema.anyOf.find((s) => s.type !== 'null') ?? schema.anyOf[0]!, key);
    if (schema.const !== undefined) return schema.const;
    if (schema.enum?.length) return schema.enum[0]!;
    switch (schema.type) {
      case 'object':
        return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sample(doc, s, k)]));
      case 'array':
        return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(doc, schema.items ?? {}, key));
      case 'integer':
      case 'number':
        return (schema.examples?.[0] as number | undefined) ?? schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1;
      case 'boolean':
        return false;
      case 'string':
      default:
        return sampleText(schema, key);
    }
  }

  function sampleText(schema: Schema, key: string): string {
    const product = d.products[0]!;
    const byKey: Record<string, string> = {
      productId: product.id,
      unitId: product.units[0]!.id,
      categoryId: d.categories[1]!.id,
      parentId: d.categories[0]!.id,
      modelId: d.models[0]!.id,
      locationId: d.locations[1]!.id,
      ids: product.id,
      price: '12.40',
      rate: '25',
    };
    if (byKey[key]) return byKey[key]!;
    if (key === 'taxRateId') return ids.taxRate!;
    // Webhook targets are called (by the test route): loopback only. Other URLs are only stored.
    if (schema.format === 'uri')
      return key !== 'url' && typeof schema.examples?.[0] === 'string' ? schema.examples[0] : 'http://127.0.0.1:9/hook';
    if (schema.format === 'email') return 'ana@example.com';
    if (schema.format === 'date-time') return new Date(Date.now() + 7 * 86_400_000).toISOString();
    if (schema.format === 'date') return '2030-01-01';
    if (typeof schema.examples?.[0] === 'string') return schema.examples[0];
    return 'Fuzz text'.slice(0, schema.maxLength ?? 9);
  }
});
