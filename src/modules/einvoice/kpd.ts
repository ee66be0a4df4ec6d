import fs from 'node:fs';
import { searchKey } from '../../lib/search-key.ts';

/**
 * KPD 2025, the classification every Croatian e-invoice line carries (Zakon o fiskalizaciji NN
 * 89/2025 art. 42; HR-CIUS HR-BR-25, list id "CG"): the official list of 3,359 six-level codes,
 * shipped as `kpd-2025.tsv` beside this file (source: DZS, "KPD 2025."). Read once, on first use.
 */
export interface KpdEntry {
  code: string;
  name: string;
}

let list: { entries: KpdEntry[]; byCode: Map<string, KpdEntry>; keys: string[] } | null = null;

function load() {
  if (list) return list;
  const entries: KpdEntry[] = [];
  for (const line of fs.readFileSync(new URL('./kpd-2025.tsv', import.meta.url), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const tab = line.indexOf('\t');
    entries.push({ code: line.slice(0, tab), name: line.slice(tab + 1) });
  }
  list = {
    entries,
    byCode: new Map(entries.map((e) => [e.code, e])),
    keys: entries.map((e) => ` ${searchKey(e.name)}`),
  };
  return list;
}

/** The entry of a KPD 2025 code, or undefined when the code is not in the list. */
export function kpdEntry(code: string): KpdEntry | undefined {
  return load().byCode.get(code.trim());
}

/**
 * The picker's search: digits and dots find codes by prefix ("20.30" → 20.30.11, 20.30.12, …);
 * words find names holding a word that starts with each of them, diacritics folded. At most `limit`.
 */
export function searchKpd(query: string, limit = 20): KpdEntry[] {
  const { entries, keys } = load();
  const q = query.trim();
  if (/^[\d.]+$/.test(q)) return entries.filter((e) => e.code.startsWith(q)).slice(0, limit);
  const words = searchKey(q).split(' ').filter(Boolean);
  if (words.length === 0) return [];
  const out: KpdEntry[] = [];
  for (let i = 0; i < entries.length && out.length < limit; i++) {
    const key = keys[i]!;
    if (words.every((w) => key.includes(` ${w}`))) out.push(entries[i]!);
  }
  return out;
}
