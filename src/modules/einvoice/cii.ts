import { ALLOWANCE_REASONS, amount, CUSTOMIZATION_IDS, percent, type EInvoice, type Party } from './einvoice-model.ts';
import { document, el, leaf, type Node } from './xml.ts';

/**
 * The model as a UN/CEFACT Cross Industry Invoice D16B (the version EN 16931 binds, CEN/TS
 * 16931-3-3:2020), also the XML a Factur-X / ZUGFeRD PDF embeds. A credit note is TypeCode 381
 * with positive amounts, a storno 384 with negative ones, as in UBL. A line's discount is its
 * SpecifiedTradeAllowanceCharge (BG-27), the net price (BT-146) the price before it.
 */
export function toCii(invoice: EInvoice): string {
  const date = (iso: string, ns = 'udt') => leaf(`${ns}:DateTimeString`, iso.replaceAll('-', ''), { format: '102' });
  const money = (name: string, minor: number, withCurrency = false) =>
    leaf(name, amount(minor), withCurrency ? { currencyID: invoice.currency } : {});
  return document(
    el(
      'rsm:CrossIndustryInvoice',
      [
        el('rsm:ExchangedDocumentContext', [
          invoice.processId &&
            el('ram:BusinessProcessSpecifiedDocumentContextParameter', [leaf('ram:ID', invoice.processId)]),
          el('ram:GuidelineSpecifiedDocumentContextParameter', [leaf('ram:ID', CUSTOMIZATION_IDS[invoice.profile])]),
        ]),
        el('rsm:ExchangedDocument', [
          leaf('ram:ID', invoice.number),
          leaf('ram:TypeCode', invoice.typeCode),
          el('ram:IssueDateTime', [date(invoice.issueDate)]),
          invoice.notes.map((n) => el('ram:IncludedNote', [leaf('ram:Content', n)])),
        ]),
        el('rsm:SupplyChainTradeTransaction', [
          invoice.lines.map((line) =>
            el('ram:IncludedSupplyChainTradeLineItem', [
              el('ram:AssociatedDocumentLineDocument', [
                leaf('ram:LineID', line.id),
                line.note && el('ram:IncludedNote', [leaf('ram:Content', line.note)]),
              ]),
              el('ram:SpecifiedTradeProduct', [
                leaf('ram:SellerAssignedID', line.sellerItemId),
                leaf('ram:Name', line.name),
                line.classification &&
                  el('ram:DesignatedProductClassification', [
                    leaf('ram:ClassCode', line.classification, { listID: 'CG' }),
                  ]),
              ]),
              el('ram:SpecifiedLineTradeAgreement', [
                el('ram:NetPriceProductTradePrice', [leaf('ram:ChargeAmount', line.netPrice)]),
              ]),
              el('ram:SpecifiedLineTradeDelivery', [
                leaf('ram:BilledQuantity', line.quantity, { unitCode: line.unitCode }),
              ]),
              el('ram:SpecifiedLineTradeSettlement', [
                el('ram:ApplicableTradeTax', [
                  leaf('ram:TypeCode', 'VAT'),
                  leaf('ram:CategoryCode', line.category),
                  leaf('ram:RateApplicablePercent', percent(line.rateBp)),
                ]),
                line.allowance &&
                  el('ram:SpecifiedTradeAllowanceCharge', [
                    el('ram:ChargeIndicator', [leaf('udt:Indicator', 'false')]),
                    leaf('ram:CalculationPercent', line.allowance.percent),
                    money('ram:BasisAmount', line.allowance.base),
                    money('ram:ActualAmount', line.allowance.amount),
                    leaf('ram:ReasonCode', '95'),
                    leaf('ram:Reason', ALLOWANCE_REASONS[invoice.profile]),
                  ]),
                el('ram:SpecifiedTradeSettlementLineMonetarySummation', [money('ram:LineTotalAmount', line.net)]),
              ]),
            ]),
          ),
          el('ram:ApplicableHeaderTradeAgreement', [
            leaf('ram:BuyerReference', invoice.buyerReference),
            tradeParty('ram:SellerTradeParty', invoice.seller, invoice.sellerContact),
            tradeParty('ram:BuyerTradeParty', invoice.buyer, null),
            invoice.orderReference &&
              el('ram:BuyerOrderReferencedDocument', [leaf('ram:IssuerAssignedID', invoice.orderReference)]),
          ]),
          el('ram:ApplicableHeaderTradeDelivery', [
            invoice.deliveryDate &&
              el('ram:ActualDeliverySupplyChainEvent', [el('ram:OccurrenceDateTime', [date(invoice.deliveryDate)])]),
          ]) ?? '<ram:ApplicableHeaderTradeDelivery/>',
          el('ram:ApplicableHeaderTradeSettlement', [
            leaf('ram:PaymentReference', invoice.payment?.reference),
            leaf('ram:InvoiceCurrencyCode', invoice.currency),
            invoice.payment &&
              el('ram:SpecifiedTradeSettlementPaymentMeans', [
                leaf('ram:TypeCode', invoice.payment.code),
                invoice.payment.account &&
                  el('ram:PayeePartyCreditorFinancialAccount', [
                    leaf('ram:IBANID', invoice.payment.account.iban),
                    leaf('ram:AccountName', invoice.payment.account.holder),
                  ]),
                invoice.payment.account?.bic &&
                  el('ram:PayeeSpecifiedCreditorFinancialInstitution', [
                    leaf('ram:BICID', invoice.payment.account.bic),
                  ]),
              ]),
            invoice.taxes.map((t) =>
              el('ram:ApplicableTradeTax', [
                money('ram:CalculatedAmount', t.tax),
                leaf('ram:TypeCode', 'VAT'),
                t.category === 'E' && leaf('ram:ExemptionReason', t.exemptionReason),
                money('ram:BasisAmount', t.base),
                leaf('ram:CategoryCode', t.category),
                leaf('ram:RateApplicablePercent', percent(t.rateBp)),
              ]),
            ),
            invoice.dueDate &&
              el('ram:SpecifiedTradePaymentTerms', [
                leaf('ram:Description', invoice.paymentTerms),
                el('ram:DueDateDateTime', [date(invoice.dueDate)]),
              ]),
            el('ram:SpecifiedTradeSettlementHeaderMonetarySummation', [
              money('ram:LineTotalAmount', invoice.totals.lineNet),
              money('ram:TaxBasisTotalAmount', invoice.totals.taxExclusive),
              money('ram:TaxTotalAmount', invoice.totals.tax, true),
              money('ram:GrandTotalAmount', invoice.totals.taxInclusive),
              invoice.totals.prepaid !== 0 && money('ram:TotalPrepaidAmount', invoice.totals.prepaid),
              money('ram:DuePayableAmount', invoice.totals.payable),
            ]),
            invoice.preceding &&
              el('ram:InvoiceReferencedDocument', [
                leaf('ram:IssuerAssignedID', invoice.preceding.number),
                el('ram:FormattedIssueDateTime', [date(invoice.preceding.issueDate, 'qdt')]),
              ]),
          ]),
        ]),
      ],
      {
        'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
        'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
        'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
        'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
      },
    ),
  );
}

