// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError, addFieldError, fieldErrors, type Said } from './errors.ts';

const said = (text: string, key: string, params: Record<string, string> = {}): Said => ({ text, key, params });

test('an AppError keeps the English text and, beside it, the key and parameters of each message said by key', () => {
  const error = AppError.invalid(
    { amount: [said('Is more than the balance of 5.00 EUR.', 'error.payment.overBalance', { balance: '5.00' })] },
    said('The payment is more than the balance.', 'error.payment.overBalanceSummary'),
  );
  assert.equal(error.message, 'The payment is more than the balance.');
  assert.deepEqual(error.messageKey, { key: 'error.payment.overBalanceSummary', params: {} });
  assert.deepEqual(error.details, { amount: ['Is more than the balance of 5.00 EUR.'] });
  assert.deepEqual(
    { ...error.detailKeys },
    {
      amount: [{ key: 'error.payment.overBalance', params: { balance: '5.00' } }],
    },
  );
});

test('addFieldError carries keys to the AppError, null where a message is plain text; plain details stay as they are', () => {
  const details = fieldErrors();
  addFieldError(details, 'name', 'Free text.');
  addFieldError(details, 'name', said('Is required.', 'error.required'));
  addFieldError(details, 'name', said('Is required.', 'error.required'));
  addFieldError(details, '__proto__', said('Is not a known field.', 'error.unknownField'));
  assert.deepEqual(Object.keys(details), ['name', '__proto__'], 'the keys are not a field');
  assert.equal(JSON.stringify(details), '{"name":["Free text.","Is required."],"__proto__":["Is not a known field."]}');
  const error = AppError.invalid(details);
  assert.equal(error.details, details);
  assert.deepEqual(error.detailKeys?.name, [null, { key: 'error.required', params: {} }]);
  // biome-ignore lint/suspicious/noProto: the field a hostile body names is this key, read as data
  assert.deepEqual(error.detailKeys?.['__proto__'], [{ key: 'error.unknownField', params: {} }]);

  const plain = { field: ['Text.'] };
  const untouched = AppError.invalid(plain, 'Plain.');
  assert.equal(untouched.details, plain);
  assert.equal(untouched.detailKeys, undefined);
  assert.equal(untouched.messageKey, undefined);
});
