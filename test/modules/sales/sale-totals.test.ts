// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { bearer, createTestApp, createTenant, type TestApp } from '../../support/test-app.ts';
import { tokenForRole } from '../../support/http-helpers.ts';
import { adminCall, assignCustomer } from '../../support/sales-helpers.ts';
import { backfillSaleTotals } from '../../../src/db/migrations/0020-sale-totals.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const DAY = 86_400_000;
/** Midnight UTC, 27 March 2026: the random days cross Zagreb's change to summer time (29 March). */
const BASE = Date.parse('2026-03-27T00:00:00.000Z');

interface Op {
  day: number;
  hour: number;
  location: 0 | 1;
  operator: 'admin' | 'staff';
  /** Issued together with the op before it, in parallel (concurrent issuers). */
  together: boolean;
  correction: 'none' | 'cancel' | 'credit' | 'credit twice';
}

const opArb: fc.Arbitrary<Op> = fc.record({
  // 27 March … 2 April: across the change to summer time and a month's end.
  day: fc.integer({ min: 0, max: 6 }),
  // 22:30 and 23:30 UTC are the next day in Zagreb (before and after the change).
  hour: fc.constantFrom(0, 9, 21.5, 22.5, 23.5),
  location: fc.constantFrom(0 as const, 1 as const),
  operator: fc.constantFrom('admin' as const, 'staff' as const),
  together: fc.boolean(),
  correction: fc.constantFrom('none' as const, 'cancel' as const, 'credit' as const, 'credit twice' as const),
});

type Sums = { documents: number; net: number; tax: number; total: number };
const key = (r: Record<string, unknown>) =>
  [r.company_id, r.mode, r.grain, r.day, r.location_id, r.operator_id, r.kind, Number(r.tax_rate_bp), r.exemption].join(
    '|',
  );

/**
 * Issue 23: the running totals the reports read equal, row for row, what the documents
 * themselves add up to, after any sequence of invoices, cancellations and credit notes (some
 * issued at once), on both databases; and the migration's backfill writes the same rows.
 */
