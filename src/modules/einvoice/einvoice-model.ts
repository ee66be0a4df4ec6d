import { formatMoney, formatRate, formatScaledTrimmed, mulDivRound, QUANTITY_SCALE } from '../../lib/money.ts';
import { priceLine, summarize, type DocumentLineRow } from '../documents/index.ts';

/**
 * The EN 16931 semantic model of one invoice, cancellation invoice or credit note (EN 16931-1:2017
 * clause 6/7: the business terms BT-n and groups BG-n), built by one function from the document's
 * stored lines and the same tax summary the print shows (documents/pricing.ts `summarize`, which
 * `totalsView` prints): the XML can never disagree with the paper. Both syntaxes (ubl.ts, cii.ts)
 * only write this model out.
 */

/**
 * - `hr-cius`: the Croatian CIUS and its extension (Specifikacija osnovne uporabe eRačuna s
 *   proširenjima, Porezna uprava 2025, v1.0): every Croatian company's invoices.
 * - `xrechnung`: KoSIT XRechnung 3.0, for a German buyer that gave a buyer reference (Leitweg-ID).
 * - `en16931`: the plain European norm, for everyone else.
 */
export const PROFILES = ['hr-cius', 'xrechnung', 'en16931'] as const;
export type Profile = (typeof PROFILES)[number];

export const CUSTOMIZATION_IDS: Record<Profile, string> = {
  // HR-BR-5: exactly this value.
  'hr-cius': 'urn:cen.eu:en16931:2017#compliant#urn:mfin.gov.hr:cius-2025:1.0#conformant#urn:mfin.gov.hr:ext-2025:1.0',
  // BR-DE-21 (XRechnung 3.0).
  xrechnung: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  en16931: 'urn:cen.eu:en16931:2017',
};

/** BT-139, the words for reason code 95 (BT-140) in the language the profile's buyers read. */
export const ALLOWANCE_REASONS: Record<Profile, string> = {
  'hr-cius': 'Popust',
  xrechnung: 'Rabatt',
  en16931: 'Discount',
};

export type DocumentKind = 'invoice' | 'cancellation' | 'credit_note';

export interface Endpoint {
  /** BT-34 / BT-49. */
  id: string;
  /** EAS code: "9934" Croatian OIB, "9930" German VAT id, "0204" Leitweg-ID, "EM" e-mail. */
  scheme: string;
}

