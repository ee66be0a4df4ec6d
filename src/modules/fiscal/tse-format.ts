import { createHash, createPublicKey, verify } from 'node:crypto';

/**
 * The German TSE's pure rules: the DSFinV-K `Kassenbeleg-V1` process data (DSFinV-K v2.4,
 * Anhang I "processData"), the receipt's QR code (DSFinV-K Anhang I, `V0;…`), fiskaly's
 * `standard_v1` amounts, and the transaction log message a TSE signs (BSI TR-03151/TR-03153:
 * the DER of the log message's fields from `version` to `logTime`), so a receipt's signature can
 * be checked against the TSE's public key without asking the TSE.
 */

/** The five VAT classes in DSFinV-K order: the rate in basis points, and fiskaly's name for it. */
export const DE_VAT_CLASSES = [
  { rateBp: 1900, name: 'NORMAL' },
  { rateBp: 700, name: 'REDUCED_1' },
  { rateBp: 1070, name: 'SPECIAL_RATE_1' },
  { rateBp: 550, name: 'SPECIAL_RATE_2' },
  { rateBp: 0, name: 'NULL' },
] as const;

/** DSFinV-K's Vorgangstypen Portico records at the counter, and fiskaly's receipt_type for each. */
export const TSE_RECEIPT_TYPES = {
  RECEIPT: 'Beleg',
  CANCELLATION: 'AVBelegstorno',
  ABORT: 'AVBelegabbruch',
} as const;
export type TseReceiptType = keyof typeof TSE_RECEIPT_TYPES;

export const PROCESS_TYPE = 'Kassenbeleg-V1';

/** What a TSE transaction says of a sale: gross per rate and payments, in minor units (cents), signed. */
export interface TseAmounts {
  grossByRateBp: ReadonlyArray<{ rateBp: number; grossMinor: number }>;
  cashMinor: number;
  nonCashMinor: number;
}

const decimal = (minor: number) =>
  `${minor < 0 ? '-' : ''}${Math.floor(Math.abs(minor) / 100)}.${String(Math.abs(minor) % 100).padStart(2, '0')}`;

/** Gross per DSFinV-K class; a rate outside the five (not German) is refused. */
export function grossPerClass(amounts: TseAmounts): number[] {
  const out = DE_VAT_CLASSES.map(() => 0);
  for (const { rateBp, grossMinor } of amounts.grossByRateBp) {
    const i = DE_VAT_CLASSES.findIndex((c) => c.rateBp === rateBp);
    if (i < 0) throw new Error(`VAT rate ${rateBp / 100} % has no DSFinV-K class`);
    out[i]! += grossMinor;
  }
  return out;
}

/** `Beleg^19.00_7.00_0.00_0.00_0.00^12.00:Bar_14.00:Unbar` (every class, payments only when non-zero). */
export function processData(type: TseReceiptType, amounts: TseAmounts): string {
  const gross = grossPerClass(amounts).map(decimal).join('_');
  const payments: string[] = [];
  if (amounts.cashMinor !== 0) payments.push(`${decimal(amounts.cashMinor)}:Bar`);
  if (amounts.nonCashMinor !== 0) payments.push(`${decimal(amounts.nonCashMinor)}:Unbar`);
  return `${TSE_RECEIPT_TYPES[type]}^${gross}^${payments.join('_')}`;
}

/** fiskaly SIGN DE's `schema.standard_v1.receipt` for the finishing revision. */
export function standardV1(type: TseReceiptType, amounts: TseAmounts) {
  const gross = grossPerClass(amounts);
  const payments: Array<{ payment_type: 'CASH' | 'NON_CASH'; amount: string }> = [];
  if (amounts.cashMinor !== 0) payments.push({ payment_type: 'CASH', amount: decimal(amounts.cashMinor) });
  if (amounts.nonCashMinor !== 0) payments.push({ payment_type: 'NON_CASH', amount: decimal(amounts.nonCashMinor) });
  return {
    standard_v1: {
      receipt: {
        receipt_type: type,
        amounts_per_vat_rate: DE_VAT_CLASSES.flatMap((c, i) =>
          gross[i] !== 0 ? [{ vat_rate: c.name, amount: decimal(gross[i]!) }] : [],
        ),
        amounts_per_payment_type: payments,
      },
    },
  };
}

/** The fields of a finished transaction the QR code and the receipt carry. */
export interface TseSignedFields {
  clientSerial: string;
  processType: string;
  processData: string;
  transactionNumber: number;
  signatureCounter: number;
  /** ISO 8601 instants. */
  start: string;
  end: string;
  algorithm: string;
  timeFormat: string;
  /** Base64. */
  signature: string;
  /** Base64 of the uncompressed EC point. */
  publicKey: string;
}

/** DSFinV-K's time in the QR code: ISO 8601 with milliseconds, UTC. */
export const qrTime = (iso: string) => new Date(iso).toISOString();

/** The receipt's QR code (DSFinV-K Anhang I, version V0). */
export function qrCodeData(f: TseSignedFields): string {
  return [
    'V0',
    f.clientSerial,
    f.processType,
    f.processData,
    String(f.transactionNumber),
    String(f.signatureCounter),
    qrTime(f.start),
    qrTime(f.end),
    f.algorithm,
    f.timeFormat,
    f.signature,
    f.publicKey,
  ].join(';');
}