describe('running totals of issued documents', () => {
  let t: TestApp;
  let now = BASE;
  let db: Kysely<any>;

  before(async () => {
    t = await createTestApp({}, { clock: { now: () => new Date(now) } });
    db = t.c.database.db as Kysely<any>;
  });
  after(async () => {
    await t.close();
  });

  /** An exempt product (0 %, with its reason) beside the demo's 25 % and 5 % ones. */
  async function exemptProduct(d: DemoCompany): Promise<{ id: string; unitId: string }> {
    const rate = await t.c.catalogAdmin.createTaxRate(d.companyId, {
      name: 'Oslobođeno',
      rate: '0',
      exemptionReason: 'Oslobođeno PDV-a prema čl. 39. st. 1. Zakona o PDV-u',
    });
    const { id, unitIds } = await t.c.catalogAdmin.createProduct(d.companyId, {
      name: 'Tečaj bojanja',
      sku: 'TEC-01',
      categoryId: d.categories[0]!.id,
      modelId: null,
      taxRateId: rate.id,
      classificationCode: '85.52.03',
      units: [{ name: 'kom', price: '40.00' }],
    });
    return { id, unitId: unitIds[0]! };
  }

  /** A quotation of three lines at 25 %, 5 % and 0 %, converted by `token`'s user. */
  async function invoice(d: DemoCompany, token: string, location: number, exempt: { id: string; unitId: string }) {
    const [a, b] = [d.products[0]!, d.products[6]!];
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/public/quotes',
      headers: bearer(d.locations[location]!.apiKey),
      payload: {
        format: 'json',
        customer: { name: 'Ana Kovač', email: 'ana@example.com' },
        lines: [
          { productId: a.id, unitId: a.units[0]!.id, quantity: 2 },
          { productId: b.id, unitId: b.units[0]!.id, quantity: 1.5 },
          { productId: exempt.id, unitId: exempt.unitId, quantity: 1 },
        ],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const q = created.json().data as { id: string };
    await assignCustomer(t.app, d, 'quotations', q.id);
    const res = await adminCall(t.app, token, 'POST', `/quotations/${q.id}/convert`, { paymentMethod: 'cash' });
    assert.equal(res.statusCode, 201, res.body);
    return res.json().data as { id: string; lines: Array<{ id: string }> };
  }

  async function correct(d: DemoCompany, op: Op, sale: { id: string; lines: Array<{ id: string }> }) {
    if (op.correction === 'cancel') {
      const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/cancel`, { reason: 'Greška' });
      assert.equal(res.statusCode, 201, res.body);
    } else if (op.correction !== 'none') {
      for (let i = 0; i < (op.correction === 'credit twice' ? 2 : 1); i++) {
        const res = await adminCall(t.app, d.adminToken, 'POST', `/sales/${sale.id}/credit-notes`, {
          lines: [
            { lineId: sale.lines[0]!.id, quantity: '0.5' },
            { lineId: sale.lines[1]!.id, quantity: '0.5' },
            { lineId: sale.lines[2]!.id, quantity: '0.25' },
          ],
          reason: 'Povrat',
        });
        assert.equal(res.statusCode, 201, res.body);
      }
    }
  }

  /** The rows the documents add up to, from the stored documents and lines and the company's zone. */
  async function recomputed(companyId: string): Promise<Map<string, Sums>> {
    const { timezone } = await db
      .selectFrom('companies')
      .select('timezone')
      .where('id', '=', companyId)
      .executeTakeFirstOrThrow();
    const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: timezone });
    const docs = await db.selectFrom('sales').selectAll().where('company_id', '=', companyId).execute();
    const lines = await db.selectFrom('sale_lines').selectAll().where('company_id', '=', companyId).execute();
    const out = new Map<string, Sums>();
    for (const s of docs) {
      const mine = lines.filter((l) => l.document_id === s.id);
      const top = Math.max(...mine.map((l) => Number(l.tax_rate_bp)));
      const rates = new Set<number>();
      for (const l of mine) {
        const rate = Number(l.tax_rate_bp);
        const day = dayOf.format(new Date(s.issued_at));
        const first = rate === top && !rates.has(rate);
        rates.add(rate);
        // The day's row and the month's (keyed by its first day) add up the same.
        for (const [grain, date] of [
          ['day', day],
          ['month', `${day.slice(0, 8)}01`],
        ]) {
          const k = key({
            ...s,
            grain,
            day: date,
            operator_id: s.created_by ?? '',
            tax_rate_bp: rate,
            exemption: rate === 0 ? (s.exemption_reason ?? '') : '',
          });
          const sums = out.get(k) ?? { documents: 0, net: 0, tax: 0, total: 0 };
          if (first) sums.documents++;
          sums.net += Number(l.net_minor);
          sums.tax += Number(l.tax_minor);
          sums.total += Number(l.total_minor);
          out.set(k, sums);
        }
      }
    }
    return out;
  }

  async function stored(companyId?: string): Promise<Map<string, Sums>> {
    const rows = await db
      .selectFrom('sale_totals')
      .selectAll()
      .$if(companyId !== undefined, (q) => q.where('company_id', '=', companyId!))
      .execute();
    return new Map(
      rows.map((r) => [
        key(r),
        {
          documents: Number(r.documents),
          net: Number(r.net_minor),
          tax: Number(r.tax_minor),
          total: Number(r.total_minor),
        },
      ]),
    );
  }

  test('equal a recomputation from the documents after a random sequence (property), and the backfill agrees', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const d = await createTenant(t.c);
        const staff = await tokenForRole(t.c, d, 'staff');
        const exempt = await exemptProduct(d);
        const sorted = ops.toSorted((a, b) => a.day - b.day || a.hour - b.hour);
        // Consecutive ops marked `together` at the same instant are issued in parallel.
        const batches: Op[][] = [];
        for (const op of sorted) {
          const last = batches.at(-1);
          if (op.together && last && last[0]!.day === op.day && last[0]!.hour === op.hour) last.push(op);
          else batches.push([op]);
        }
        for (const batch of batches) {
          now = BASE + batch[0]!.day * DAY + batch[0]!.hour * 3_600_000;
          const sales = await Promise.all(
            batch.map((op) => invoice(d, op.operator === 'admin' ? d.adminToken : staff, op.location, exempt)),
          );
          await Promise.all(batch.map((op, i) => correct(d, op, sales[i]!)));
        }
        const expected = await recomputed(d.companyId);
        const actual = await stored(d.companyId);
        assert.deepEqual(Object.fromEntries(actual), Object.fromEntries(expected));
        const documents = [...actual].filter(([k]) => k.includes('|day|')).reduce((a, [, s]) => a + s.documents, 0);
        const issued = await db
          .selectFrom('sales')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('company_id', '=', d.companyId)
          .executeTakeFirstOrThrow();
        assert.equal(documents, Number(issued.n));
      }),
      { numRuns: 5 },
    );

    // The migration's backfill, run over the same documents, writes the rows issuing wrote.
    const incremental = await stored();
    assert.ok(incremental.size > 0);
    await db.deleteFrom('sale_totals').execute();
    await backfillSaleTotals(db, t.c.database.engine);
    assert.deepEqual(Object.fromEntries(await stored()), Object.fromEntries(incremental));
  });
});
