export { choosePaymentCodes, type PaymentCodeKind } from './choose-payment-codes.ts';
export { buildEpcQrPayload, EPC_QR_MAX_BYTES, type EpcQrInput } from './epc-qr.ts';
export { buildHub3Payload, HUB3_PDF417, type Hub3Input, type Hub3Party } from './hub3.ts';
export {
  checkHub3Reference,
  creditorReference,
  documentReference,
  hr01Reference,
  isCreditorReference,
  mod11IniCheckDigit,
} from './payment-reference.ts';
export {
  paymentCodeModules,
  renderEpcQrPng,
  renderHub3Png,
  type CodeModules,
  type PngOptions,
} from './render-payment-code.ts';
