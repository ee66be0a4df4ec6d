import { randomBytes } from 'node:crypto';
import type { TestApp } from './test-app.ts';
import { bearer } from './test-app.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

export const newWhsec = () => `whsec_${randomBytes(24).toString('base64')}`;

export async function addHttpEndpoint(t: TestApp, demo: DemoCompany, body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/webhooks',
    headers: bearer(demo.adminToken),
    payload: { kind: 'http', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`endpoint not created: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; secretHint: string | null; enabled: boolean };
}

export async function createQuote(t: TestApp, demo: DemoCompany, customerName = 'Ana Kovač', locationIndex = 0) {
  const p = demo.products[0]!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/public/quotes',
    headers: bearer(demo.locations[locationIndex]!.apiKey),
    payload: {
      format: 'json',
      customer: { name: customerName },
      lines: [
        { productId: p.id, unitId: p.units[0]!.id, quantity: 2 },
        { productId: demo.products[4]!.id, unitId: demo.products[4]!.units[0]!.id, quantity: 1 },
      ],
    },
  });
  if (res.statusCode !== 201) throw new Error(`quote not created: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; number: string; locationId: string; totals: { withTax: string } };
}

/** Polls until `check` returns a value, bounded; for state the worker writes after the receiver answered. */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
