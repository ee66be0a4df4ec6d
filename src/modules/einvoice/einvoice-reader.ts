import { DOMParser, type Element } from '@xmldom/xmldom';

/**
 * Reads a received e-invoice (EN 16931 in UBL 2.1, Invoice or CreditNote, or in CII D16B) into
 * the facts a person and the book of received invoices need: supplier, number, dates, lines with
 * their KPD code (listID "CG", HR-CIUS HR-BR-25), the VAT breakdown, totals, the account to pay
 * and the payment reference, and any embedded document (the PDF a supplier attaches, BG-24).
 * The document itself is never changed: this reads a copy.
 */
export interface ReadLine {
  id: string;
  name: string;
  quantity: string | null;
  unitCode: string | null;
  unitPrice: string | null;
  net: string;
  vatCategory: string | null;
  vatRate: string | null;
  /** The KPD 2025 code (classification list "CG"), when the line has one. */
  kpd: string | null;
  sellerItemId: string | null;
}

export interface ReadTax {
  category: string;
  rate: string | null;
  base: string;
  amount: string;
  exemptionReason: string | null;
}

export interface ReadParty {
  name: string | null;
  /** The Croatian OIB, from the VAT id (HR + 11 digits), the electronic address (scheme 9934) or the legal id. */
  oib: string | null;
  vatId: string | null;
  address: string | null;
}

export interface ReadAttachment {
  index: number;
  filename: string | null;
  mimeCode: string | null;
  description: string | null;
  /** Size of the decoded content. */
  bytes: number;
}

export interface ReadInvoice {
  syntax: 'ubl' | 'cii';
  /** UNTDID 1001: 380 invoice, 381 credit note, 386 advance, 384 corrective… */
  typeCode: string;
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  supplier: ReadParty & { name: string };
  buyer: ReadParty;
  lines: ReadLine[];
  taxes: ReadTax[];
  totals: { net: string; tax: string; total: string; prepaid: string | null; payable: string };
  iban: string | null;
  paymentReference: string | null;
  notes: string[];
  attachments: ReadAttachment[];
}

/** The document is not one this reader knows, or lacks what every EN 16931 invoice has. */
export class EInvoiceReadError extends Error {
  override name = 'EInvoiceReadError';
}

const NS = {
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
} as const;
type Prefix = keyof typeof NS;

function children(node: Element | null | undefined, name?: string): Element[] {
  const out: Element[] = [];
  if (!node) return out;
  for (let c = node.firstChild; c; c = c.nextSibling) {
    if (c.nodeType !== 1) continue;
    const e = c as Element;
    if (name === undefined) out.push(e);
    else {
      const [prefix, local] = name.split(':') as [Prefix, string];
      if (e.localName === local && e.namespaceURI === NS[prefix]) out.push(e);
    }
  }
  return out;
}

/** The first element down a path of direct children (`cac:Party/cbc:Name`). */
function at(node: Element | null | undefined, path: string): Element | null {
  let current: Element | null | undefined = node;
  for (const step of path.split('/')) {
    current = children(current, step)[0];
    if (!current) return null;
  }
  return current ?? null;
}

function all(node: Element | null | undefined, path: string): Element[] {
  const steps = path.split('/');
  const last = steps.pop()!;
  const parent = steps.length ? at(node, steps.join('/')) : node;
  return children(parent, last);
}

const textOf = (e: Element | null | undefined): string | null => {
  const t = e?.textContent?.trim();
  return t ? t : null;
};
const txt = (node: Element | null | undefined, path: string) => textOf(at(node, path));

/** An amount as the document wrote it, normalised to a plain decimal ("1234.5" stays, "+3" → "3"). */
function amount(value: string | null, field: string, required: true): string;
function amount(value: string | null, field: string, required?: false): string | null;
function amount(value: string | null, field: string, required = false): string | null {
  if (value === null) {
    if (required) throw new EInvoiceReadError(`${field} is missing`);
    return null;
  }
  const v = value.replace(/^\+/, '');
  if (!/^-?\d+(\.\d+)?$/.test(v)) throw new EInvoiceReadError(`${field} is not an amount: "${value.slice(0, 40)}"`);
  return v;
}

