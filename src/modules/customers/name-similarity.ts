/**
 * How alike two customer names are, in a way staff can follow: both names are cut into words,
 * with diacritics folded (Kovačević = Kovacevic, Đurđa = Durda, Straße = Strasse), case and
 * punctuation ignored, and legal-form words dropped (d.o.o., j.d.o.o., obrt, GmbH…). Two words
 * match when they are equal, or when both have at least five letters and differ by one letter
 * (Horvat/Horvath, Kovačević/Kovačevič); the five-letter minimum keeps Ivan/Ivana and Ana/Ane apart.
 * The similarity is the Dice coefficient of the word sets: 2 × matched words / (words in A + words
 * in B), 1 for the same name in any order ("Horvat Ivan" = "Ivan Horvat"), 0 for nothing shared.
 */

const LEGAL_FORMS = new Set([
  'doo',
  'jdoo',
  'dd',
  'obrt',
  'vl',
  'kd',
  'jtd',
  'zadruga',
  'udruga',
  'gmbh',
  'ag',
  'kg',
  'ohg',
  'ug',
  'ev',
  'eg',
  'mbh',
  'co',
  'ltd',
  'llc',
  'inc',
  'plc',
  'sro',
]);

const FOLD: Readonly<Record<string, string>> = { đ: 'd', ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', ı: 'i', þ: 'th' };

/** Lower case, diacritics folded, dots dropped: "d.o.o." and "j.d.o.o." are one word each once their dots go. */
export function foldName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đßæøœłıþ]/g, (c) => FOLD[c] ?? c)
    .replace(/\./g, '');
}

/** Every word of a folded name, legal forms included, in order. */
export function nameWords(name: string): string[] {
  return foldName(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t !== '');
}

/** Lower-case ASCII words of a name, diacritics folded and legal forms dropped. */
export function nameTokens(name: string): string[] {
  return nameWords(name).filter((t) => !LEGAL_FORMS.has(t));
}

function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

function wordsMatch(a: string, b: string): boolean {
  return a === b || (a.length >= 5 && b.length >= 5 && withinOneEdit(a, b));
}

/** Dice coefficient of the two names' word sets, 0..1. */
export function nameSimilarity(a: string, b: string): number {
  const left = [...new Set(nameTokens(a))];
  const right = [...new Set(nameTokens(b))];
  if (left.length === 0 || right.length === 0) return 0;
  const used = new Set<number>();
  let matched = 0;
  for (const word of left) {
    const index = right.findIndex((other, k) => !used.has(k) && wordsMatch(word, other));
    if (index >= 0) {
      used.add(index);
      matched++;
    }
  }
  return (2 * matched) / (left.length + right.length);
}
