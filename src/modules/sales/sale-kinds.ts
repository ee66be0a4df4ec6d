import type { FiscalPaymentMethod } from '../fiscal/index.ts';

/** What a sale's row may be: an invoice, or one of its corrections (each an issued document). */
export const INVOICE_KINDS = ['invoice', 'cancellation', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
export const INVOICE_PAYMENT_METHODS = ['cash', 'card', 'bank_transfer', 'other'] as const;
export type InvoicePaymentMethod = FiscalPaymentMethod;

/** What a sale was made from; `counter`: sold at the counter, its own source (id and number the sale's). */
export type SaleSourceType = 'quotation' | 'order' | 'counter';