const OIB = /^\d{11}$/;
function oibFrom(...candidates: Array<string | null>): string | null {
  for (const c of candidates) {
    if (!c) continue;
    const bare = c.replace(/\s/g, '').replace(/^(HR|9934:)/i, '');
    if (OIB.test(bare)) return bare;
  }
  return null;
}

/** CII's dates are "102" (YYYYMMDD); UBL's ISO already. */
function isoDate(value: string | null): string | null {
  if (!value) return null;
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (compact) return `${compact[1]}-${compact[2]}-${compact[3]}`;
  return /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : null;
}

function required<T>(value: T | null, what: string): T {
  if (value === null || value === undefined || value === '') throw new EInvoiceReadError(`${what} is missing`);
  return value;
}

function parse(xml: string): Element {
  // E-invoices never carry a DTD; refusing one rules out entity expansion altogether.
  if (/<!DOCTYPE/i.test(xml.slice(0, 4096))) throw new EInvoiceReadError('a document type declaration is not allowed');
  let failure: string | null = null;
  let doc: ReturnType<DOMParser['parseFromString']>;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') failure ??= String(message).split('\n')[0]!;
      },
    }).parseFromString(xml, 'text/xml');
  } catch (error) {
    throw new EInvoiceReadError(`not well-formed XML (${String((error as Error).message).split('\n')[0]})`);
  }
  const root = doc.documentElement;
  if (failure || !root) throw new EInvoiceReadError(`not well-formed XML (${failure ?? 'no root element'})`);
  return root as unknown as Element;
}

/** Which syntax a root element is, or null. */
function syntaxOf(root: Element): 'ubl-invoice' | 'ubl-creditnote' | 'cii' | null {
  if (root.namespaceURI === NS.inv && root.localName === 'Invoice') return 'ubl-invoice';
  if (root.namespaceURI === NS.cn && root.localName === 'CreditNote') return 'ubl-creditnote';
  if (root.namespaceURI === NS.rsm && root.localName === 'CrossIndustryInvoice') return 'cii';
  return null;
}

export function readEInvoice(bytes: Buffer | string): ReadInvoice {
  const xml = typeof bytes === 'string' ? bytes : decode(bytes);
  const root = parse(xml);
  const syntax = syntaxOf(root);
  if (syntax === null)
    throw new EInvoiceReadError(
      `the root element {${root.namespaceURI ?? ''}}${root.localName} is not a UBL Invoice, CreditNote or CII invoice`,
    );
  return syntax === 'cii' ? readCii(root) : readUbl(root, syntax === 'ubl-creditnote');
}

/** The bytes as text, in the encoding the declaration names (UTF-8 unless it says otherwise). */
function decode(bytes: Buffer): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1]?.toLowerCase();
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder(declared ?? 'utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    throw new EInvoiceReadError(`the bytes are not ${declared ?? 'utf-8'} text`);
  }
}

function ublParty(party: Element | null): ReadParty {
  const vat = all(party, 'cac:PartyTaxScheme').find((s) => txt(s, 'cac:TaxScheme/cbc:ID') === 'VAT');
  const vatId = txt(vat, 'cbc:CompanyID');
  const endpoint = at(party, 'cbc:EndpointID');
  const endpointOib = endpoint?.getAttribute('schemeID') === '9934' ? textOf(endpoint) : null;
  const address = at(party, 'cac:PostalAddress');
  return {
    name: txt(party, 'cac:PartyLegalEntity/cbc:RegistrationName') ?? txt(party, 'cac:PartyName/cbc:Name'),
    oib: oibFrom(
      endpointOib,
      vatId?.toUpperCase().startsWith('HR') ? vatId : null,
      txt(party, 'cac:PartyLegalEntity/cbc:CompanyID'),
    ),
    vatId,
    address:
      [
        txt(address, 'cbc:StreetName'),
        [txt(address, 'cbc:PostalZone'), txt(address, 'cbc:CityName')].filter(Boolean).join(' '),
        txt(address, 'cac:Country/cbc:IdentificationCode'),
      ]
        .filter(Boolean)
        .join(', ') || null,
  };
}

