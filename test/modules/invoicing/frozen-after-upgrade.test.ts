// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { loadConfig } from '../../../src/config/config.ts';
import { createContainer, type Container } from '../../../src/container.ts';
import { createDatabase } from '../../../src/db/database.ts';
import { pendingMigrations } from '../../../src/db/migrate.ts';
import { buildApp, type App } from '../../../src/http/build-app.ts';
import { bearer, createTenant, createTestApp, provisionDatabase } from '../../support/test-app.ts';
import { adminCall, assignCustomer, newQuotation } from '../../support/sales-helpers.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const clock = { now: () => new Date('2026-05-04T08:00:00.000Z') };

/**
 * Issue 32, "byte for byte the same forever, whatever happens later (… a new version of
 * Portico)": documents issued and read by one version; then a later version's migration, made up
 * here, changes the schema and rewrites the data every print is made of (the company, its
 * premises, the catalog, the customer, the operator, the print template, the bank account), and
 * the later version's code renders differently (every PDF and XML it would make now carries a
 * mark). Started on the migrated database, the later version answers every file of every kind
 * (invoice, credit note, cancellation, counter receipt; A4, 80 mm, UBL, CII; and the PDF an
 * e-mail carries) with the bytes read at issue, rendering none of them again. A document issued
 * but never read before the upgrade shows the later code does render differently: its first read
 * carries the mark.
 */
