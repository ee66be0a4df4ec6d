import { AppError, addFieldError, fieldErrors, type FieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import type { Store } from '../../db/store.ts';
import { emailKey, nameKey, phoneKey } from './contact-keys.ts';
import { validateTaxId, taxIdKey } from './tax-id.ts';
import { TaxIdTaken, type CustomersRepository, type SearchKey } from './customers.repository.ts';
import type { CustomerRow } from './types.ts';
import { classifySearch } from './customer-search.ts';
import { LANGUAGES, said, saidOf, type Language } from '../i18n/index.ts';

export const CUSTOMER_KINDS = ['person', 'business'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

export interface Address {
  street: string;
  postalCode: string;
  city: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

export interface Customer {
  id: string;
  kind: CustomerKind;
  name: string;
  taxId: string | null;
  email: string | null;
  phone: string | null;
  address: Address | null;
  note: string | null;
  /** Where e-invoices go (BT-49): an id and its EAS scheme ("9934" OIB, "0204" Leitweg-ID, "EM" e-mail). */
  electronicAddress: ElectronicAddress | null;
  /** BT-10: a German public buyer's Leitweg-ID, or the buyer's own reference for its invoices. */
  buyerReference: string | null;
  /** What documents and replies sent to the customer are written in; null: the company's language. */
  language: Language | null;
  /** Days a bank transfer is given this customer (BT-9, BT-20); null: the company's default. */
  paymentTermsDays: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The longest payment term a customer or company may be given, in days (a year). */
const MAX_PAYMENT_TERMS_DAYS = 365;

export interface ElectronicAddress {
  id: string;
  scheme: string;
}

export interface NewCustomer {
  kind: CustomerKind;
  name: string;
  taxId?: string | null;
  email?: string | null;
  phone?: string | null;
  address?: Address | null;
  note?: string | null;
  electronicAddress?: ElectronicAddress | null;
  buyerReference?: string | null;
  language?: string | null;
  paymentTermsDays?: number | null;
}

export type CustomerPatch = Partial<NewCustomer>;

/**
 * What this module reads of the company it serves: its country and locale. Declared here and
 * wired to the companies repository in the composition root, since the companies module uses
 * this one (tax ids) and the two must not import each other.
 */
export interface CompanyPlaces {
  findCompany(companyId: string): Promise<{ country: string | null; locale: string } | undefined>;
}

/** The customers service's repositories. */
export type CustomersRepos = { customers: CustomersRepository; companies: CompanyPlaces };

/**
 * The company's own country: what a national phone number and a bare OIB mean. The profile's
 * country, or else the region of the company's locale (hr-HR: HR).
 */
export async function companyCountry(repos: { companies: CompanyPlaces }, companyId: string): Promise<string | null> {
  const company = await repos.companies.findCompany(companyId);
  if (!company) throw AppError.notFound('Company');
  if (company.country) return company.country;
  try {
    return new Intl.Locale(company.locale).region ?? null;
  } catch {
    return null;
  }
}

/**
 * The directory row for a customer, its keys worked out, or the field errors. `prefix` names
 * the fields where the input sits in the request (`newCustomer.` when created from a document).
 */
export function customerRow(
  input: NewCustomer,
  base: { id: string; companyId: string; now: string; createdAt?: string },
  country: string | null,
  prefix = '',
): CustomerRow {
  const details: FieldErrors = fieldErrors();
  // A line break or a control character in a name breaks e-mail headers, prints and exports.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(input.name))
    addFieldError(details, `${prefix}name`, said('error.name.control'));
  const address = input.address ? { ...input.address, country: input.address.country.toUpperCase() } : null;
  let taxId: string | null = null;
  if (input.taxId !== undefined && input.taxId !== null) {
    const checked = validateTaxId(input.taxId, address?.country ?? country);
    if (checked.ok) taxId = checked.value;
    else addFieldError(details, `${prefix}taxId`, saidOf(checked.message));
  }
  const email = blankToNull(input.email);
  const phone = blankToNull(input.phone);
  const endpoint = input.electronicAddress ?? null;
  if (endpoint) {
    // The EAS code list (CEF): four-digit ICD-based schemes, or EM for an e-mail address.
    if (!/^(\d{4}|EM)$/.test(endpoint.scheme))
      addFieldError(details, `${prefix}electronicAddress.scheme`, said('error.customer.endpointScheme'));
    if (endpoint.id.trim() === '' || (endpoint.scheme === 'EM' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(endpoint.id)))
      addFieldError(details, `${prefix}electronicAddress.id`, said('error.customer.endpointId'));
  }
  const language = blankToNull(input.language);
  if (language !== null && !(LANGUAGES as readonly string[]).includes(language))
    addFieldError(details, `${prefix}language`, said('error.customer.language', { languages: LANGUAGES.join(', ') }));
  const terms = input.paymentTermsDays ?? null;
  if (terms !== null && !(Number.isInteger(terms) && terms >= 0 && terms <= MAX_PAYMENT_TERMS_DAYS))
    addFieldError(
      details,
      `${prefix}paymentTermsDays`,
      said('error.paymentTermsDays', { max: MAX_PAYMENT_TERMS_DAYS }),
    );
  if (Object.keys(details).length > 0) throw AppError.invalid(details);
  return {
    id: base.id,
    company_id: base.companyId,
    kind: input.kind,
    name: input.name.trim(),
    name_key: nameKey(input.name),
    tax_id: taxId,
    tax_id_key: taxId === null ? null : taxIdKey(taxId),
    email,
    email_key: email === null ? null : emailKey(email),
    phone,
    phone_key: phone === null ? null : phoneKey(phone, country),
    address_street: address?.street ?? null,
    address_postal_code: address?.postalCode ?? null,
    address_city: address?.city ?? null,
    address_country: address?.country ?? null,
    note: blankToNull(input.note),
    created_at: base.createdAt ?? base.now,
    updated_at: base.now,
    endpoint_id: endpoint ? endpoint.id.trim() : null,
    endpoint_scheme: endpoint ? endpoint.scheme : null,
    buyer_reference: blankToNull(input.buyerReference),
    language,
    payment_terms_days: terms,
  };
}

export function taxIdConflict(prefix = ''): AppError {
  const details = fieldErrors();
  addFieldError(details, `${prefix}taxId`, said('error.taxId.usedByAnother'));
  return new AppError('conflict', said('error.taxId.taken'), details);
}

export function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    kind: row.kind as CustomerKind,
    name: row.name,
    taxId: row.tax_id,
    email: row.email,
    phone: row.phone,
    address:
      row.address_country === null
        ? null
        : {
            street: row.address_street ?? '',
            postalCode: row.address_postal_code ?? '',
            city: row.address_city ?? '',
            country: row.address_country,
          },
    note: row.note,
    electronicAddress:
      row.endpoint_id && row.endpoint_scheme ? { id: row.endpoint_id, scheme: row.endpoint_scheme } : null,
    buyerReference: row.buyer_reference,
    language: (row.language as Language | null) ?? null,
    paymentTermsDays: row.payment_terms_days ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function createCustomersService(deps: { store: Store<CustomersRepos>; clock: Clock; newId: IdGenerator }) {
  const { store, clock, newId } = deps;

  async function get(companyId: string, id: string): Promise<Customer> {
    const row = await store.repos.customers.find(companyId, id);
    if (!row) throw AppError.notFound('Customer');
    return toCustomer(row);
  }

  return {
    /** Refuses (409 `conflict`, naming taxId) a tax id the company already has, also when two requests race for it: the unique index decides. */
    async create(companyId: string, input: NewCustomer): Promise<Customer> {
      const country = await companyCountry(store.repos, companyId);
      const row = customerRow(input, { id: newId('customer'), companyId, now: clock.now().toISOString() }, country);
      try {
        await store.unitOfWork((repos) => repos.customers.insert(row), { creates: row.id });
      } catch (error) {
        if (error instanceof TaxIdTaken) throw taxIdConflict();
        throw error;
      }
      return toCustomer(row);
    },

    get,

    /**
     * The language of the directory customer who has this e-mail address (an inquirer's, say),
     * or null: no such customer, none with a language, or several that disagree.
     */
    async languageOfEmail(companyId: string, email: string): Promise<Language | null> {
      const rows = await store.repos.customers.findByEmailKey(companyId, emailKey(email), 10);
      const languages = new Set(rows.flatMap((r) => (r.language ? [r.language as Language] : [])));
      return languages.size === 1 ? [...languages][0]! : null;
    },

    /** Fields left out stay; null clears an optional one. Keys are worked out again from the whole result. */
    async update(companyId: string, id: string, patch: CustomerPatch): Promise<Customer> {
      const current = await get(companyId, id);
      const merged: NewCustomer = {
        kind: patch.kind ?? current.kind,
        name: patch.name ?? current.name,
        taxId: patch.taxId === undefined ? current.taxId : patch.taxId,
        email: patch.email === undefined ? current.email : patch.email,
        phone: patch.phone === undefined ? current.phone : patch.phone,
        address: patch.address === undefined ? current.address : patch.address,
        note: patch.note === undefined ? current.note : patch.note,
        electronicAddress: patch.electronicAddress === undefined ? current.electronicAddress : patch.electronicAddress,
        buyerReference: patch.buyerReference === undefined ? current.buyerReference : patch.buyerReference,
        language: patch.language === undefined ? current.language : patch.language,
        paymentTermsDays: patch.paymentTermsDays === undefined ? current.paymentTermsDays : patch.paymentTermsDays,
      };
      const country = await companyCountry(store.repos, companyId);
      const row = customerRow(
        merged,
        { id, companyId, now: clock.now().toISOString(), createdAt: current.createdAt },
        country,
      );
      const { id: _id, company_id: _company, created_at: _created, ...changes } = row;
      try {
        if (!(await store.repos.customers.update(companyId, id, changes))) throw AppError.notFound('Customer');
      } catch (error) {
        if (error instanceof TaxIdTaken) throw taxIdConflict();
        throw error;
      }
      return toCustomer(row);
    },

    /**
     * One page of the search, in the order of the key searched (see customer-search.ts); the
     * cursor holds that key's value and the id of the page's last customer.
     */
    async search(
      companyId: string,
      opts: { q?: string; limit: number; cursor?: string },
    ): Promise<{ data: Customer[]; nextCursor: string | null }> {
      const country = await companyCountry(store.repos, companyId);
      const range = classifySearch(opts.q ?? '', country);
      let after: { key: string; id: string } | undefined;
      if (opts.cursor) {
        const [key, value, id] = decodeCursor(opts.cursor, 3) as [string, string, string];
        // A row of this search has a key that starts with the searched prefix: anything else is another search's cursor, or forged.
        if (key !== range.key || !value.startsWith(range.from))
          throw AppError.invalid({ cursor: [said('error.cursor.otherSearch')] });
        after = { key: value, id };
      }
      const rows = await store.repos.customers.page(companyId, {
        ...range,
        limit: opts.limit + 1,
        ...(after ? { after } : {}),
      });
      const data = rows.slice(0, opts.limit);
      const last = data.at(-1);
      return {
        data: data.map(toCustomer),
        nextCursor:
          rows.length > opts.limit && last ? encodeCursor([range.key, keyValue(last, range.key), last.id]) : null,
      };
    },
  };
}
export type CustomersService = ReturnType<typeof createCustomersService>;

function keyValue(row: CustomerRow, key: SearchKey): string {
  return row[key] ?? '';
}

function blankToNull(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}
