// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import {
  parseQrCode,
  processData,
  qrCodeData,
  standardV1,
  transactionLogToBeSigned,
  tseSerialOf,
  verifyTseSignature,
  type TseSignedFields,
} from './tse-format.ts';

const amounts = {
  grossByRateBp: [
    { rateBp: 1900, grossMinor: 2951 },
    { rateBp: 700, grossMinor: 5778 },
  ],
  cashMinor: 8729,
  nonCashMinor: 0,
};

test('processData: every DSFinV-K class in order, two decimals, payments Bar/Unbar', () => {
  assert.equal(processData('RECEIPT', amounts), 'Beleg^29.51_57.78_0.00_0.00_0.00^87.29:Bar');
  assert.equal(
    processData('CANCELLATION', {
      grossByRateBp: [{ rateBp: 1900, grossMinor: -119 }],
      cashMinor: 0,
      nonCashMinor: -119,
    }),
    'AVBelegstorno^-1.19_0.00_0.00_0.00_0.00^-1.19:Unbar',
  );
  assert.throws(() => processData('RECEIPT', { ...amounts, grossByRateBp: [{ rateBp: 2500, grossMinor: 1 }] }));
});

test('standard_v1: the amounts per VAT rate and payment type as fiskaly names them', () => {
  assert.deepEqual(standardV1('RECEIPT', amounts).standard_v1.receipt, {
    receipt_type: 'RECEIPT',
    amounts_per_vat_rate: [
      { vat_rate: 'NORMAL', amount: '29.51' },
      { vat_rate: 'REDUCED_1', amount: '57.78' },
    ],
    amounts_per_payment_type: [{ payment_type: 'CASH', amount: '87.29' }],
  });
});

test('a signed QR code verifies; any changed field does not', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'brainpoolP384r1' });
  const der = publicKey.export({ format: 'der', type: 'spki' });
  const point = der.subarray(der.length - 97).toString('base64');
  const fields: TseSignedFields = {
    clientSerial: 'PORTICO-loc_1',
    processType: 'Kassenbeleg-V1',
    processData: processData('RECEIPT', amounts),
    transactionNumber: 17,
    signatureCounter: 34,
    start: '2026-11-28T14:04:09.000Z',
    end: '2026-11-28T14:04:10.000Z',
    algorithm: 'ecdsa-plain-SHA384',
    timeFormat: 'unixTime',
    signature: '',
    publicKey: point,
  };
  fields.signature = sign('sha384', transactionLogToBeSigned(fields, tseSerialOf(point)), {
    key: privateKey,
    dsaEncoding: 'ieee-p1363',
  }).toString('base64');
  const qr = qrCodeData(fields);
  assert.match(
    qr,
    /^V0;PORTICO-loc_1;Kassenbeleg-V1;Beleg\^29\.51_57\.78_0\.00_0\.00_0\.00\^87\.29:Bar;17;34;2026-11-28T14:04:09\.000Z;/,
  );
  assert.ok(verifyTseSignature(parseQrCode(qr)));
  assert.equal(verifyTseSignature({ ...fields, processData: fields.processData.replace('87.29', '87.30') }), false);
  assert.equal(verifyTseSignature({ ...fields, transactionNumber: 18 }), false);
  assert.equal(verifyTseSignature({ ...fields, end: '2026-11-28T14:04:11.000Z' }), false);
  assert.throws(() => parseQrCode('V1;a;b'));
});
