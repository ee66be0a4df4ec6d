// test-engines: sqlite
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { createTestApp, createTenant } from '../../support/test-app.ts';
import { adminCall } from '../../support/sales-helpers.ts';

test('render', async () => {
  const t = await createTestApp();
  const demo = await createTenant(t.c);
  const loc = demo.locations[0]!.id;
  const line = (i: number, q: number) => ({
    productId: demo.products[i]!.id,
    unitId: demo.products[i]!.units[0]!.id,
    quantity: q,
  });
  await adminCall(t.app, demo.adminToken, 'POST', `/locations/${loc}/drawer/open`, { float: '100.00' });
  const ids = [];
  for (let i = 0; i < 5; i++) {
    const r = await adminCall(t.app, demo.adminToken, 'POST', '/counter-sales', {
      lines: [line(i, 1), line(i + 1, 2)],
      paymentMethod: i % 2 ? 'card' : 'cash',
      tendered: i % 2 ? undefined : '500.00',
      locationId: loc,
    });
    ids.push(r.json().data.id);
  }
  const st = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${ids[0]}/cancel`, {
    reason: 'Krivi artikl',
    refund: { method: 'cash' },
  });
  const rc = await adminCall(t.app, demo.adminToken, 'GET', `/sales/${st.json().data.id}?format=pdf&layout=receipt`);
  writeFileSync('/tmp/till/storno-receipt.pdf', rc.rawPayload);
  await adminCall(t.app, demo.adminToken, 'POST', `/locations/${loc}/drawer/movements`, {
    kind: 'out',
    amount: '50.00',
    reason: 'Polog u banku',
  });
  const cl = await adminCall(t.app, demo.adminToken, 'POST', `/locations/${loc}/drawer/close`, {
    denominations: { '50.00': 2, '10.00': 3, '0.50': 1 },
  });
  const date = cl.json().data.date;
  for (const layout of ['a4', 'receipt']) {
    const p = await adminCall(
      t.app,
      demo.adminToken,
      'GET',
      `/locations/${loc}/drawer/days/${date}?format=pdf&layout=${layout}`,
    );
    writeFileSync(`/tmp/till/day-${layout}.pdf`, p.rawPayload);
  }
  await t.close();
});
