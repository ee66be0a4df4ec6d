import { createHash, createSign, type KeyObject } from 'node:crypto';

/** The hash under the ZKI's RSA signature: SHA-1 as specification v2.6 chapter 12 has it, or SHA-256. */
export type ZkiHash = 'sha1' | 'sha256';

/** The elements the ZKI is computed from (specification v2.6, chapter 12), already in CIS form. */
export interface ZkiElements {
  oib: string;
  /** `dd.MM.yyyy HH:mm:ss`, the instant DatVrijeme states. */
  issuedAt: string;
  sequence: string;
  premises: string;
  device: string;
  /** IznosUkupno as sent: `1245.56`. */
  total: string;
}

/** The concatenation the issuer signs: the elements in order, no separators. */
export function zkiInput(e: ZkiElements): string {
  return `${e.oib}${e.issuedAt}${e.sequence}${e.premises}${e.device}${e.total}`;
}

/**
 * ZKI (zaštitni kod izdavatelja): the issuer's RSA signature (PKCS#1 v1.5; over SHA-1 as v2.6
 * chapter 12 specifies, or over SHA-256 where the company's setting says so) of the concatenated
 * elements, then the MD5 of that signature in lowercase hex. Computed offline, so a receipt
 * carries it even while CIS is unreachable.
 */
export function computeZki(privateKey: KeyObject, elements: ZkiElements, hash: ZkiHash = 'sha1'): string {
  const signature = createSign(hash === 'sha256' ? 'RSA-SHA256' : 'RSA-SHA1')
    .update(zkiInput(elements), 'utf8')
    .sign(privateKey);
  return createHash('md5').update(signature).digest('hex');
}
