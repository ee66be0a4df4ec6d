import type { DocumentTitle, PrintedContent } from '../documents/index.ts';
import type { MessageArgs, MessageKey } from '../i18n/index.ts';

/**
 * The one print model of every sales document (a quotation, a sale; invoices, credit notes and
 * delivery notes to come): everything the printer needs, already resolved as plain data, so no
 * database access happens while printing and the print is the same whoever builds this model.
 * A new kind of document is new data (its title, number, dates and labels), not a new printer:
 * its module builds this from its own rows, and the message catalog names it.
 *
 * Decimal values are strings (as they come from numeric columns) so no precision is lost before
 * printing. Texts of the print template arrive with their {placeholders} filled. Labels are keys
 * of the message catalog, printed in the document's language. Rendering is deterministic: the
 * same document always produces the same PDF bytes. What every kind shows the same way (company,
 * template, location, lines, totals, payment) is the kernel's PrintedContent.
 */
export interface PrintDocument extends PrintedContent {
  /** `a4` (the default) or `receipt`: the same content on an 80 mm roll, as long as it needs. */
  layout?: 'a4' | 'receipt';
  /** The kind of document as the message catalog names it: "Ponuda" for `document.quotation` in Croatian. */
  title: DocumentTitle;
  /** Document number, e.g. "Q-ZG1-2026-00042" or "S-ZG1-2026-00007"; the title prints with it. */
  number: string;
  /** The document this one was made from, printed under the title. */
  source?: { number: string } | null;
  /** ISO 8601 UTC: printed first, with its time, under `issuedLabel`; also the PDF CreationDate/ModDate. */
  issuedAt: string;
  /**
   * What the issue date is called on this kind of document: "Issued" (a quotation), "Date" (a sale);
   * null: not printed, the document says its own times among its facts (a day report's opening
   * and closing, in that order and one style).
   */
  issuedLabel: PrintLabel | null;
  /** Further dates, printed as days after the issue date: a quotation's validity, an invoice's due date. */
  dates: Array<{ label: PrintLabel; at: string }>;
  customer: {
    name: string;
    email: string | null;
    phone: string | null;
    /** One line, as the document stores it (an invoice names the buyer's address). */
    address?: string | null;
    /** The buyer's tax ids under their legal names (an R-1 invoice's OIB). */
    ids?: PrintFact[];
  };
  note: string | null;
  /** Further facts of the meta block, already formatted: delivery date, payment method, operator. */
  facts?: PrintFact[];
  /** What a correction corrects and why, printed under the title. */
  corrects?: string[];
  /** Notes the law asks for under the totals, e.g. why 0 % lines are exempt. */
  notices?: string[];
  /** The money received and what is left: a paid invoice says so and prints no payment codes. */
  settlement?: {
    /** What credit notes took off the total (a negative amount), when any did. */
    credited?: string | null;
    payments: Array<{ at: string; method: string; amount: string }>;
    paid: string;
    balance: string;
    state: 'due' | 'paid' | 'refund';
    /** Cash handed over at the counter, and the change given back. */
    tendered?: string;
    change?: string;
  } | null;
  /** The print template's logo (PNG) and its size in pixels: printed above the company's name, proportions kept. */
  logo?: { png: Uint8Array; width: number; height: number } | null;
  /** The fiscal record: labelled values (ZKI, JIR) and the verification URL drawn as a QR code. */
  /** `heading`: what the code is said to be, where not the verification URL (Germany's TSE data). */
  fiscal?: { lines: PrintFact[]; verifyUrl: string | null; heading?: PrintLabel } | null;
}

/** A labelled value, formatted by whoever builds the document. */
export interface PrintFact {
  label: PrintLabel;
  value: string;
}

/** A message without placeholders: printed as it is. */
type PlainMessage = { [K in MessageKey]: MessageArgs<K> extends [] ? K : never }[MessageKey];

/** A label of the print ("print.validUntil", "print.dueDate", ...). */
export type PrintLabel = Extract<PlainMessage, `print.${string}`>;
