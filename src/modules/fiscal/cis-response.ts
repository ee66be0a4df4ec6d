import { DOMParser, type Element } from '@xmldom/xmldom';
import { CIS_NS } from './racun-request.ts';

/** What a CIS answer to RacunZahtjev says (specification v2.5 section 2.1.3, errors 2.7). */
export type RacunAnswer =
  | { kind: 'jir'; jir: string }
  | { kind: 'errors'; errors: Array<{ code: string; message: string }> }
  /** Not an answer of the specification's: a proxy's page, a cut body. Treated as no answer. */
  | { kind: 'unreadable'; detail: string };

const JIR = /^[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}$/i;

export function parseRacunAnswer(body: string): RacunAnswer {
  const doc = parse(body);
  if (!doc) return { kind: 'unreadable', detail: 'not XML' };
  const answer = self(doc, 'RacunOdgovor');
  if (!answer) return { kind: 'unreadable', detail: 'no RacunOdgovor' };
  const jir = first(answer, 'Jir')?.textContent?.trim() ?? '';
  if (JIR.test(jir)) return { kind: 'jir', jir: jir.toLowerCase() };
  const errors = errorsOf(answer);
  if (errors.length > 0) return { kind: 'errors', errors };
  return { kind: 'unreadable', detail: 'RacunOdgovor without Jir or Greske' };
}

/** What CIS answers to PromijeniPodatkeRacunaZahtjev (specification v2.6 §2.1.5.3): p005, or errors. */
export type ChangeAnswer =
  | { kind: 'changed' }
  | { kind: 'errors'; errors: Array<{ code: string; message: string }> }
  | { kind: 'unreadable'; detail: string };

export function parseChangeAnswer(body: string): ChangeAnswer {
  const doc = parse(body);
  if (!doc) return { kind: 'unreadable', detail: 'not XML' };
  const answer = self(doc, 'PromijeniPodatkeRacunaOdgovor');
  if (!answer) return { kind: 'unreadable', detail: 'no PromijeniPodatkeRacunaOdgovor' };
  const errors = errorsOf(answer);
  if (errors.length > 0) return { kind: 'errors', errors };
  // The specification's table says p005; its example writes the code in capitals (P001).
  const code = first(answer, 'SifraPoruke')?.textContent?.trim().toLowerCase();
  if (code === 'p005') return { kind: 'changed' };
  return { kind: 'unreadable', detail: `PromijeniPodatkeRacunaOdgovor without p005 (${code ?? 'no code'})` };
}

function errorsOf(answer: Element) {
  return Array.from(answer.getElementsByTagNameNS(CIS_NS, 'Greska')).map((g) => ({
    code: first(g, 'SifraGreske')?.textContent?.trim() ?? '',
    message: first(g, 'PorukaGreske')?.textContent?.trim() ?? '',
  }));
}

/** The echo's answer text, or null when the body is not an EchoResponse. */
export function parseEchoAnswer(body: string): string | null {
  const doc = parse(body);
  const echo = doc ? first(doc, 'EchoResponse') : null;
  return echo?.textContent ?? null;
}

function parse(body: string) {
  try {
    const doc = new DOMParser({ onError: () => {} }).parseFromString(body, 'text/xml');
    return doc.documentElement ? doc.documentElement : null;
  } catch {
    return null;
  }
}

/** The element itself (an answer as its signature covers it) or its first such descendant (an envelope). */
function self(node: Element, localName: string): Element | null {
  return node.localName === localName && node.namespaceURI === CIS_NS ? node : first(node, localName);
}

function first(node: Element, localName: string): Element | null {
  return node.getElementsByTagNameNS(CIS_NS, localName).item(0);
}
