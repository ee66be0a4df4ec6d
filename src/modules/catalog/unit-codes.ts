/**
 * UN/ECE Recommendation 20 (Codes for Units of Measure Used in International Trade, with
 * Recommendation 21's "X…" package codes), the list EN 16931 requires for BT-130 and BT-150.
 * Portico's units are names people type ("kom", "L", "m²"): a unit may carry its code, and
 * otherwise these common names map to one; anything else is C62 ("one"), which a receiver reads
 * as a count.
 */
const BY_NAME: Record<string, string> = {
  kom: 'H87',
  'kom.': 'H87',
  komad: 'H87',
  pcs: 'H87',
  pc: 'H87',
  piece: 'H87',
  stk: 'H87',
  'stk.': 'H87',
  stück: 'H87',
  kg: 'KGM',
  g: 'GRM',
  t: 'TNE',
  l: 'LTR',
  lit: 'LTR',
  ml: 'MLT',
  dl: 'DLT',
  m: 'MTR',
  cm: 'CMT',
  mm: 'MMT',
  km: 'KMT',
  m2: 'MTK',
  'm²': 'MTK',
  m3: 'MTQ',
  'm³': 'MTQ',
  h: 'HUR',
  sat: 'HUR',
  std: 'HUR',
  'std.': 'HUR',
  dan: 'DAY',
  tag: 'DAY',
  day: 'DAY',
  par: 'PR',
  paar: 'PR',
  pair: 'PR',
  set: 'SET',
  komplet: 'SET',
  pak: 'XPK',
  paket: 'XPK',
  pack: 'XPK',
  kutija: 'XBX',
  box: 'XBX',
  rola: 'XRO',
  roll: 'XRO',
  kanta: 'XBJ',
  vreća: 'XBG',
};

/** The unit's own code when set, else the code of its name, else C62. */
export function unitCodeOf(name: string, code: string | null | undefined): string {
  return code ?? BY_NAME[name.trim().toLowerCase()] ?? 'C62';
}
