// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choosePaymentCodes } from './choose-payment-codes.ts';

const HR_IBAN = 'HR1210010051863000160';
const DE_IBAN = 'DE89370400440532013000';

test('a Croatian company in EUR gets both codes; a German one the EPC QR code', () => {
  assert.deepEqual(choosePaymentCodes({ currency: 'EUR', country: 'HR', iban: HR_IBAN }, 100), [
    'epc_qr',
    'hub3_pdf417',
  ]);
  assert.deepEqual(choosePaymentCodes({ currency: 'EUR', country: 'de', iban: DE_IBAN }, 100), ['epc_qr']);
  // A Croatian company banking in Germany: the IBAN does not fit the HUB-3 slip.
  assert.deepEqual(choosePaymentCodes({ currency: 'EUR', country: 'HR', iban: DE_IBAN }, 100), ['epc_qr']);
});

test('no account, another currency, a bad IBAN or nothing to pay: no code', () => {
  assert.deepEqual(choosePaymentCodes({ currency: 'EUR', country: 'HR', iban: null }, 100), []);
  assert.deepEqual(choosePaymentCodes({ currency: 'CHF', country: 'CH', iban: 'CH9300762011623852957' }, 100), []);
  assert.deepEqual(choosePaymentCodes({ currency: 'EUR', country: 'HR', iban: 'HR1210010051863000161' }, 100), []);
  assert.deepEqual(choosePaymentCodes({ currency: 'EUR', country: 'HR', iban: HR_IBAN }, 0), []);
});