describe('documents as issued survive a later migration and a later version', () => {
  let dir: string;
  let url: string;
  let drop: () => Promise<void>;
  let demo: DemoCompany;
  /** Hash of every file at issue, by `document kind/format`. */
  const atIssue = new Map<string, { id: string; url: string; hash: string }>();
  let unread: string;

  const env = () => ({
    DATABASE_URL: url,
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    FISCAL_CIS_URL: 'https://127.0.0.1:9/FiskalizacijaService',
    PRODUCT_PHOTO_FETCH: 'false',
    // An SMTP address nothing listens on: sendings are queued and recorded, never sent.
    SMTP_URL: 'smtp://127.0.0.1:9',
    SMTP_FROM: 'Portico <portico@shop.example>',
  });

  async function start(migrate: boolean): Promise<{ app: App; c: Container; close(): Promise<void> }> {
    const c = await createContainer(loadConfig(env()), { clock, migrate });
    const app = await buildApp(c);
    await app.ready();
    return {
      app,
      c,
      async close() {
        await app.close();
        await c.close();
      },
    };
  }

  const FILES = [
    ['a4', (id: string) => `/sales/${id}?format=pdf`],
    ['receipt', (id: string) => `/sales/${id}?format=pdf&layout=receipt`],
    ['ubl', (id: string) => `/sales/${id}/e-invoice?syntax=ubl`],
    ['cii', (id: string) => `/sales/${id}/e-invoice?syntax=cii`],
  ] as const;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-upgrade-'));
    ({ url, drop } = await provisionDatabase(dir));
    const v1 = await start(true);
    try {
      const call = (method: 'GET' | 'POST', u: string, body?: object) =>
        adminCall(v1.app, demo.adminToken, method, u, body);
      demo = await createTenant(v1.c);
      // An invoice (with its order reference and delivery date), a credit note of it, a second
      // invoice cancelled, a counter sale.
      const q = await newQuotation(v1.app, demo);
      await assignCustomer(v1.app, demo, 'quotations', q.id);
      const invoice = (
        await call('POST', `/quotations/${q.id}/convert`, { deliveryDate: '2026-04-30', orderReference: 'NG-2026-114' })
      ).json().data;
      const credit = await call('POST', `/sales/${invoice.id}/credit-notes`, {
        lines: [{ lineId: invoice.lines[0].id, quantity: '1' }],
        reason: 'Povrat',
      });
      assert.equal(credit.statusCode, 201, credit.body);
      const q2 = await newQuotation(v1.app, demo);
      await assignCustomer(v1.app, demo, 'quotations', q2.id);
      const second = (await call('POST', `/quotations/${q2.id}/convert`, {})).json().data;
      const storno = await call('POST', `/sales/${second.id}/cancel`, { reason: 'Krivo' });
      assert.equal(storno.statusCode, 201, storno.body);
      const p = demo.products[0]!;
      const counter = await call('POST', '/counter-sales', {
        lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 2 }],
        paymentMethod: 'cash',
        tendered: '50.00',
      });
      assert.equal(counter.statusCode, 201, counter.body);
      const q3 = await newQuotation(v1.app, demo);
      await assignCustomer(v1.app, demo, 'quotations', q3.id);
      unread = (await call('POST', `/quotations/${q3.id}/convert`, {})).json().data.id;

      for (const [kind, id] of [
        ['invoice', invoice.id],
        ['credit note', credit.json().data.id],
        ['cancelled invoice', second.id],
        ['cancellation', storno.json().data.id],
        ['counter sale', counter.json().data.id],
      ] as const) {
        for (const [format, path] of FILES) {
          const res = await call('GET', path(id));
          // A consumer's counter sale has no e-invoice: the 409 is its answer at issue and after.
          if (res.statusCode === 409) continue;
          assert.equal(res.statusCode, 200, `${kind} ${format}: ${res.body.slice(0, 200)}`);
          atIssue.set(`${kind}/${format}`, { id, url: path(id), hash: sha(res.rawPayload) });
        }
      }
      // A payment after issue, as any day brings.
      const pay = await call('POST', `/sales/${invoice.id}/payments`, { method: 'cash', amount: '5.00' });
      assert.equal(pay.statusCode, 201, pay.body);
    } finally {
      await v1.close();
    }
  });
  after(async () => {
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a later migration rewrites the data prints are made of; the later version answers the bytes read at issue', async () => {
    assert.ok(atIssue.size >= 16, `files read at issue: ${[...atIssue.keys()].join(', ')}`);
    // The later version's migration: run by Kysely's migrator after the ones this code knows, as a
    // deploy of that version would.
    const database = createDatabase(url);
    try {
      assert.deepEqual(await pendingMigrations(database), []);
      // This version's migrations, applied: the later version lists them before its own.
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
      const known = Object.fromEntries(applied.rows.map((m) => [m.name, { up: async () => {} } satisfies Migration]));
      const later: Migration = {
        async up(db: Kysely<any>) {
          await db.schema.alterTable('sales').addColumn('later_print_style', 'text').execute();
          await db.schema.alterTable('sale_lines').addColumn('later_line_label', 'text').execute();
          await db
            .updateTable('companies')
            .set({
              name: 'Posve novo ime d.o.o.',
              address_street: 'Nova ulica 1',
              address_city: 'Split',
              address_postal_code: '21000',
              bank_iban: 'HR1723600001101234565',
              template_header: 'Novo zaglavlje',
              template_footer: 'Novo podnožje',
              template_payment_instructions: 'Platite odmah.',
              contact_name: 'Netko drugi',
            })
            .execute();
          await db.updateTable('locations').set({ name: 'Preseljena poslovnica', address: 'Trg 2, Split' }).execute();
          await db
            .updateTable('products')
            .set({ name: sql`${sql.ref('name')} || ' (novi naziv)'` })
            .execute();
          await db.updateTable('users').set({ name: 'Preimenovani korisnik' }).execute();
          await db.updateTable('customers').set({ name: 'Preimenovani kupac d.o.o.' }).execute();
        },
      };
      const { error, results } = await new Migrator({
        db: database.db,
        provider: { getMigrations: async () => ({ ...known, '9999-later-version': later }) },
      }).migrateToLatest();
      assert.equal(error, undefined, String(error));
      assert.deepEqual(
        results?.map((r) => [r.migrationName, r.status]),
        [['9999-later-version', 'Success']],
      );
    } finally {
      await database.close();
    }

    // A later migration may not take documents away: clearing the stored renderings (to render
    // them again with its own code), an issued invoice, one of its lines or its snapshot is refused.
    const again = createDatabase(url);
    try {
      const invoiceId = atIssue.get('invoice/a4')!.id;
      for (const clear of [
        sql`delete from issued_documents where format <> 'snapshot'`,
        sql`delete from issued_documents where sale_id = ${invoiceId}`,
        sql`delete from sale_lines where document_id = ${invoiceId}`,
        sql`delete from sales where id = ${invoiceId}`,
      ])
        await assert.rejects(clear.execute(again.db), /issued document/);
      const kept = await sql<{
        n: number;
      }>`select count(*) as n from issued_documents where sale_id = ${invoiceId}`.execute(again.db);
      assert.ok(Number(kept.rows[0]!.n) >= 5, 'the snapshot and the four files stay');
    } finally {
      await again.close();
    }

    // The later version: its migrations are not this code's (started without migrating), and
    // every rendering it would make differs from this version's.
    const v2 = await start(false);
    try {
      const renders: string[] = [];
      const renderPdf = v2.c.sales.renderPdf.bind(v2.c.sales);
      const eInvoiceXml = v2.c.sales.eInvoiceXml.bind(v2.c.sales);
      v2.c.sales.renderPdf = async (companyId, id, slot, as) => {
        renders.push(`${id} pdf`);
        const printed = await renderPdf(companyId, id, slot, as);
        return { ...printed, pdf: Buffer.concat([printed.pdf, Buffer.from('%later-version\n')]) };
      };
      v2.c.sales.eInvoiceXml = async (companyId, id, syntax, snapshot) => {
        renders.push(`${id} ${syntax}`);
        const xml = await eInvoiceXml(companyId, id, syntax, snapshot);
        return { ...xml, xml: `${xml.xml}<!-- later version -->` };
      };

      for (const [name, file] of atIssue) {
        const res = await adminCall(v2.app, demo.adminToken, 'GET', file.url);
        assert.equal(res.statusCode, 200, `${name}: ${res.body.slice(0, 200)}`);
        assert.equal(sha(res.rawPayload), file.hash, `${name}: the bytes read at issue`);
        assert.equal(res.headers.etag, `"${file.hash}"`, `${name}: the ETag of issue`);
      }
      // What an e-mail carries: the PDF as issued, its hash recorded.
      const invoice = atIssue.get('invoice/a4')!;
      const sent = await adminCall(v2.app, demo.adminToken, 'POST', `/sales/${invoice.id}/send`, {});
      assert.equal(sent.statusCode, 202, sent.body);
      assert.equal(sent.json().data.sha256.pdf, invoice.hash);
      assert.deepEqual(renders, [], 'nothing read at issue is rendered again');

      // The control: a document never read before the upgrade is rendered by the later code.
      const first = await adminCall(v2.app, demo.adminToken, 'GET', `/sales/${unread}/e-invoice?syntax=ubl`);
      assert.equal(first.statusCode, 200, first.body);
      assert.match(first.body, /<!-- later version -->$/);
      assert.deepEqual(renders, [`${unread} ubl`]);
      // Its data are still those of issue (the snapshot): the company's name at issue, not the new one.
      assert.ok(!first.body.includes('Posve novo ime'), 'rendered from the snapshot of issue');
    } finally {
      await v2.close();
    }
  });
});

