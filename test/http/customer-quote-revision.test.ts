// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { adminCall, newQuotation } from '../support/sales-helpers.ts';
import { answerQuote, quotationLink } from '../support/mail-helpers.ts';
import { line } from '../support/quote-helpers.ts';
import { hubTranslator } from '../../src/http/hub/texts/index.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';

/**
 * Issue 37, item 6: the customer saw 15.50 € and accepted 775.00 €, a revision made after they
 * opened `/q/{token}`. The forms now carry the revision shown; an answer to an older one is a 409
 * with the new revision on the page, and what is stored, announced and told names the revision.
 */
describe('the customer accepts what they saw', () => {
  let t: TestApp;
  let d: DemoCompany;
  before(async () => {
    t = await createTestApp();
    d = await createTenant(t.c);
  });
  after(() => t.close());

  const statusOf = async (id: string) =>
    (await adminCall(t.app, d.adminToken, 'GET', `/quotations/${id}`)).json().data.status;
  const shownRevision = (body: string) => [...body.matchAll(/name="revision" value="(\d+)"/g)].map((m) => m[1]);

  test('accept or decline of a revision older than the newest: 409 with the new one; the newest accepted names its revision', async () => {
    const q = await newQuotation(t.app, d);
    const link = await quotationLink(t, d.companyId, q.id);
    const opened = await t.app.inject({ method: 'GET', url: `/q/${link.token}` });
    assert.deepEqual(shownRevision(opened.body), ['1', '1'], 'both forms carry the revision shown');

    // The shop revises after the customer opened the page: fifty times the quantity.
    const revised = await adminCall(t.app, d.adminToken, 'PUT', `/quotations/${q.id}`, {
      customer: { name: 'Ana Kovač' },
      lines: [line(d, 0, 50)],
    });
    assert.equal(revised.statusCode, 200, revised.body);
    assert.equal(revised.json().data.revision, 2);
    const number2 = revised.json().data.number;

    for (const [action, form] of [
      ['accept', { revision: '1', name: 'Ana Kovač' }],
      ['decline', { revision: '1', reason: 'Preskupo' }],
      ['accept', { revision: '', name: 'Ana Kovač' }], // a page from before revisions were sent back
    ] as const) {
      const res = await answerQuote(t, link.token, action, form);
      assert.equal(res.statusCode, 409, `${action} ${JSON.stringify(form)}`);
      assert.match(res.body, /izmijenio\/la ovu ponudu nakon što ste je otvorili\. Ovo je izmjena 2/);
      assert.ok(res.body.includes(number2), 'the page shows the new revision');
      assert.deepEqual(shownRevision(res.body), ['2', '2']);
      assert.equal(await statusOf(q.id), 'approved', 'nothing was answered');
    }
    const none = await t.c.database.db
      .selectFrom('webhook_events')
      .select('id')
      .where('company_id', '=', d.companyId)
      .where('type', 'in', ['quote.accepted', 'quote.declined'])
      .execute();
    assert.equal(none.length, 0, 'no event for a refused answer');

    const accepted = await answerQuote(t, link.token, 'accept', { revision: '2', name: 'Ana Kovač' });
    assert.equal(accepted.statusCode, 303, accepted.body);
    assert.equal(await statusOf(q.id), 'accepted');
    const [event] = await t.c.database.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('company_id', '=', d.companyId)
      .where('type', '=', 'quote.accepted')
      .execute();
    const data = JSON.parse(event!.payload).data;
    assert.deepEqual([data.number, data.revision, data.totalWithTax], [number2, 2, revised.json().data.totals.withTax]);
    const notices = await t.c.database.db
      .selectFrom('notifications')
      .select(['body', 'kind', 'title', 'message_params'])
      .where('company_id', '=', d.companyId)
      .where('subject_id', '=', q.id)
      .execute();
    assert.ok(notices.length > 0);
    for (const n of notices) {
      assert.match(n.body, new RegExp(`accepted quotation ${number2} \\(revision 2\\)`));
      assert.equal(JSON.parse(n.message_params!).revision, '2');
    }
    // As the hub (and a notification e-mail) says it, in Croatian.
    const said = hubTranslator('hr')('hub.notice.quote.accepted.body', JSON.parse(notices[0]!.message_params!));
    assert.match(said, new RegExp(`ponudu ${number2} \\(izmjena 2\\)`));
  });
});
