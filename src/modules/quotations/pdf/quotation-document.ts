import type { PaymentDetails } from '../../documents/index.ts';

/**
 * Everything the sales document printer needs (a quotation or a sale: one layout), already
 * resolved as plain data: no database access happens while printing, and the print is the same
 * whoever builds this model.
 *
 * Decimal values are strings (as they come from numeric columns) so no precision is lost before
 * printing. Texts of the print template arrive with their {placeholders} filled. Rendering is
 * deterministic: the same document always produces the same PDF bytes.
 */
export interface QuotationDocument {
  /** Chooses the title (from the message catalog) and the wording of dates. */
  kind: 'quotation' | 'sale';
  /** The document a sale was converted from, printed under the title. */
  source?: { kind: 'quotation' | 'order'; number: string } | null;
  /** Document number, e.g. "Q-ZG1-2026-00042" or "S-ZG1-2026-00007". */
  number: string;
  /** ISO 8601 UTC; also used as the PDF CreationDate/ModDate. */
  issuedAt: string;
  /** ISO 8601 UTC: a quotation's validity; null when the document has none (a sale). */
  expiresAt: string | null;
  /** ISO 4217, e.g. "EUR". */
  currency: string;
  /** BCP 47, e.g. "hr-HR", "de-DE": labels, numbers and dates. */
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
  /**
   * The tax summary as printed: per rate the base and the tax (with prices including tax, the
   * tax contained in base + tax). Σ base + Σ tax = withTax.
   */
  totals: { net: string; tax: string; withTax: string; taxes: Array<{ rate: string; base: string; tax: string }> };
  /** How to pay, printed with the totals; null without a bank account. */
  payment: PaymentDetails | null;
}