/**
 * The guard against deleting issued documents (0027) leaves a shop's test data deletable: a sale
 * issued from a test key's quotation, its credit note and their stored files go with
 * `DELETE /test-data`, while the live invoice beside them stays whole.
 */
describe('test sales are still deleted whole', () => {
  test('DELETE /test-data takes test sales with their lines, snapshots and stored files; live ones stay', async () => {
    const t = await createTestApp({}, { clock });
    try {
      const demo = await createTenant(t.c);
      const made = await adminCall(t.app, demo.adminToken, 'POST', '/api-keys', {
        locationId: demo.locations[0]!.id,
        name: 'Test key',
        mode: 'test',
      });
      assert.equal(made.statusCode, 201, made.body);
      const p = demo.products[0]!;
      const quote = await t.app.inject({
        method: 'POST',
        url: '/api/v1/public/quotes',
        headers: bearer(made.json().data.key),
        payload: {
          format: 'json',
          customer: { name: 'Test Kupac' },
          lines: [{ productId: p.id, unitId: p.units[0]!.id, quantity: 2 }],
        },
      });
      assert.equal(quote.statusCode, 201, quote.body);
      await assignCustomer(t.app, demo, 'quotations', quote.json().data.id);
      const sale = await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${quote.json().data.id}/convert`, {});
      assert.equal(sale.statusCode, 201, sale.body);
      const testSale = sale.json().data;
      assert.match(testSale.number, /^T-/);
      const credit = await adminCall(t.app, demo.adminToken, 'POST', `/sales/${testSale.id}/credit-notes`, {
        lines: [{ lineId: testSale.lines[0].id, quantity: '1' }],
        reason: 'Test',
      });
      assert.equal(credit.statusCode, 201, credit.body);
      const q = await newQuotation(t.app, demo);
      await assignCustomer(t.app, demo, 'quotations', q.id);
      const live = (await adminCall(t.app, demo.adminToken, 'POST', `/quotations/${q.id}/convert`, {})).json().data;
      for (const id of [testSale.id, credit.json().data.id, live.id])
        assert.equal((await adminCall(t.app, demo.adminToken, 'GET', `/sales/${id}?format=pdf`)).statusCode, 200);

      const files = async (id: string) =>
        Number(
          (
            await sql<{ n: number }>`select count(*) as n from issued_documents where sale_id = ${id}`.execute(
              t.c.database.db,
            )
          ).rows[0]!.n,
        );
      assert.equal(await files(testSale.id), 2, 'the snapshot and the A4 stored');
      const deleted = await adminCall(t.app, demo.adminToken, 'DELETE', '/test-data');
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(deleted.json().data.sales, 2);
      assert.equal(await files(testSale.id), 0);
      assert.equal(await files(credit.json().data.id), 0);
      assert.equal(await files(live.id), 2);
      assert.equal((await adminCall(t.app, demo.adminToken, 'GET', `/sales/${live.id}?format=pdf`)).statusCode, 200);
    } finally {
      await t.close();
    }
  });
});
