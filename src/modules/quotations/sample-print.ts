import { validateBic, validateIban } from '../../lib/iban.ts';
import type { Company, LocationRow } from '../companies/index.ts';
import { resolveLanguage, translate } from '../i18n/index.ts';
import type { DocumentLineRow } from '../documents/index.ts';
import type { PrintDocument } from '../printing/index.ts';
import { quotationPrint } from './quotation-print.ts';

/** What the print settings form holds before it is saved: the preview prints with these. */
export interface PrintDraft {
  template: Company['template'];
  bankAccount: { iban: string; bic: string | null; holder: string } | null;
}

/**
 * A made-up quotation printed the way the company's real ones are (the same `quotationPrint`),
 * so an admin sees the template and bank account in place before saving them. A bank account
 * that is not valid yet prints without payment codes instead of failing the preview: the form
 * names the problem when it is saved.
 */
export function sampleQuotationPrint(
  company: Company,
  location: LocationRow | null,
  draft: PrintDraft,
  now: Date,
): PrintDocument {
  const language = resolveLanguage(company.locale);
  const iban = draft.bankAccount ? validateIban(draft.bankAccount.iban) : null;
  const bic = draft.bankAccount?.bic ? validateBic(draft.bankAccount.bic) : null;
  const bankAccount =
    draft.bankAccount && iban?.ok && draft.bankAccount.holder.trim() !== ''
      ? { iban: iban.iban, bic: bic?.ok ? bic.bic : null, holder: draft.bankAccount.holder.trim() }
      : null;
  const issuedAt = now.toISOString();
  const expiresAt = new Date(now.getTime() + company.quotationValidityDays * 86_400_000).toISOString();
  const unit = translate(language, 'print.sample.unit');
  const lines = SAMPLE_LINES.map((l, i) =>
    sampleLine(company.id, i + 1, l, translate(language, 'print.sample.product', { n: i + 1 }), unit),
  );
  const totalMinor = lines.reduce((sum, l) => sum + l.total_minor, 0);
  return quotationPrint(
    {
      number: 'Q-SAMPLE-0001',
      issuedAt,
      expiresAt,
      currency: company.currency,
      pricesIncludeTax: company.pricesIncludeTax,
      totalMinor,
      customer: {
        name: translate(language, 'print.sample.customer'),
        email: 'customer@example.com',
        phone: null,
      },
      note: null,
    },
    lines,
    { ...company, template: draft.template, bankAccount },
    location ??
      ({
        id: 'sample',
        company_id: company.id,
        name: company.name,
        code: 'SAMPLE',
        address: null,
      } as LocationRow),
  );
}

const SAMPLE_LINES = [
  { quantityMilli: 2000, unitPriceMinor: 2490, taxRateBp: 2500 },
  { quantityMilli: 1000, unitPriceMinor: 12900, taxRateBp: 2500 },
] as const;

function sampleLine(
  companyId: string,
  position: number,
  l: (typeof SAMPLE_LINES)[number],
  name: string,
  unit: string,
): DocumentLineRow {
  const net = Math.round((l.unitPriceMinor * l.quantityMilli) / 1000);
  const tax = Math.round((net * l.taxRateBp) / 10_000);
  return {
    id: `sample-${position}`,
    company_id: companyId,
    document_id: 'sample',
    position,
    product_id: `sample-${position}`,
    unit_id: `sample-${position}`,
    product_name: name,
    product_code: `S-${position}`,
    unit_name: unit,
    quantity_milli: l.quantityMilli,
    unit_price_minor: l.unitPriceMinor,
    tax_rate_bp: l.taxRateBp,
    net_minor: net,
    tax_minor: tax,
    total_minor: net + tax,
    note: null,
  };
}
