import assert from 'node:assert/strict';
import type { App } from '../../src/http/build-app.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { bearer } from './test-app.ts';

export const ADMIN = '/api/v1/admin';

export function adminCall(
  app: App,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url: `${ADMIN}${url}`,
    headers: { ...bearer(token), ...headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A JSON quotation through the public API: demo products 0 (×2, with a note) and 4, by default at location 0. */
export async function newQuotation(
  app: App,
  demo: DemoCompany,
  opts: { name?: string; location?: number; expiresAt?: string; note?: string } = {},
) {
  const p = demo.products[0]!;
  const q = demo.products[4]!;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/public/quotes',
    headers: bearer(demo.locations[opts.location ?? 0]!.apiKey),
    payload: {
      format: 'json',
      customer: { name: opts.name ?? 'Ana Kovač', email: 'ana@example.com' },
      note: opts.note ?? 'Dostava u petak.',
      ...(opts.expiresAt ? { expiresAt: opts.expiresAt } : {}),
      lines: [
        { productId: p.id, unitId: p.units[0]!.id, quantity: 2, note: 'Colour: RAL 9010 - Reinweiß' },
        { productId: q.id, unitId: q.units[0]!.id, quantity: 1.5 },
      ],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data as {
    id: string;
    number: string;
    locationId: string;
    totals: { withTax: string };
    expiresAt: string;
  };
}

export async function newOrder(app: App, demo: DemoCompany, opts: { name?: string; location?: number } = {}) {
  const p = demo.products[1]!;
  const res = await app.inject({
    method: 'POST',
    url: '/api/v1/public/orders',
    headers: bearer(demo.locations[opts.location ?? 0]!.apiKey),
    payload: {
      customer: { name: opts.name ?? 'Ivo Ivić', email: 'ivo@example.com', phone: '+385 91 555 1234' },
      note: 'Poziv prije dostave.',
      lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 3, note: 'Sjajni' }],
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data as { id: string; number: string; locationId: string; totals: { withTax: string } };
}

let oibCounter = Math.floor(Math.random() * 1e8);

/** A fresh Croatian OIB (ISO 7064 MOD 11,10 check digit), so every test customer has a unique valid tax id. */
export function newOib(): string {
  const base = String(1e9 + (oibCounter++ % 9e9))
    .padStart(10, '0')
    .slice(-10);
  let a = 10;
  for (const ch of base) {
    a = (a + Number(ch)) % 10;
    if (a === 0) a = 10;
    a = (a * 2) % 11;
  }
  const check = (11 - a) % 10;
  return `${base}${check}`;
}

/** Creates a directory customer and assigns it to the quotation or order (the customers module's API). */
export async function assignCustomer(
  app: App,
  demo: DemoCompany,
  kind: 'quotations' | 'orders',
  id: string,
  customer: Record<string, unknown> = {},
) {
  const created = await adminCall(app, demo.adminToken, 'POST', '/customers', {
    kind: 'business',
    name: 'Kovač obrt',
    taxId: newOib(),
    email: 'ured@kovac-obrt.example',
    phone: '+385 1 555 0101',
    address: { street: 'Vlaška 12', postalCode: '10000', city: 'Zagreb', country: 'HR' },
    ...customer,
  });
  assert.equal(created.statusCode, 201, created.body);
  const customerId = created.json().data.id as string;
  const res = await adminCall(app, demo.adminToken, 'PUT', `/${kind}/${id}/customer`, { customerId });
  assert.equal(res.statusCode, 200, res.body);
  return customerId;
}

/**
 * A staff quotation of [product index, quantity, discount %] lines for a directory customer
 * (`customer`: what differs from assignCustomer's), converted to an invoice; its JSON.
 */
export async function staffInvoice(
  app: App,
  demo: DemoCompany,
  lines: Array<[number, number, number?]>,
  customer: Record<string, unknown> = {},
) {
  const q = await adminCall(app, demo.adminToken, 'POST', '/quotations', {
    customer: { name: 'Gradnja Horvat d.o.o.' },
    lines: lines.map(([i, quantity, discountPercent]) => ({
      productId: demo.products[i]!.id,
      unitId: demo.products[i]!.units[0]!.id,
      quantity,
      ...(discountPercent === undefined ? {} : { discountPercent }),
    })),
  });
  assert.equal(q.statusCode, 201, q.body);
  await assignCustomer(app, demo, 'quotations', q.json().data.id, customer);
  const res = await adminCall(app, demo.adminToken, 'POST', `/quotations/${q.json().data.id}/convert`, {});
  assert.equal(res.statusCode, 201, res.body);
  return res.json().data;
}
