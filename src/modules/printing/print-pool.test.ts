// test-engines: sqlite
import { after, before, test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { AppError } from '../../lib/errors.ts';
import { createPrintPool, type PrintPool, type PrintRequest } from './print-pool.ts';
import type { PrintDocument } from './print-document.ts';
import { printDocument } from './print-job.ts';
import { buildSampleDatasheet } from './sample-datasheet.ts';

describe('print pool', () => {
  function quotation(lineCount: number): PrintDocument {
    return {
      title: 'document.quotation',
      number: 'Q-ZG1-2026-00042',
      issuedAt: '2026-03-01T09:15:00Z',
      issuedLabel: 'print.issued',
      dates: [{ label: 'print.validUntil', at: '2026-03-31T21:59:59Z' }],
      currency: 'EUR',
      locale: 'hr-HR',
      timezone: 'Europe/Zagreb',
      pricesIncludeTax: false,
      company: { name: 'Boje i Lakovi d.o.o.', address: 'Ilica 1, 10000 Zagreb', taxId: 'HR12345678901' },
      template: { header: null, footer: 'Boje i Lakovi d.o.o.', paymentInstructions: 'IBAN HR1210010051863000160' },
      location: { name: 'Zagreb Centar', code: 'ZG1', address: null },
      customer: { name: 'Đuro Šimić', email: null, phone: null },
      note: null,
      lines: Array.from({ length: lineCount }, (_, i) => ({
        position: i + 1,
        productName: `Boja za drvo Šišmiš ${i + 1}`,
        productCode: `SKU-${i + 1}`,
        note: i % 3 === 0 ? 'Colour: RAL 9010 - Reinweiß' : null,
        quantity: '2',
        unitName: 'L',
        unitPrice: '12.40',
        taxRate: '25',
        amount: '24.80',
      })),
      totals: { net: '24.80', tax: '6.20', withTax: '31.00', taxes: [{ rate: '25', base: '24.80', tax: '6.20' }] },
      payment: null,
    };
  }

  const source = (name: string, bytes: Uint8Array | null) => ({ name, read: async () => bytes });

  /** Prints on a place of its own and gives the place back. */
  async function printOnce(pool: PrintPool, request: PrintRequest) {
    const slot = pool.reserve();
    try {
      return await slot.print(request);
    } finally {
      slot.release();
    }
  }

  let pool: PrintPool;
  before(() => {
    pool = createPrintPool({ threads: 1, queueMax: 1 });
  });
  after(() => pool.close());

  test('a print on the pool is the same document, byte for byte, as one printed in this thread', async () => {
    const sheet = await buildSampleDatasheet('Lazura', ['Water-based wood stain.']);
    const corrupt = Buffer.from('%PDF-1.7\nnot a pdf');
    const document = quotation(12);
    const here = await printDocument({
      document,
      datasheets: [
        { name: 'a', bytes: Buffer.from(sheet) },
        { name: 'bad', bytes: corrupt },
      ],
    });
    const pooled = await printOnce(pool, {
      document,
      datasheets: [source('a', Buffer.from(sheet)), source('bad', corrupt), source('missing', null)],
    });
    assert.ok(Buffer.from(pooled.pdf).equals(Buffer.from(here.pdf)), 'same bytes');
    assert.deepEqual(
      pooled.skipped.map((s) => s.name),
      ['bad'],
    );
    assert.deepEqual(
      here.skipped.map((s) => s.name),
      ['bad'],
    );
    // Bytes alone in their memory are handed over to the thread, not copied: the caller's are gone.
    const handedOver = new Uint8Array(sheet);
    await printOnce(pool, { document, datasheets: [source('a', handedOver)] });
    assert.equal(handedOver.byteLength, 0);
  });

  test('places: past threads + queue the pool refuses with unavailable and a Retry-After; a place is held until released, even after its print', async () => {
    const first = pool.reserve();
    const second = pool.reserve();
    assert.throws(
      () => pool.reserve(),
      (error: unknown) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'unavailable');
        assert.ok(
          error.retryAfterSeconds !== undefined && error.retryAfterSeconds >= 1 && error.retryAfterSeconds <= 60,
        );
        return true;
      },
    );

    // The second print's datasheet is read only when the thread is free for it.
    let read = false;
    const printing = first.print({ document: quotation(200), datasheets: [] });
    const waiting = second.print({
      document: quotation(1),
      datasheets: [
        {
          name: 'late',
          read: async () => {
            read = true;
            return null;
          },
        },
      ],
    });
    // Released while printing: the place comes back when the print ends.
    first.release();
    await nextTurn();
    assert.equal(read, false, 'read before its turn');
    await Promise.all([printing, waiting]);
    assert.equal(read, true);
    const third = pool.reserve(); // the first place came back when its print ended
    assert.throws(() => pool.reserve(), /retry shortly/, 'the second place still holds its PDF (not yet sent)');
    third.release();
    second.release();
    second.release(); // releasing twice is harmless

    // A print that fails in the thread (a document it cannot print) fails alone.
    await assert.rejects(
      printOnce(pool, { document: { ...quotation(1), issuedAt: 'not a date' }, datasheets: [] }),
      /issuedAt/,
    );
    const last = pool.reserve();
    const other = pool.reserve();
    other.release(); // unused
    assert.ok((await last.print({ document: quotation(1), datasheets: [] })).pdf.byteLength > 1000);
    await assert.rejects(last.print({ document: quotation(1), datasheets: [] }), /prints once/);
    last.release();
    pool.reserve().release();
  });
});
