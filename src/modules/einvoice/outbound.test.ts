// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { croatianOib, needsEInvoice, reportedMethod, toExchangeView } from './outbound.ts';
import type { ExchangeMessageRow, SendRow } from './exchange.repository.ts';

const HR = { country: 'HR', vatRegistered: true };
const b2b = {
  mode: 'live',
  customer_kind: 'business',
  customer_tax_id: 'HR12345678903',
  customer_address: JSON.stringify({ street: 'Ilica 1', postalCode: '10000', city: 'Zagreb', country: 'HR' }),
  payment_method: 'bank_transfer',
};

test('an e-invoice is due for a Croatian VAT payer selling by transfer to a Croatian business (art. 38), and only then', () => {
  assert.equal(needsEInvoice(HR, b2b), true);
  assert.equal(needsEInvoice(HR, { ...b2b, customer_tax_id: '12345678903' }), true, 'the OIB without HR');
  assert.equal(needsEInvoice(HR, { ...b2b, customer_address: null }), true, 'no address: the OIB says Croatian');
  // A business paying cash or card takes a receipt with its OIB (art. 39).
  assert.equal(needsEInvoice(HR, { ...b2b, payment_method: 'cash' }), false);
  assert.equal(needsEInvoice(HR, { ...b2b, payment_method: 'card' }), false);
  assert.equal(needsEInvoice(HR, { ...b2b, customer_kind: 'person' }), false);
  assert.equal(needsEInvoice(HR, { ...b2b, customer_tax_id: 'DE136695976' }), false);
  assert.equal(
    needsEInvoice(HR, { ...b2b, customer_address: JSON.stringify({ country: 'SI' }) }),
    false,
    'a foreign address',
  );
  assert.equal(needsEInvoice({ country: 'HR', vatRegistered: false }, b2b), false, 'not a VAT payer');
  assert.equal(needsEInvoice({ country: 'DE', vatRegistered: true }, b2b), false);
  assert.equal(needsEInvoice(HR, { ...b2b, mode: 'test' }), false, 'test data never leaves');
  assert.equal(croatianOib(' HR12345678903 '), '12345678903');
  assert.equal(croatianOib('1234567890'), null);
});

test('payments are reported as T (transfer) or Z (other)', () => {
  assert.equal(reportedMethod('bank_transfer'), 'T');
  assert.equal(reportedMethod('cash'), 'Z');
  assert.equal(reportedMethod('card'), 'Z');
});

const send: SendRow = {
  sale_id: 'sale_1',
  company_id: 'co_1',
  message_id: 'xm_1',
  status: 'queued',
  document_id: null,
  delivered_at: null,
  fiscal_status: 'unknown',
  fiscal_message: null,
  rejection_type: null,
  rejection_reason: null,
  rejected_at: null,
  last_error: null,
  checked_at: null,
  notified_at: null,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};
const message = (over: Partial<ExchangeMessageRow>): ExchangeMessageRow => ({
  id: 'xm_1',
  company_id: 'co_1',
  kind: 'send',
  subject_id: 'sale_1',
  body: '{"issued":"ubl"}',
  status: 'pending',
  attempts: 0,
  next_attempt_at: '2026-11-28T10:00:00.000Z',
  locked_until: null,
  last_error: null,
  answer: null,
  created_at: '2026-11-28T10:00:00.000Z',
  done_at: null,
  ...over,
});

test("the sale's view reads ahead of its record: a send done or refused shows before the record follows", () => {
  assert.equal(toExchangeView(undefined, []).status, 'not_required');
  assert.deepEqual(toExchangeView(send, [message({ last_error: 'no answer' })]), {
    status: 'queued',
    documentId: null,
    fiscalisation: 'unknown',
    error: 'no answer',
    payments: [],
  });
  const done = toExchangeView(send, [message({ status: 'done', answer: '{"documentId":"3100001"}' })]);
  assert.deepEqual([done.status, done.documentId], ['sent', '3100001']);
  const failed = toExchangeView(send, [message({ status: 'failed', last_error: 'refused (HTTP 400)' })]);
  assert.deepEqual([failed.status, failed.error], ['failed', 'refused (HTTP 400)']);
  const rejected = toExchangeView(
    { ...send, status: 'rejected', document_id: '3100001', rejection_reason: 'Kriva cijena.', rejected_at: 'x' },
    [
      message({ status: 'done' }),
      message({
        id: 'xm_2',
        kind: 'mark_paid',
        body: '{"paidOn":"2026-11-28","amount":"-10.00","method":"T"}',
        status: 'done',
      }),
    ],
  );
  assert.deepEqual(rejected.rejection, { type: null, reason: 'Kriva cijena.', at: 'x' });
  assert.deepEqual(rejected.payments, [{ amount: '-10.00', date: '2026-11-28', method: 'T', status: 'reported' }]);
});