/** Reads a `V0;…` string back (the process data may not contain `;`, DSFinV-K's separator). */
export function parseQrCode(text: string): TseSignedFields {
  const parts = text.split(';');
  if (parts.length !== 12 || parts[0] !== 'V0') throw new Error('not a DSFinV-K V0 QR code');
  return {
    clientSerial: parts[1]!,
    processType: parts[2]!,
    processData: parts[3]!,
    transactionNumber: Number(parts[4]),
    signatureCounter: Number(parts[5]),
    start: parts[6]!,
    end: parts[7]!,
    algorithm: parts[8]!,
    timeFormat: parts[9]!,
    signature: parts[10]!,
    publicKey: parts[11]!,
  };
}

// ---- the TR-03151 transaction log message ----

const ALGORITHMS: Record<string, { oid: string; hash: 'sha256' | 'sha384' | 'sha512' }> = {
  'ecdsa-plain-SHA256': { oid: '0.4.0.127.0.7.1.1.4.1.3', hash: 'sha256' },
  'ecdsa-plain-SHA384': { oid: '0.4.0.127.0.7.1.1.4.1.4', hash: 'sha384' },
  'ecdsa-plain-SHA512': { oid: '0.4.0.127.0.7.1.1.4.1.5', hash: 'sha512' },
};
const TRANSACTION_LOG_OID = '0.4.0.127.0.7.3.7.1.1';

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, value: Buffer) => Buffer.concat([Buffer.from([tag]), derLength(value.length), value]);
function derInteger(n: number | bigint): Buffer {
  let hex = BigInt(n).toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  let bytes = Buffer.from(hex, 'hex');
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return bytes;
}
function derOid(oid: string): Buffer {
  const [a, b, ...rest] = oid.split('.').map(Number);
  const out = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** The TSE's serial number: the SHA-256 of its public key (TR-03153), hex. */
export function tseSerialOf(publicKeyBase64: string): string {
  return createHash('sha256').update(Buffer.from(publicKeyBase64, 'base64')).digest('hex');
}

/** What the TSE signs for a finished transaction: the log message's fields, DER, `version` to `logTime`. */
export function transactionLogToBeSigned(f: TseSignedFields, serialHex: string): Buffer {
  const algorithm = ALGORITHMS[f.algorithm];
  if (!algorithm) throw new Error(`unknown signature algorithm ${f.algorithm}`);
  const logTime =
    f.timeFormat === 'unixTime'
      ? tlv(0x02, derInteger(Math.floor(Date.parse(f.end) / 1000)))
      : tlv(
          0x18,
          Buffer.from(
            `${new Date(f.end)
              .toISOString()
              .replace(/[-:]/g, '')
              .replace(/\.\d+Z$/, 'Z')}`,
          ),
        );
  return Buffer.concat([
    tlv(0x02, derInteger(2)),
    derOid(TRANSACTION_LOG_OID),
    tlv(0x80, Buffer.from('FinishTransaction', 'ascii')),
    tlv(0x81, Buffer.from(f.clientSerial, 'utf8')),
    tlv(0x82, Buffer.from(f.processData, 'utf8')),
    tlv(0x83, Buffer.from(f.processType, 'utf8')),
    tlv(0x85, derInteger(f.transactionNumber)),
    tlv(0x04, Buffer.from(serialHex, 'hex')),
    tlv(0x30, derOid(algorithm.oid)),
    tlv(0x02, derInteger(f.signatureCounter)),
    logTime,
  ]);
}

/** The hash an algorithm name signs with. */
export function algorithmHash(name: string): 'sha256' | 'sha384' | 'sha512' {
  const a = ALGORITHMS[name];
  if (!a) throw new Error(`unknown signature algorithm ${name}`);
  return a.hash;
}

/**
 * Checks a receipt's signature against the public key it names (an uncompressed point on
 * brainpoolP384r1, P-384, brainpoolP256r1 or P-256, as the key's length and `curve` say).
 */
export function verifyTseSignature(f: TseSignedFields, curve = 'brainpoolP384r1'): boolean {
  const point = Buffer.from(f.publicKey, 'base64');
  const key = createPublicKey({ key: ecSpki(point, curve), format: 'der', type: 'spki' });
  return verify(
    algorithmHash(f.algorithm),
    transactionLogToBeSigned(f, tseSerialOf(f.publicKey)),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(f.signature, 'base64'),
  );
}

const CURVE_OIDS: Record<string, string> = {
  brainpoolP256r1: '1.3.36.3.3.2.8.1.1.7',
  brainpoolP384r1: '1.3.36.3.3.2.8.1.1.11',
  'P-256': '1.2.840.10045.3.1.7',
  'P-384': '1.3.132.0.34',
};

/** An uncompressed EC point as SubjectPublicKeyInfo DER. */
export function ecSpki(point: Buffer, curve: string): Buffer {
  const curveOid = CURVE_OIDS[curve];
  if (!curveOid) throw new Error(`unknown curve ${curve}`);
  const algorithm = tlv(0x30, Buffer.concat([derOid('1.2.840.10045.2.1'), derOid(curveOid)]));
  const bits = tlv(0x03, Buffer.concat([Buffer.from([0]), point]));
  return tlv(0x30, Buffer.concat([algorithm, bits]));
}
