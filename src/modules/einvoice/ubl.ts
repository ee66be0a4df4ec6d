import {
  ALLOWANCE_REASONS,
  amount,
  CUSTOMIZATION_IDS,
  percent,
  type EInvoice,
  type EInvoiceLine,
  type Party,
  type TaxCategory,
} from './einvoice-model.ts';
import { document, el, leaf, type Node } from './xml.ts';

/**
 * The model as an OASIS UBL 2.1 Invoice or CreditNote (ISO/IEC 19845:2015), bound to EN 16931
 * as CEN/TS 16931-3-2:2020 maps it. Element order is the UBL schema's sequence; every amount
 * carries the document currency (BR-CL-03 asks the same currency throughout).
 */
export function toUbl(invoice: EInvoice): string {
  const credit = invoice.typeCode === '381';
  const root = credit ? 'CreditNote' : 'Invoice';
  const m = (name: string, minor: number) => leaf(name, amount(minor), { currencyID: invoice.currency });
  const hrBreakdown = hrTaxBreakdown(invoice, m);
  return document(
    el(
      root,
      [
        hrBreakdown,
        leaf('cbc:CustomizationID', CUSTOMIZATION_IDS[invoice.profile]),
        leaf('cbc:ProfileID', invoice.processId),
        leaf('cbc:ID', invoice.number),
        leaf('cbc:IssueDate', invoice.issueDate),
        invoice.profile === 'hr-cius' && leaf('cbc:IssueTime', invoice.issueTime),
        // UBL 2.1's CreditNote has no DueDate: a credit note's due date would go in PaymentMeans.
        !credit && leaf('cbc:DueDate', invoice.dueDate),
        leaf(credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode', invoice.typeCode),
        invoice.notes.map((n) => leaf('cbc:Note', n)),
        leaf('cbc:DocumentCurrencyCode', invoice.currency),
        leaf('cbc:BuyerReference', invoice.buyerReference),
        invoice.orderReference && el('cac:OrderReference', [leaf('cbc:ID', invoice.orderReference)]),
        invoice.preceding &&
          el('cac:BillingReference', [
            el('cac:InvoiceDocumentReference', [
              leaf('cbc:ID', invoice.preceding.number),
              leaf('cbc:IssueDate', invoice.preceding.issueDate),
            ]),
          ]),
        el('cac:AccountingSupplierParty', [
          party(invoice.seller, invoice.profile === 'xrechnung' ? invoice.sellerContact : null),
          invoice.profile === 'hr-cius' &&
            invoice.sellerContact &&
            el('cac:SellerContact', [
              leaf('cbc:ID', invoice.sellerContact.id),
              leaf('cbc:Name', invoice.sellerContact.name),
            ]),
        ]),
        el('cac:AccountingCustomerParty', [party(invoice.buyer, null)]),
        invoice.deliveryDate && el('cac:Delivery', [leaf('cbc:ActualDeliveryDate', invoice.deliveryDate)]),
        invoice.payment &&
          el('cac:PaymentMeans', [
            leaf('cbc:PaymentMeansCode', invoice.payment.code),
            leaf('cbc:PaymentID', invoice.payment.reference),
            invoice.payment.account &&
              el('cac:PayeeFinancialAccount', [
                leaf('cbc:ID', invoice.payment.account.iban),
                leaf('cbc:Name', invoice.payment.account.holder),
                invoice.payment.account.bic &&
                  el('cac:FinancialInstitutionBranch', [leaf('cbc:ID', invoice.payment.account.bic)]),
              ]),
          ]),
        invoice.paymentTerms && el('cac:PaymentTerms', [leaf('cbc:Note', invoice.paymentTerms)]),
        el('cac:TaxTotal', [
          m('cbc:TaxAmount', invoice.totals.tax),
          invoice.taxes.map((t) =>
            el('cac:TaxSubtotal', [
              m('cbc:TaxableAmount', t.base),
              m('cbc:TaxAmount', t.tax),
              taxCategory('cac:TaxCategory', t.category, t.rateBp, t.exemptionReason, invoice.profile === 'hr-cius'),
            ]),
          ),
        ]),
        el('cac:LegalMonetaryTotal', [
          m('cbc:LineExtensionAmount', invoice.totals.lineNet),
          m('cbc:TaxExclusiveAmount', invoice.totals.taxExclusive),
          m('cbc:TaxInclusiveAmount', invoice.totals.taxInclusive),
          invoice.totals.prepaid !== 0 && m('cbc:PrepaidAmount', invoice.totals.prepaid),
          m('cbc:PayableAmount', invoice.totals.payable),
        ]),
        invoice.lines.map((line) =>
          el(credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine', [
            leaf('cbc:ID', line.id),
            leaf('cbc:Note', line.note),
            leaf(credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', line.quantity, { unitCode: line.unitCode }),
            m('cbc:LineExtensionAmount', line.net),
            line.allowance && lineAllowance(line.allowance, ALLOWANCE_REASONS[invoice.profile], m),
            el('cac:Item', [
              leaf('cbc:Name', line.name),
              line.sellerItemId && el('cac:SellersItemIdentification', [leaf('cbc:ID', line.sellerItemId)]),
              line.classification &&
                el('cac:CommodityClassification', [
                  leaf('cbc:ItemClassificationCode', line.classification, { listID: 'CG' }),
                ]),
              taxCategory(
                'cac:ClassifiedTaxCategory',
                line.category,
                line.rateBp,
                // HR-BR-36: an exempt line states its reason on the line as well.
                invoice.profile === 'hr-cius' && line.category === 'E'
                  ? (invoice.taxes.find((t) => t.category === 'E')?.exemptionReason ?? null)
                  : null,
                invoice.profile === 'hr-cius',
              ),
            ]),
            el('cac:Price', [leaf('cbc:PriceAmount', line.netPrice, { currencyID: invoice.currency })]),
          ]),
        ),
      ],
      {
        xmlns: `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`,
        'xmlns:cac': 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
        'xmlns:cbc': 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
        ...(hrBreakdown
          ? {
              'xmlns:ext': 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
              'xmlns:hrextac': 'urn:mfin.gov.hr:schema:xsd:HRExtensionAggregateComponents-1',
            }
          : {}),
      },
    ),
  );
}

/**
 * The HR VAT category mark (HR-BT-12, HR-BT-18) from table HR-TB-2: HR-BR-CL-1 takes only its
 * codes (`HR:E` exempt, `HR:PDV25` …). Only the exempt mark is written: HR-BR-16 asks it of an
 * exempt line, and nothing asks it of a standard-rated one.
 */
const HR_EXEMPT = 'HR:E';

/**
 * HR-BG-2, the HR VAT breakdown, in the HR extension (`hrextac:HRFISK20Data`) as Porezna uprava's
 * schema HRExtensionAggregateComponents-1.xsd (v1.0) lays it out: HRTaxTotal with the document's
 * VAT (HR-BR-55, and HR-BR-54 the sum of its subtotals), one HRTaxSubtotal per rate of the
 * document's own breakdown (the same bases and taxes, so both agree to the cent), its category
 * with the exempt mark, the rate (0 for an exempt one, HR-BR-E-10, whose tax is 0, HR-BR-28),
 * the exemption reason, and the scheme VAT. HR-BR-26 asks it of a document with an exempt line;
 * others go without it (HR-BG-3, the out-of-scope totals, is for items outside the tax base,
 * which Portico does not sell).
 */
function hrTaxBreakdown(invoice: EInvoice, m: (name: string, minor: number) => Node): Node {
  if (invoice.profile !== 'hr-cius' || !invoice.taxes.some((t) => t.category === 'E')) return null;
  return el('ext:UBLExtensions', [
    el('ext:UBLExtension', [
      el('ext:ExtensionContent', [
        el('hrextac:HRFISK20Data', [
          el('hrextac:HRTaxTotal', [
            m('cbc:TaxAmount', invoice.totals.tax),
            invoice.taxes.map((t) =>
              el('hrextac:HRTaxSubtotal', [
                m('cbc:TaxableAmount', t.base),
                m('cbc:TaxAmount', t.tax),
                el('hrextac:HRTaxCategory', [
                  leaf('cbc:ID', t.category),
                  t.category === 'E' && leaf('cbc:Name', HR_EXEMPT),
                  leaf('cbc:Percent', percent(t.rateBp)),
                  t.category === 'E' && leaf('cbc:TaxExemptionReason', t.exemptionReason),
                  el('hrextac:HRTaxScheme', [leaf('cbc:ID', 'VAT')]),
                ]),
              ]),
            ),
          ]),
        ]),
      ]),
    ]),
  ]);
}

/**
 * BG-27 in UBL: an AllowanceCharge on the line, ChargeIndicator false, in the schema's order (reason
 * code, reason, multiplier, amount, base); no tax category, the line's own applies (UBL-CR-5xx).
 */
function lineAllowance(
  allowance: NonNullable<EInvoiceLine['allowance']>,
  reason: string,
  m: (name: string, minor: number) => Node,
): Node {
  return el('cac:AllowanceCharge', [
    leaf('cbc:ChargeIndicator', 'false'),
    leaf('cbc:AllowanceChargeReasonCode', '95'),
    leaf('cbc:AllowanceChargeReason', reason),
    leaf('cbc:MultiplierFactorNumeric', allowance.percent),
    m('cbc:Amount', allowance.amount),
    m('cbc:BaseAmount', allowance.base),
  ]);
}

function taxCategory(
  name: string,
  category: TaxCategory,
  rateBp: number,
  exemptionReason: string | null,
  named: boolean,
): Node {
  return el(name, [
    leaf('cbc:ID', category),
    // HR-BR-16: an exempt category carries its HR mark (HR-BT-12), from HR-TB-2 (HR-BR-CL-1).
    named && category === 'E' && leaf('cbc:Name', HR_EXEMPT),
    leaf('cbc:Percent', percent(rateBp)),
    category === 'E' && leaf('cbc:TaxExemptionReason', exemptionReason),
    el('cac:TaxScheme', [leaf('cbc:ID', 'VAT')]),
  ]);
}

function party(p: Party, contact: { name: string | null; phone: string | null; email: string | null } | null): Node {
  return el('cac:Party', [
    p.endpoint && leaf('cbc:EndpointID', p.endpoint.id, { schemeID: p.endpoint.scheme }),
    el('cac:PartyName', [leaf('cbc:Name', p.name)]),
    p.address &&
      el('cac:PostalAddress', [
        leaf('cbc:StreetName', p.address.street),
        leaf('cbc:CityName', p.address.city),
        leaf('cbc:PostalZone', p.address.postalCode),
        el('cac:Country', [leaf('cbc:IdentificationCode', p.address.country)]),
      ]),
    p.vatId && el('cac:PartyTaxScheme', [leaf('cbc:CompanyID', p.vatId), el('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])]),
    // BT-32: a tax number that is not a VAT id ("FC", as CEN/TS 16931-3-2 marks it).
    p.taxNumber &&
      el('cac:PartyTaxScheme', [leaf('cbc:CompanyID', p.taxNumber), el('cac:TaxScheme', [leaf('cbc:ID', 'FC')])]),
    el('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', p.name), leaf('cbc:CompanyID', p.legalId)]),
    contact &&
      el('cac:Contact', [
        leaf('cbc:Name', contact.name),
        leaf('cbc:Telephone', contact.phone),
        leaf('cbc:ElectronicMail', contact.email),
      ]),
  ]);
}
