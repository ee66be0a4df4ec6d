/**
 * The folded form of a name that list searches compare by prefix: lower case, diacritics folded
 * (Kovač → kovac, Đurđa → durda, Straße → strasse), every run of other characters one space. It
 * is plain ASCII letters, digits and spaces, so a prefix compares byte by byte on both engines,
 * whatever the database's collation.
 */
const FOLD: Readonly<Record<string, string>> = { đ: 'd', ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', ł: 'l', ı: 'i', þ: 'th' };

export function searchKey(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đßæøœłıþ]/g, (c) => FOLD[c] ?? c)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