function attachmentsOf(refs: Element[], objectPath: string): ReadAttachment[] {
  const out: ReadAttachment[] = [];
  refs.forEach((ref, index) => {
    const object = at(ref, objectPath);
    const content = textOf(object);
    if (!object || !content) return;
    out.push({
      index,
      filename: object.getAttribute('filename') || null,
      mimeCode: object.getAttribute('mimeCode') || null,
      description: txt(ref, 'cbc:DocumentDescription') ?? txt(ref, 'ram:Name'),
      bytes: Buffer.from(content, 'base64').length,
    });
  });
  return out;
}

function readUbl(root: Element, creditNote: boolean): ReadInvoice {
  const supplier = ublParty(at(root, 'cac:AccountingSupplierParty/cac:Party'));
  const currency = required(txt(root, 'cbc:DocumentCurrencyCode'), 'DocumentCurrencyCode (BT-5)');
  const taxTotal =
    all(root, 'cac:TaxTotal').find((t) => at(t, 'cbc:TaxAmount')?.getAttribute('currencyID') === currency) ??
    all(root, 'cac:TaxTotal')[0];
  const money = at(root, 'cac:LegalMonetaryTotal');
  const means = all(root, 'cac:PaymentMeans');
  const lineName = creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine';
  const quantityName = creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity';
  const lines = children(root, lineName).map((line, i): ReadLine => {
    const item = at(line, 'cac:Item');
    const quantity = at(line, quantityName);
    const kpd = all(item, 'cac:CommodityClassification')
      .map((c) => at(c, 'cbc:ItemClassificationCode'))
      .find((c) => c?.getAttribute('listID') === 'CG');
    return {
      id: txt(line, 'cbc:ID') ?? String(i + 1),
      name: txt(item, 'cbc:Name') ?? '',
      quantity: textOf(quantity),
      unitCode: quantity?.getAttribute('unitCode') || null,
      unitPrice: amount(txt(line, 'cac:Price/cbc:PriceAmount'), `line ${i + 1} price`),
      net: amount(txt(line, 'cbc:LineExtensionAmount'), `line ${i + 1} LineExtensionAmount (BT-131)`, true),
      vatCategory: txt(item, 'cac:ClassifiedTaxCategory/cbc:ID'),
      vatRate: txt(item, 'cac:ClassifiedTaxCategory/cbc:Percent'),
      kpd: textOf(kpd),
      sellerItemId: txt(item, 'cac:SellersItemIdentification/cbc:ID'),
    };
  });
  return {
    syntax: 'ubl',
    typeCode: txt(root, creditNote ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode') ?? (creditNote ? '381' : '380'),
    number: required(txt(root, 'cbc:ID'), 'ID (BT-1)'),
    issueDate: required(isoDate(txt(root, 'cbc:IssueDate')), 'IssueDate (BT-2)'),
    dueDate: isoDate(txt(root, 'cbc:DueDate') ?? means.map((m) => txt(m, 'cbc:PaymentDueDate')).find(Boolean) ?? null),
    currency,
    supplier: { ...supplier, name: required(supplier.name, "the seller's name (BT-27)") },
    buyer: ublParty(at(root, 'cac:AccountingCustomerParty/cac:Party')),
    lines,
    taxes: all(taxTotal, 'cac:TaxSubtotal').map((s, i) => ({
      category: txt(s, 'cac:TaxCategory/cbc:ID') ?? '',
      rate: txt(s, 'cac:TaxCategory/cbc:Percent'),
      base: amount(txt(s, 'cbc:TaxableAmount'), `VAT breakdown ${i + 1} TaxableAmount (BT-116)`, true),
      amount: amount(txt(s, 'cbc:TaxAmount'), `VAT breakdown ${i + 1} TaxAmount (BT-117)`, true),
      exemptionReason: txt(s, 'cac:TaxCategory/cbc:TaxExemptionReason'),
    })),
    totals: {
      net: amount(
        txt(money, 'cbc:TaxExclusiveAmount') ?? txt(money, 'cbc:LineExtensionAmount'),
        'TaxExclusiveAmount (BT-109)',
        true,
      ),
      tax: amount(txt(taxTotal, 'cbc:TaxAmount') ?? '0', 'TaxAmount (BT-110)', true),
      total: amount(txt(money, 'cbc:TaxInclusiveAmount'), 'TaxInclusiveAmount (BT-112)', true),
      prepaid: amount(txt(money, 'cbc:PrepaidAmount'), 'PrepaidAmount (BT-113)'),
      payable: amount(txt(money, 'cbc:PayableAmount'), 'PayableAmount (BT-115)', true),
    },
    iban:
      means
        .map((m) => txt(m, 'cac:PayeeFinancialAccount/cbc:ID'))
        .find(Boolean)
        ?.replace(/\s/g, '') ?? null,
    paymentReference: means.map((m) => txt(m, 'cbc:PaymentID')).find(Boolean) ?? null,
    notes: children(root, 'cbc:Note')
      .map((n) => textOf(n) ?? '')
      .filter(Boolean),
    attachments: attachmentsOf(
      all(root, 'cac:AdditionalDocumentReference'),
      'cac:Attachment/cbc:EmbeddedDocumentBinaryObject',
    ),
  };
}

function ciiParty(party: Element | null): ReadParty {
  const registrations = all(party, 'ram:SpecifiedTaxRegistration').map((r) => at(r, 'ram:ID'));
  const vatId = textOf(registrations.find((r) => r?.getAttribute('schemeID') === 'VA'));
  const address = at(party, 'ram:PostalTradeAddress');
  const uri = at(party, 'ram:URIUniversalCommunication/ram:URIID');
  return {
    name: txt(party, 'ram:Name'),
    oib: oibFrom(
      uri?.getAttribute('schemeID') === '9934' ? textOf(uri) : null,
      vatId?.toUpperCase().startsWith('HR') ? vatId : null,
      txt(party, 'ram:SpecifiedLegalOrganization/ram:ID'),
    ),
    vatId,
    address:
      [
        txt(address, 'ram:LineOne'),
        [txt(address, 'ram:PostcodeCode'), txt(address, 'ram:CityName')].filter(Boolean).join(' '),
        txt(address, 'ram:CountryID'),
      ]
        .filter(Boolean)
        .join(', ') || null,
  };
}

function readCii(root: Element): ReadInvoice {
  const doc = at(root, 'rsm:ExchangedDocument');
  const trade = at(root, 'rsm:SupplyChainTradeTransaction');
  const agreement = at(trade, 'ram:ApplicableHeaderTradeAgreement');
  const settlement = at(trade, 'ram:ApplicableHeaderTradeSettlement');
  const sum = at(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const currency = required(txt(settlement, 'ram:InvoiceCurrencyCode'), 'InvoiceCurrencyCode (BT-5)');
  const taxTotal =
    all(sum, 'ram:TaxTotalAmount').find((t) => t.getAttribute('currencyID') === currency) ??
    all(sum, 'ram:TaxTotalAmount')[0];
  const supplier = ciiParty(at(agreement, 'ram:SellerTradeParty'));
  const means = all(settlement, 'ram:SpecifiedTradeSettlementPaymentMeans');
  const lines = all(trade, 'ram:IncludedSupplyChainTradeLineItem').map((line, i): ReadLine => {
    const product = at(line, 'ram:SpecifiedTradeProduct');
    const quantity = at(line, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity');
    const tax = at(line, 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax');
    const kpd = all(product, 'ram:DesignatedProductClassification')
      .map((c) => at(c, 'ram:ClassCode'))
      .find((c) => c?.getAttribute('listID') === 'CG');
    return {
      id: txt(line, 'ram:AssociatedDocumentLineDocument/ram:LineID') ?? String(i + 1),
      name: txt(product, 'ram:Name') ?? '',
      quantity: textOf(quantity),
      unitCode: quantity?.getAttribute('unitCode') || null,
      unitPrice: amount(
        txt(line, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount'),
        `line ${i + 1} price`,
      ),
      net: amount(
        txt(
          line,
          'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
        ),
        `line ${i + 1} LineTotalAmount (BT-131)`,
        true,
      ),
      vatCategory: txt(tax, 'ram:CategoryCode'),
      vatRate: txt(tax, 'ram:RateApplicablePercent'),
      kpd: textOf(kpd),
      sellerItemId: txt(product, 'ram:SellerAssignedID'),
    };
  });
  return {
    syntax: 'cii',
    typeCode: txt(doc, 'ram:TypeCode') ?? '380',
    number: required(txt(doc, 'ram:ID'), 'ID (BT-1)'),
    issueDate: required(isoDate(txt(doc, 'ram:IssueDateTime/udt:DateTimeString')), 'IssueDateTime (BT-2)'),
    dueDate: isoDate(
      all(settlement, 'ram:SpecifiedTradePaymentTerms')
        .map((t) => txt(t, 'ram:DueDateDateTime/udt:DateTimeString'))
        .find(Boolean) ?? null,
    ),
    currency,
    supplier: { ...supplier, name: required(supplier.name, "the seller's name (BT-27)") },
    buyer: ciiParty(at(agreement, 'ram:BuyerTradeParty')),
    lines,
    taxes: all(settlement, 'ram:ApplicableTradeTax').map((t, i) => ({
      category: txt(t, 'ram:CategoryCode') ?? '',
      rate: txt(t, 'ram:RateApplicablePercent'),
      base: amount(txt(t, 'ram:BasisAmount'), `VAT breakdown ${i + 1} BasisAmount (BT-116)`, true),
      amount: amount(txt(t, 'ram:CalculatedAmount'), `VAT breakdown ${i + 1} CalculatedAmount (BT-117)`, true),
      exemptionReason: txt(t, 'ram:ExemptionReason'),
    })),
    totals: {
      net: amount(txt(sum, 'ram:TaxBasisTotalAmount'), 'TaxBasisTotalAmount (BT-109)', true),
      tax: amount(textOf(taxTotal) ?? '0', 'TaxTotalAmount (BT-110)', true),
      total: amount(txt(sum, 'ram:GrandTotalAmount'), 'GrandTotalAmount (BT-112)', true),
      prepaid: amount(txt(sum, 'ram:TotalPrepaidAmount'), 'TotalPrepaidAmount (BT-113)'),
      payable: amount(txt(sum, 'ram:DuePayableAmount'), 'DuePayableAmount (BT-115)', true),
    },
    iban:
      means
        .map((m) => txt(m, 'ram:PayeePartyCreditorFinancialAccount/ram:IBANID'))
        .find(Boolean)
        ?.replace(/\s/g, '') ?? null,
    paymentReference: txt(settlement, 'ram:PaymentReference'),
    notes: all(doc, 'ram:IncludedNote')
      .map((n) => txt(n, 'ram:Content') ?? '')
      .filter(Boolean),
    attachments: attachmentsOf(all(agreement, 'ram:AdditionalReferencedDocument'), 'ram:AttachmentBinaryObject'),
  };
}

/** The content of one embedded attachment (by its index among the document references), or null. */
export function embeddedAttachment(
  bytes: Buffer,
  index: number,
): { filename: string | null; mimeCode: string | null; content: Buffer } | null {
  const root = parse(decode(bytes));
  const syntax = syntaxOf(root);
  const refs =
    syntax === 'cii'
      ? all(
          at(at(root, 'rsm:SupplyChainTradeTransaction'), 'ram:ApplicableHeaderTradeAgreement'),
          'ram:AdditionalReferencedDocument',
        )
      : all(root, 'cac:AdditionalDocumentReference');
  const object = at(
    refs[index],
    syntax === 'cii' ? 'ram:AttachmentBinaryObject' : 'cac:Attachment/cbc:EmbeddedDocumentBinaryObject',
  );
  const content = textOf(object);
  if (!object || !content) return null;
  return {
    filename: object.getAttribute('filename') || null,
    mimeCode: object.getAttribute('mimeCode') || null,
    content: Buffer.from(content, 'base64'),
  };
}
