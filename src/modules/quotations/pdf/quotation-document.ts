/**
 * Everything the quotation PDF renderer needs, already resolved and formatted
 * as plain data (no database access happens while rendering).
 *
 * Decimal values are strings (as they come from numeric columns) so no
 * precision is lost before printing. Rendering is deterministic: the same
 * QuotationDocument always produces the same PDF bytes.
 */
export interface QuotationDocument {
  /** Which sales document this is (its title); a quotation when absent. */
  kind?: 'quotation' | 'sale';
  /** The document a sale was converted from, printed under the title. */
  source?: { kind: 'quotation' | 'order'; number: string } | null;
  /** Document number, e.g. "Q-ZG1-2026-00042" or "S-ZG1-2026-00007". */
  number: string;
  /** ISO 8601 UTC; also used as the PDF CreationDate/ModDate. */
  issuedAt: string;
  /** ISO 8601 UTC; null for a document that does not expire (a sale). */
  expiresAt: string | null;
  /** ISO 4217, e.g. "EUR". */
  currency: string;
  /** BCP 47, e.g. "hr-HR", "de-DE". */
  locale: string;
  /** IANA, e.g. "Europe/Zagreb" (dates are printed in it). */
  timezone: string;
  pricesIncludeTax: boolean;
  company: { name: string; address: string | null; taxId: string | null };
  template: { header: string | null; footer: string | null; paymentInstructions: string | null };
  location: { name: string; code: string; address: string | null };
  customer: { name: string; email: string | null; phone: string | null };
  note: string | null;
  lines: Array<{
    /** 1-based. */
    position: number;
    productName: string;
    /** SKU. */
    productCode: string | null;
    /** Printed beneath the product name. */
    note: string | null;
    /** Decimal string, up to 3 places, e.g. "1.5". */
    quantity: string;
    /** e.g. "kom", "L", "m²". */
    unitName: string;
    /** Decimal string in currency units, e.g. "12.40". */
    unitPrice: string;
    /** Percent as decimal string, e.g. "25" or "9.5". */
    taxRate: string;
    /** Line amount (gross if pricesIncludeTax else net), decimal string. */
    amount: string;
  }>;
  totals: { net: string; tax: string; withTax: string; taxes: Array<{ rate: string; base: string; tax: string }> };
}