export interface PartyAddress {
  street: string | null;
  city: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface Party {
  name: string;
  address: PartyAddress | null;
  /** BT-31 / BT-48: VAT identifier with its country prefix ("HR12345678903"). */
  vatId: string | null;
  /** BT-32: a tax number that is not a VAT id (a German Steuernummer). */
  taxNumber: string | null;
  /** BT-30 / BT-47: legal registration id (the Croatian OIB). */
  legalId: string | null;
  endpoint: Endpoint | null;
}

export type TaxCategory = 'S' | 'E';

export interface EInvoiceLine {
  /** BT-126. */
  id: string;
  /** BT-153. */
  name: string;
  /** BT-155: the SKU. */
  sellerItemId: string | null;
  /** BT-127. */
  note: string | null;
  /** BT-129, decimal string; positive on a credit note (the sign sits in the type), negative on a storno. */
  quantity: string;
  /** BT-130, UN/ECE Rec 20. */
  unitCode: string;
  /**
   * BT-146: net unit price before the line's discount, decimal string, never negative (BR-27):
   * BT-131 = BT-129 × BT-146 + charges − allowances (Peppol's PEPPOL-EN16931-R120) to the cent.
   */
  netPrice: string;
  /** BT-131, minor units, after the line's allowance. */
  net: number;
  /** BG-27: the line's discount as an allowance, or null when the line has none. */
  allowance: LineAllowance | null;
  /** BT-151. */
  category: TaxCategory;
  /** BT-152 in basis points. */
  rateBp: number;
  /** BT-158 with scheme CG (KPD 2025 / CPA). */
  classification: string | null;
}

/**
 * BG-27, a line allowance: EN 16931-1 clause 6 (BT-136 to BT-140), reason code 95 "Discount" of
 * UNTDID 5189 (BR-CL-19). Amounts carry the line's sign (negative on a storno).
 */
export interface LineAllowance {
  /** BT-136, minor units: the line's net before the discount minus its net after. */
  amount: number;
  /** BT-137, minor units: the line's net before the discount. */
  base: number;
  /** BT-138, the percent ("12.5"); null when amount is not base × percent to the cent (a partial credit). */
  percent: string | null;
}

export interface TaxBreakdown {
  category: TaxCategory;
  rateBp: number;
  /** BT-116, minor units. */
  base: number;
  /** BT-117, minor units. */
  tax: number;
  /** BT-120: why an exempt rate is exempt. */
  exemptionReason: string | null;
}

export interface EInvoice {
  profile: Profile;
  kind: DocumentKind;
  /** BT-3: 380 commercial invoice, 384 corrected invoice (the storno), 381 credit note. */
  typeCode: '380' | '384' | '381';
  /** BT-1. */
  number: string;
  /** BT-2, YYYY-MM-DD where the company is. */
  issueDate: string;
  /** HR-BT-2, hh:mm:ss. */
  issueTime: string;
  /** BT-9. */
  dueDate: string | null;
  /** BT-20: the payment terms in words ("Rok plaćanja: 30 dana."), when the invoice gives days to pay. */
  paymentTerms: string | null;
  /** BT-72. */
  deliveryDate: string | null;
  /** BT-5. */
  currency: string;
  /** BT-10. */
  buyerReference: string | null;
  /** BT-13: the buyer's order number. */
  orderReference: string | null;
  /** BT-23: the Croatian business process (HR-BR-34), P1 for supplies, P9 for a correction. */
  processId: string | null;
  /** BT-22. */
  notes: string[];
  /** BG-3: the invoice a storno or credit note corrects. */
  preceding: { number: string; issueDate: string } | null;
  seller: Party;
  /** BG-6 (XRechnung) and the Croatian operator (HR-BT-4, HR-BT-5 in SellerContact). */
  sellerContact: { name: string | null; phone: string | null; email: string | null; id: string | null } | null;
  buyer: Party;
  /** BG-16. */
  payment: {
    /** BT-81: 58 SEPA credit transfer, 10 cash, 48 card. */
    code: '58' | '10' | '48';
    /** BT-83. */
    reference: string | null;
    /** BT-84, BT-85, BT-86. */
    account: { iban: string; holder: string; bic: string | null } | null;
  } | null;
  lines: EInvoiceLine[];
  taxes: TaxBreakdown[];
  totals: {
    /** BT-106. */
    lineNet: number;
    /** BT-109. */
    taxExclusive: number;
    /** BT-110. */
    tax: number;
    /** BT-112. */
    taxInclusive: number;
    /** BT-113. */
    prepaid: number;
    /** BT-115. */
    payable: number;
  };
}

/** What the sale says, as the e-invoice needs it: stored rows only (the lines keep their codes), plus the directory's buyer fields. */
export interface EInvoiceSource {
  kind: DocumentKind;
  number: string;
  issuedAt: string;
  dueDate: string | null;
  deliveryDate: string | null;
  /** The buyer's order number (BT-13), given at issue. */
  orderReference?: string | null;
  currency: string;
  pricesIncludeTax: boolean;
  paymentMethod: string | null;
  paymentReference: string | null;
  paidMinor: number;
  note: string | null;
  correctionReason: string | null;
  exemptionReason: string | null;
  operator: { name: string | null; oib: string | null } | null;
  preceding: { number: string; issuedAt: string } | null;
  company: {
    name: string;
    country: string | null;
    taxId: string | null;
    vatRegistered: boolean;
    timezone: string;
    address: { street: string; postalCode: string | null; city: string | null } | null;
    bankAccount: { iban: string; bic: string | null; holder: string } | null;
    contact: { name: string | null; phone: string | null; email: string | null };
  };
  buyer: {
    kind: string;
    name: string;
    taxId: string | null;
    email: string | null;
    address: { street: string; postalCode: string; city: string; country: string } | null;
    endpoint: Endpoint | null;
    buyerReference: string | null;
  };
  lines: readonly DocumentLineRow[];
  /** Line id → the KPD 2025 code the line kept when the sale was issued. */
  classifications: ReadonlyMap<string, string | null>;
  /** Line id → the UN/ECE Rec 20 code the line kept when the sale was issued. */
  unitCodes: ReadonlyMap<string, string>;
}

/** The profile the company's and buyer's countries choose (README "E-invoices"). */
export function chooseProfile(source: Pick<EInvoiceSource, 'company' | 'buyer'>): Profile {
  if (source.company.country === 'HR') return 'hr-cius';
  if (source.buyer.address?.country === 'DE' && source.buyer.buyerReference) return 'xrechnung';
  return 'en16931';
}

/** The EAS scheme a VAT id of this country is an electronic address in (CEF EAS code list). */
const VAT_SCHEMES: Record<string, string> = {
  HR: '9934',
  DE: '9930',
  AT: '9915',
  SI: '9949',
  IT: '0211',
  HU: '9910',
  FR: '9957',
};

function partyIds(taxId: string | null, country: string | null): Pick<Party, 'vatId' | 'taxNumber' | 'legalId'> {
  if (!taxId) return { vatId: null, taxNumber: null, legalId: null };
  // A Croatian OIB: the VAT id is HR + OIB (BT-31 needs the prefix, BR-CO-9), the OIB itself the legal id.
  if (/^(HR)?\d{11}$/.test(taxId) && (country === 'HR' || taxId.startsWith('HR'))) {
    const oib = taxId.replace(/^HR/, '');
    return { vatId: `HR${oib}`, taxNumber: null, legalId: oib };
  }
  if (/^[A-Z]{2}[0-9A-Z+*.]{2,13}$/.test(taxId)) return { vatId: taxId, taxNumber: null, legalId: null };
  return { vatId: null, taxNumber: taxId, legalId: null };
}

function defaultEndpoint(ids: Pick<Party, 'vatId' | 'legalId'>, email: string | null): Endpoint | null {
  if (ids.legalId && ids.vatId?.startsWith('HR')) return { id: ids.legalId, scheme: '9934' };
  const scheme = ids.vatId ? VAT_SCHEMES[ids.vatId.slice(0, 2)] : undefined;
  if (ids.vatId && scheme) return { id: ids.vatId, scheme };
  return email ? { id: email, scheme: 'EM' } : null;
}

/** YYYY-MM-DD and hh:mm:ss of an instant where the company is. */
export function localDateTime(iso: string, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

const PAYMENT_CODES: Record<string, '58' | '10' | '48'> = { bank_transfer: '58', cash: '10', card: '48' };

/**
 * The one computation: lines and totals from the stored lines through `summarize` (what the
 * print's totalsView shows). A credit note's stored lines are negative (they take money off the
 * invoice); in the model its sign sits in the type (381) and its amounts are positive, as
 * EN 16931 reads a credit note. A storno stays a negative invoice (384) naming the original.
 */
export function buildEInvoice(source: EInvoiceSource): EInvoice {
  const profile = chooseProfile(source);
  const sign = source.kind === 'credit_note' ? -1 : 1;
  const rows = source.lines;
  const totals = summarize(
    rows.map((r) => ({ net: r.net_minor, tax: r.tax_minor, total: r.total_minor, taxRateBp: r.tax_rate_bp })),
  );
  const category = (rateBp: number): TaxCategory => (rateBp === 0 ? 'E' : 'S');
  const lines = rows.map((r): EInvoiceLine => {
    const quantityMilli = r.quantity_milli * sign;
    const net = r.net_minor * sign;
    const { netPrice, allowance } = priceAndAllowance(r, source.pricesIncludeTax, sign);
    return {
      id: String(r.position),
      name: r.product_name,
      sellerItemId: r.product_code,
      note: r.note,
      quantity: formatScaledTrimmed(quantityMilli, QUANTITY_SCALE),
      unitCode: source.unitCodes.get(r.id) ?? 'C62',
      netPrice,
      net,
      allowance,
      category: category(r.tax_rate_bp),
      rateBp: r.tax_rate_bp,
      classification: source.classifications.get(r.id) ?? null,
    };
  });
  const taxes = totals.taxes.map(
    (t): TaxBreakdown => ({
      category: category(t.rateBp),
      rateBp: t.rateBp,
      base: t.base * sign,
      tax: t.tax * sign,
      exemptionReason: t.rateBp === 0 ? source.exemptionReason : null,
    }),
  );
  const lineNet = totals.net * sign;
  const tax = totals.tax * sign;
  const prepaid = source.kind === 'invoice' ? source.paidMinor : 0;
  const issued = localDateTime(source.issuedAt, source.company.timezone);
  const sellerIds = partyIds(source.company.taxId, source.company.country);
  const buyerIds = partyIds(source.buyer.taxId, source.buyer.address?.country ?? null);
  const contact = source.company.contact;
  const operator = source.operator;
  const notes = [source.note, source.correctionReason].filter((n): n is string => Boolean(n));
  const paymentCode = source.paymentMethod ? PAYMENT_CODES[source.paymentMethod] : undefined;
  return {
    profile,
    kind: source.kind,
    typeCode: source.kind === 'invoice' ? '380' : source.kind === 'cancellation' ? '384' : '381',
    number: source.number,
    issueDate: issued.date,
    issueTime: issued.time,
    dueDate: source.kind === 'invoice' ? source.dueDate : null,
    paymentTerms: source.kind === 'invoice' ? paymentTermsText(profile, issued.date, source.dueDate) : null,
    deliveryDate: source.deliveryDate,
    currency: source.currency,
    buyerReference: source.buyer.buyerReference,
    orderReference: source.orderReference ?? null,
    processId: profile === 'hr-cius' ? (source.kind === 'invoice' ? 'P1' : 'P9') : null,
    notes,
    preceding: source.preceding
      ? {
          number: source.preceding.number,
          issueDate: localDateTime(source.preceding.issuedAt, source.company.timezone).date,
        }
      : null,
    seller: {
      name: source.company.name,
      address: source.company.address
        ? {
            street: source.company.address.street,
            city: source.company.address.city,
            postalCode: source.company.address.postalCode,
            country: source.company.country ?? '',
          }
        : source.company.country
          ? { street: null, city: null, postalCode: null, country: source.company.country }
          : null,
      ...sellerIds,
      endpoint: defaultEndpoint(sellerIds, contact.email),
    },
    sellerContact:
      profile === 'hr-cius'
        ? { name: operator?.name ?? null, phone: null, email: null, id: operator?.oib ?? null }
        : contact.name || contact.phone || contact.email
          ? { ...contact, id: null }
          : null,
    buyer: {
      name: source.buyer.name,
      address: source.buyer.address
        ? {
            street: source.buyer.address.street || null,
            city: source.buyer.address.city || null,
            postalCode: source.buyer.address.postalCode || null,
            country: source.buyer.address.country,
          }
        : null,
      ...buyerIds,
      endpoint: source.buyer.endpoint ?? defaultEndpoint(buyerIds, source.buyer.email),
    },
    payment:
      paymentCode === undefined
        ? null
        : {
            code: paymentCode,
            reference: paymentCode === '58' ? source.paymentReference : null,
            account:
              paymentCode === '58' && source.company.bankAccount
                ? {
                    iban: source.company.bankAccount.iban,
                    holder: source.company.bankAccount.holder,
                    bic: source.company.bankAccount.bic,
                  }
                : null,
          },
    lines,
    taxes,
    totals: {
      lineNet,
      taxExclusive: lineNet,
      tax,
      taxInclusive: lineNet + tax,
      prepaid,
      payable: lineNet + tax - prepaid,
    },
  };
}

/**
 * BT-146 and BG-27 of one line. A discounted line (`discount_bp`) shows its price before the
 * discount and the discount as an allowance, so that its net (BT-131, the stored amount the print
 * shows) is quantity × price − allowance, the arithmetic of PEPPOL-EN16931-R120 that buyers'
 * imports check, and čl. 79 of the Croatian VAT law's "every price reduction" is stated. The base is
 * the line priced without its discount by the same rule that priced it (documents/pricing.ts
 * `priceLine`), the allowance the difference to the stored net: they add up to the cent.
 */
function priceAndAllowance(
  row: DocumentLineRow,
  pricesIncludeTax: boolean,
  sign: number,
): { netPrice: string; allowance: LineAllowance | null } {
  const discountBp = row.discount_bp ?? 0;
  const base =
    discountBp === 0
      ? row.net_minor
      : priceLine(
          { unitPriceMinor: row.unit_price_minor, quantityMilli: row.quantity_milli, taxRateBp: row.tax_rate_bp },
          pricesIncludeTax,
        ).net;
  // Net prices: the stored price is BT-146 and base = round(price × quantity). Gross prices: the
  // base over the quantity, with as many decimals as R120 needs (HR-BR-56 allows ten).
  const netPrice =
    !pricesIncludeTax || row.quantity_milli === 0
      ? formatMoney(row.unit_price_minor)
      : unitPriceOf(base, row.quantity_milli);
  if (base === row.net_minor) return { netPrice, allowance: null };
  const amount = (base - row.net_minor) * sign;
  // BT-138 only where amount = base × percent (R040 checks it): not on a partial credit priced anew.
  const expected = Number(mulDivRound(BigInt(base), BigInt(discountBp), 10_000n));
  const percent = Math.abs(expected - (base - row.net_minor)) <= 1 ? formatRate(discountBp) : null;
  return { netPrice, allowance: { amount, base: base * sign, percent } };
}

/**
 * amount (cents) ÷ quantity (milli-units), half-up, with the fewest decimals from four to ten for
 * which quantity × price is the amount within a cent (R120 allows two).
 */
function unitPriceOf(amountMinor: number, quantityMilli: number): string {
  const amount = BigInt(Math.abs(amountMinor));
  const quantity = BigInt(Math.abs(quantityMilli));
  for (let decimals = 4; ; decimals++) {
    const scale = 10n ** BigInt(decimals);
    // price in 10^-decimals units: amount/100 ÷ quantity/1000.
    const price = (amount * scale * 10n * 2n + quantity) / (2n * quantity);
    // quantity × price back in cents, exactly: quantity/1000 × price/scale × 100.
    const back = (quantity * price * 100n) / (1000n * scale);
    const off = back > amount ? back - amount : amount - back;
    if (off <= 1n || decimals === 10) return trimPrice(price, decimals);
  }
}

function trimPrice(value: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const fraction = (value % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${value / scale}.${fraction.padEnd(2, '0')}`;
}

/**
 * BT-20 in the language the profile's buyers read: the days from the issue date to the due date,
 * which the customer's payment terms (or the company's default) fixed when the invoice was issued.
 */
function paymentTermsText(profile: Profile, issueDate: string, dueDate: string | null): string | null {
  if (!dueDate) return null;
  const days = Math.round((Date.parse(dueDate) - Date.parse(issueDate)) / 86_400_000);
  if (days <= 0) return null;
  if (profile === 'hr-cius') return `Rok plaćanja: ${days} ${days % 10 === 1 && days % 100 !== 11 ? 'dan' : 'dana'}.`;
  if (profile === 'xrechnung') return `Zahlbar innerhalb von ${days} ${days === 1 ? 'Tag' : 'Tagen'} ohne Abzug.`;
  return `Payment within ${days} ${days === 1 ? 'day' : 'days'}.`;
}

/** A percent as EN 16931 writes BT-119 / BT-152: "25.00". */
export function percent(rateBp: number): string {
  const text = formatRate(rateBp);
  return text.includes('.') ? text.padEnd(text.indexOf('.') + 3, '0') : `${text}.00`;
}

export const amount = formatMoney;