function tradeParty(name: string, p: Party, contact: EInvoice['sellerContact']): Node {
  return el(name, [
    leaf('ram:Name', p.name),
    p.legalId && el('ram:SpecifiedLegalOrganization', [leaf('ram:ID', p.legalId)]),
    contact &&
      (contact.name || contact.phone || contact.email) &&
      el('ram:DefinedTradeContact', [
        leaf('ram:PersonName', contact.name),
        contact.phone && el('ram:TelephoneUniversalCommunication', [leaf('ram:CompleteNumber', contact.phone)]),
        contact.email && el('ram:EmailURIUniversalCommunication', [leaf('ram:URIID', contact.email)]),
      ]),
    p.address &&
      el('ram:PostalTradeAddress', [
        leaf('ram:PostcodeCode', p.address.postalCode),
        leaf('ram:LineOne', p.address.street),
        leaf('ram:CityName', p.address.city),
        leaf('ram:CountryID', p.address.country),
      ]),
    p.endpoint &&
      el('ram:URIUniversalCommunication', [leaf('ram:URIID', p.endpoint.id, { schemeID: p.endpoint.scheme })]),
    p.vatId && el('ram:SpecifiedTaxRegistration', [leaf('ram:ID', p.vatId, { schemeID: 'VA' })]),
    p.taxNumber && el('ram:SpecifiedTaxRegistration', [leaf('ram:ID', p.taxNumber, { schemeID: 'FC' })]),
  ]);
}
