import { printedContent } from '../documents/index.ts';
import { unitCodeOf } from '../catalog/index.ts';
import { buildEInvoice, type EInvoice } from '../einvoice/index.ts';
import type { IssueSnapshot } from './issue-snapshot.ts';
import type { SaleLineRow, SaleRow } from './types.ts';

/**
 * An issued document as an EN 16931 e-invoice model (issue 21), from its row, its stored lines
 * and what it was issued with: a pure function, so the issuing transaction can write the
 * e-invoice it sends (issue 33) from what it holds, and every later read writes the same one.
 */
export function saleEInvoice(
  row: SaleRow,
  lines: readonly SaleLineRow[],
  issuedAs: IssueSnapshot,
  original: SaleRow | null,
): { model: EInvoice; buyerKind: string } {
  const { company, location, buyer } = issuedAs;
  const number = row.invoice_number ?? row.number;
  // The payment reference as the print and its payment codes carry it, whatever is still due
  // (the print drops its payment codes once paid or cancelled; the e-invoice keeps its reference).
  const content = printedContent(
    {
      title: 'document.invoice',
      number,
      currency: row.currency,
      pricesIncludeTax: Boolean(row.prices_include_tax),
      totalMinor: Math.abs(row.total_minor),
      dueDate: row.created_at,
      customerName: row.customer_name,
      paymentYear: row.invoice_year,
    },
    lines,
    company,
    location,
  );
  const reference = content.payment
    ? [content.payment.reference.model, content.payment.reference.value].filter(Boolean).join(' ')
    : null;
  const model = buildEInvoice({
    kind: row.kind as EInvoice['kind'],
    number,
    issuedAt: row.issued_at ?? row.created_at,
    dueDate: row.due_date,
    deliveryDate: row.delivery_date,
    currency: row.currency,
    pricesIncludeTax: Boolean(row.prices_include_tax),
    paymentMethod: row.payment_method,
    paymentReference: reference,
    paidMinor: issuedAs.paidMinor,
    orderReference: row.order_reference ?? null,
    note: row.note,
    correctionReason: row.correction_reason,
    exemptionReason: row.exemption_reason,
    operator: row.operator_name || row.operator_oib ? { name: row.operator_name, oib: row.operator_oib } : null,
    preceding: original
      ? { number: original.invoice_number ?? original.number, issuedAt: original.issued_at ?? original.created_at }
      : null,
    company: {
      name: company.name,
      country: company.country,
      taxId: company.taxId,
      vatRegistered: company.fiscal.vatRegistered,
      timezone: company.timezone,
      address: company.address,
      bankAccount: company.bankAccount,
      contact: company.einvoiceContact,
    },
    buyer: {
      kind: row.customer_kind,
      name: row.customer_name,
      taxId: row.customer_tax_id,
      email: row.customer_email,
      address: row.customer_address ? JSON.parse(row.customer_address) : null,
      endpoint:
        buyer?.endpoint_id && buyer.endpoint_scheme ? { id: buyer.endpoint_id, scheme: buyer.endpoint_scheme } : null,
      buyerReference: buyer?.buyer_reference ?? null,
    },
    lines,
    // The codes the lines kept when the sale was issued, never the catalog's today (0019); a
    // line issued without its own unit code reads it from its own unit name.
    classifications: new Map(lines.map((l) => [l.id, l.classification_code ?? null])),
    unitCodes: new Map(lines.map((l) => [l.id, unitCodeOf(l.unit_name, l.unit_code)])),
  });
  return { model, buyerKind: row.customer_kind };
}
