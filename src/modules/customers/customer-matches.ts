import { emailKey, phoneKey } from './contact-keys.ts';
import { nameSimilarity } from './name-similarity.ts';
import { taxIdKey } from './tax-id.ts';

/**
 * Ranks directory customers for the placeholder customer a quotation or web order arrived with,
 * each with the reasons staff see beside the suggestion. Identifiers outrank names: a tax id
 * names one legal person, an e-mail usually one person, a phone one household or desk, while
 * names repeat (Horvat is the most common surname in Croatia). The score is
 * 100 (same tax id) + 40 (same e-mail) + 30 (same phone) + 20 × name similarity, so one
 * identifier beats any name and a stronger identifier beats a weaker one; ties keep the
 * better name, then the alphabetical one, then the id, so the order is stable.
 */

export interface Placeholder {
  name: string;
  email?: string | null;
  phone?: string | null;
  taxId?: string | null;
}

export interface MatchCandidate {
  id: string;
  name: string;
  email?: string | null;
  phone?: string | null;
  taxId?: string | null;
}

export type MatchReason = 'same_tax_id' | 'same_email' | 'same_phone' | 'similar_name';

export interface CustomerMatch<C extends MatchCandidate> {
  customer: C;
  score: number;
  reasons: MatchReason[];
  /** 0..1, see name-similarity.ts; present whatever the reasons, so staff can compare. */
  nameSimilarity: number;
}

export interface MatchOptions {
  /** The company's country: what a national phone number means. */
  defaultCountry?: string | null;
  /** Names at least this alike count as a reason (default 0.6: one shared word of two is not enough). */
  minNameSimilarity?: number;
  limit?: number;
}

const WEIGHTS = { same_tax_id: 100, same_email: 40, same_phone: 30, name: 20 } as const;

export function rankCustomerMatches<C extends MatchCandidate>(
  placeholder: Placeholder,
  candidates: readonly C[],
  options: MatchOptions = {},
): CustomerMatch<C>[] {
  const minName = options.minNameSimilarity ?? 0.6;
  const wanted = {
    taxId: nonEmpty(placeholder.taxId) ? taxIdKey(placeholder.taxId) : null,
    email: nonEmpty(placeholder.email) ? emailKey(placeholder.email) : null,
    phone: nonEmpty(placeholder.phone) ? phoneKey(placeholder.phone, options.defaultCountry) : null,
  };
  const matches: CustomerMatch<C>[] = [];
  for (const customer of candidates) {
    const reasons: MatchReason[] = [];
    let score = 0;
    if (wanted.taxId && nonEmpty(customer.taxId) && taxIdKey(customer.taxId) === wanted.taxId) {
      reasons.push('same_tax_id');
      score += WEIGHTS.same_tax_id;
    }
    if (wanted.email && nonEmpty(customer.email) && emailKey(customer.email) === wanted.email) {
      reasons.push('same_email');
      score += WEIGHTS.same_email;
    }
    if (wanted.phone && nonEmpty(customer.phone) && phoneKey(customer.phone, options.defaultCountry) === wanted.phone) {
      reasons.push('same_phone');
      score += WEIGHTS.same_phone;
    }
    const similarity = nameSimilarity(placeholder.name, customer.name);
    if (similarity >= minName) reasons.push('similar_name');
    if (reasons.length === 0) continue;
    score += WEIGHTS.name * similarity;
    matches.push({
      customer,
      score: Math.round(score * 100) / 100,
      reasons,
      nameSimilarity: Math.round(similarity * 100) / 100,
    });
  }
  matches.sort(
    (a, b) =>
      b.score - a.score ||
      b.nameSimilarity - a.nameSimilarity ||
      a.customer.name.localeCompare(b.customer.name) ||
      (a.customer.id < b.customer.id ? -1 : a.customer.id > b.customer.id ? 1 : 0),
  );
  return options.limit === undefined ? matches : matches.slice(0, options.limit);
}

function nonEmpty(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '';
}
