/**
 * The printed side of the fiscal QR code: the base side for a verification URL (Croatia's, about
 * 100 characters); twice that for a long payload such as Germany's DSFinV-K code (`V0;…` with
 * signature and public key, some 350 characters), whose modules would otherwise be too small
 * for a scanner at a receipt printer's resolution.
 */
export function fiscalQrSide(basePt: number, payload: string | null): number {
  return payload !== null && payload.length > 160 ? basePt * 2 : basePt;
}
