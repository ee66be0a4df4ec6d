// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSampleDatasheet } from '../../../src/modules/printing/index.ts';
import type { DemoCompany } from '../../../src/modules/demo/demo-company.ts';
import { bearer, createTenant, createTestApp, type TestApp } from '../../support/test-app.ts';
import {
  QUOTES,
  line,
  pdfPageCount,
  pdfText,
  postQuote,
  problemOf,
  qpdfCheck,
  seq,
  yearInZagreb,
} from '../../support/quote-helpers.ts';

async function quotationCount(t: TestApp, d: DemoCompany): Promise<{ quotations: number; events: number }> {
  const quotations = (await t.c.quotations.list(d.companyId, { limit: 100 })).length;
  const events = (
    await t.c.database.db.selectFrom('webhook_events').select('id').where('company_id', '=', d.companyId).execute()
  ).length;
  return { quotations, events };
}

describe('the datasheets a quotation PDF appends are limited in total size', () => {
  let t: TestApp;
  let sheet: Buffer;
  let d: DemoCompany;

  before(async () => {
    sheet = await buildSampleDatasheet('Lazurni premaz', ['A datasheet of a known size.', 'BZD-075-OR']);
    // Room for one of the two datasheets below, not for both.
    t = await createTestApp({ QUOTE_DATASHEETS_MAX_BYTES: String(Math.floor(sheet.length * 1.5)) });
    d = await createTenant(t.c);
    for (const i of [0, 1])
      await t.c.catalogAdmin.setDatasheet(
        d.companyId,
        d.products[i]!.id,
        { bytes: sheet },
        t.c.config.datasheetMaxBytes,
      );
  });
  after(() => t.close());

  test('over the limit a PDF quote is a 400 naming includeDatasheets, and nothing is stored, numbered or announced', async () => {
    const key = d.locations[0]!.apiKey;
    const res = await postQuote(
      t.app,
      key,
      { includeDatasheets: true, customer: { name: 'Ana' }, lines: [line(d, 0, 1), line(d, 1, 1), line(d, 0, 2)] },
      { 'idempotency-key': `big-${d.companyId}` },
    );
    assert.equal(res.statusCode, 400, res.body);
    const problem = problemOf(res);
    assert.equal(problem.code, 'validation_failed');
    assert.deepEqual(Object.keys(problem.details), ['includeDatasheets']);
    assert.match(problem.details.includeDatasheets![0]!, /datasheets total .* at most/);
    assert.deepEqual(await quotationCount(t, d), { quotations: 0, events: 0 });

    // Without the datasheets the same quote is made, and it is the first number of the year.
    const ok = await postQuote(t.app, key, {
      customer: { name: 'Ana' },
      lines: [line(d, 0, 1), line(d, 1, 1), line(d, 0, 2)],
    });
    assert.equal(ok.statusCode, 201, ok.body);
    assert.equal(ok.headers['x-quotation-number'], `Q-ZG1-${yearInZagreb()}-${seq(1)}`);
    assert.deepEqual(await quotationCount(t, d), { quotations: 1, events: 1 });
  });

  test('within the limit the datasheet is appended', async () => {
    const key = d.locations[0]!.apiKey;
    const plain = await postQuote(t.app, key, { customer: { name: 'Ana' }, lines: [line(d, 0, 1), line(d, 2, 1)] });
    const res = await postQuote(t.app, key, {
      includeDatasheets: true,
      customer: { name: 'Ana' },
      lines: [line(d, 0, 1), line(d, 2, 1)],
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(await pdfPageCount(res.rawPayload), (await pdfPageCount(plain.rawPayload)) + 1);
    assert.equal((await qpdfCheck(res.rawPayload)).code, 0);
  });

  test('a JSON quote over the limit still links each datasheet; printed later, it appends those that fit, in order', async () => {
    const key = d.locations[0]!.apiKey;
    const res = await postQuote(t.app, key, {
      format: 'json',
      includeDatasheets: true,
      customer: { name: 'Ana' },
      lines: [line(d, 1, 1), line(d, 0, 1)],
    });
    assert.equal(res.statusCode, 201, res.body);
    const lines = res.json().data.lines as Array<{ datasheetUrl?: string }>;
    assert.ok(
      lines.every((l) => l.datasheetUrl),
      'both lines link their datasheet',
    );

    const id = res.json().data.id as string;
    const pdf = await t.app.inject({ method: 'GET', url: `${QUOTES}/${id}?format=pdf`, headers: bearer(key) });
    assert.equal(pdf.statusCode, 200, pdf.body);
    const pages = await pdfPageCount(pdf.rawPayload);
    const quotePages = pages - 1;
    assert.ok(quotePages >= 1);
    assert.ok((await pdfText(pdf.rawPayload, 1)).includes(res.json().data.number));
    assert.ok((await pdfText(pdf.rawPayload, pages)).includes('Lazurni premaz'), 'the one datasheet that fits is last');
  });
});

describe('a full print pool answers 503 with Retry-After, before anything is stored', () => {
  let t: TestApp;
  let d: DemoCompany;

  before(async () => {
    t = await createTestApp({ PDF_WORKERS: '1', PDF_QUEUE_MAX: '0' });
    d = await createTenant(t.c);
  });
  after(() => t.close());

  test('while the only place is taken, PDF quotes and PDF reads are refused; JSON is served; afterwards all is well', async () => {
    const key = d.locations[0]!.apiKey;
    const body = { customer: { name: 'Ana' }, lines: [line(d, 0, 1)] };
    const json = await postQuote(t.app, key, { ...body, format: 'json' });
    assert.equal(json.statusCode, 201, json.body);
    const id = json.json().data.id as string;

    const taken = t.c.reservePrint();
    try {
      const refused = await postQuote(t.app, key, body);
      assert.equal(refused.statusCode, 503, refused.body);
      assert.equal(problemOf(refused).code, 'unavailable');
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(
        Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
        `Retry-After: ${String(refused.headers['retry-after'])}`,
      );
      assert.deepEqual(
        await quotationCount(t, d),
        { quotations: 1, events: 1 },
        'the refused quote left nothing behind',
      );

      const read = await t.app.inject({ method: 'GET', url: `${QUOTES}/${id}?format=pdf`, headers: bearer(key) });
      assert.equal(read.statusCode, 503, read.body);
      assert.ok(read.headers['retry-after']);
      assert.equal(
        (await t.app.inject({ method: 'GET', url: `${QUOTES}/${id}`, headers: bearer(key) })).statusCode,
        200,
      );
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      taken.release();
    }

    const made = await postQuote(t.app, key, body);
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(
      made.headers['x-quotation-number'],
      `Q-ZG1-${yearInZagreb()}-${seq(2)}`,
      'the refused quote consumed no number',
    );
    // A request refused for being invalid gives its place back too.
    const invalid = await postQuote(t.app, key, { customer: { name: 'Ana' }, lines: [] });
    assert.equal(invalid.statusCode, 400);
    assert.equal((await postQuote(t.app, key, body)).statusCode, 201);
  });
});
