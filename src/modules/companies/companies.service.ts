import { createHash } from 'node:crypto';
import { addFieldError, AppError, type FieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import { validateBic, validateIban } from '../../lib/iban.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { validateTaxId } from '../customers/index.ts';
import { checkLocaleTag, said, saidOf } from '../i18n/index.ts';
import { unknownPlaceholders } from './print-template.ts';
import { LOGO_MAX_BYTES, readLogo } from './logo.ts';
import type { CompaniesRepository } from './companies.repository.ts';
import type { CompanyRow, LocationRow, UserRow } from './types.ts';
import { hashPassword } from '../../lib/password-hash.ts';

/** Ten years: the longest a quotation may stay valid. */

/** A bank transfer's days when the company set none: the 15 Portico always gave (0022 keeps it). */
const DEFAULT_PAYMENT_TERMS_DAYS = 15;
/** The longest payment term, in days (a year). */
const MAX_PAYMENT_TERMS_DAYS = 365;
export const MAX_VALIDITY_DAYS = 3650;

export const USER_ROLES = ['admin', 'support', 'staff'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const CATALOG_SCOPE_KINDS = ['all', 'products', 'categories', 'models'] as const;
export type CatalogScopeKind = (typeof CATALOG_SCOPE_KINDS)[number];

export interface CatalogScope {
  kind: CatalogScopeKind;
  ids: string[];
}

/** Where the company is, as a print and a HUB-3 slip show it. */
export interface CompanyAddress {
  street: string;
  postalCode: string | null;
  city: string | null;
}

/** The account customers pay into: printed, and the payment codes' recipient. */
export interface BankAccount {
  /** Compact, upper case: "HR1210010051863000160". */
  iban: string;
  bic: string | null;
  holder: string;
}

export interface Company {
  id: string;
  name: string;
  address: CompanyAddress | null;
  /** ISO 3166-1 alpha-2, "HR". */
  country: string | null;
  taxId: string | null;
  bankAccount: BankAccount | null;
  currency: string;
  locale: string;
  timezone: string;
  pricesIncludeTax: boolean;
  quotationValidityDays: number;
  /** Days a bank transfer is given when the customer has no terms of its own (BT-9, BT-20). */
  paymentTermsDays: number;
  template: { header: string | null; footer: string | null; paymentInstructions: string | null };
  catalogScope: CatalogScope;
  createdAt: string;
  /** What issuing an invoice needs: Croatian fiscalisation on or off, in the VAT system, how invoices are numbered. */
  fiscal: FiscalSettings;
  /** The seller contact e-invoices name (BG-6); XRechnung requires name, phone and e-mail. */
  einvoiceContact: { name: string | null; phone: string | null; email: string | null };
  /** The print template's logo in use, by its hash (0028); null: none. Older snapshots have no field. */
  logo?: { sha256: string } | null;
}

export const SEQUENCE_MODES = ['premises', 'device'] as const;
/** The ZKI's signature hash: SHA-1 as specification v2.6 chapter 12 states it, or SHA-256. */
export const ZKI_HASHES = ['sha1', 'sha256'] as const;
export type ZkiHash = (typeof ZKI_HASHES)[number];

export interface FiscalSettings {
  enabled: boolean;
  vatRegistered: boolean;
  /** Croatian numbering: per business premises (P) or per device (N). */
  sequenceMode: (typeof SEQUENCE_MODES)[number];
  /** The hash of the ZKI's RSA signature (docs/fiscalisation-hr.md, "The ZKI's hash"). */
  zkiHash: ZkiHash;
}

export interface Location {
  id: string;
  companyId: string;
  name: string;
  code: string;
  address: string | null;
  /** The business premises label of Croatian invoice numbers; null: the location's code. */
  fiscalPremises: string | null;
  /** The device label (digits); null: 1. */
  fiscalDevice: string | null;
}

export interface User {
  id: string;
  companyId: string;
  email: string;
  name: string;
  role: UserRole;
  /** The personal OIB the fiscal authority is told as operator. */
  operatorOib: string | null;
  /** What receipts print as the operator (oznaka operatera); null: the user's name. */
  operatorLabel: string | null;
}

export interface NewCompany {
  name: string;
  address?: CompanyAddress | null;
  country?: string | null;
  taxId?: string | null;
  bankAccount?: BankAccount | null;
  currency?: string;
  locale?: string;
  timezone?: string;
  pricesIncludeTax?: boolean;
  quotationValidityDays?: number;
  template?: Partial<Company['template']>;
}

export function createCompaniesService(deps: { repository: CompaniesRepository; clock: Clock; newId: IdGenerator }) {
  const { repository, clock, newId } = deps;

  return {
    async createCompany(input: NewCompany): Promise<Company> {
      const row: CompanyRow = {
        id: newId('company'),
        name: input.name,
        address_street: null,
        address_postal_code: null,
        address_city: null,
        country: null,
        tax_id: null,
        bank_iban: null,
        bank_bic: null,
        bank_holder: null,
        currency: (input.currency ?? 'EUR').toUpperCase(),
        locale: input.locale ?? 'en-US',
        timezone: input.timezone ?? 'UTC',
        prices_include_tax: input.pricesIncludeTax ?? false,
        quotation_validity_days: input.quotationValidityDays ?? 30,
        template_header: input.template?.header ?? null,
        template_footer: input.template?.footer ?? null,
        template_payment_instructions: input.template?.paymentInstructions ?? null,
        catalog_scope_kind: 'all',
        catalog_scope_ids: '[]',
        created_at: clock.now().toISOString(),
        fiscal_enabled: false,
        vat_registered: true,
        fiscal_sequence_mode: 'premises',
        contact_name: null,
        contact_phone: null,
        contact_email: null,
      };
      const details = validateCompany(row);
      Object.assign(
        row,
        profileChanges(
          {
            address: input.address,
            country: input.country,
            taxId: input.taxId,
            bankAccount: input.bankAccount,
            locale: input.locale,
            printTemplate: input.template,
          },
          null,
          details,
        ),
      );
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      await repository.insertCompany(row);
      return toCompany(row);
    },

    /**
     * Sets the print template's logo: a PNG or JPEG up to 256 KiB (a 400 naming `logo` otherwise),
     * kept by its hash; documents issued before keep printing the one they were issued with.
     */
    async setLogo(companyId: string, bytes: Buffer): Promise<Company> {
      const image = bytes.length <= LOGO_MAX_BYTES ? readLogo(bytes) : null;
      if (!image)
        throw AppError.invalid({
          logo: [bytes.length > LOGO_MAX_BYTES ? said('error.logo.tooLarge') : said('error.logo.form')],
        });
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      await repository.insertLogo({
        company_id: companyId,
        sha256,
        content_type: image.contentType,
        bytes,
        width: image.width,
        height: image.height,
        created_at: clock.now().toISOString(),
      });
      await repository.updateCompany(companyId, { logo_sha256: sha256 });
      return this.getCompany(companyId);
    },

    /** No logo on documents issued from now on. */
    async removeLogo(companyId: string): Promise<Company> {
      await repository.updateCompany(companyId, { logo_sha256: null });
      return this.getCompany(companyId);
    },

    /** A logo's PNG by its hash (the settings page shows it); null when there is none. */
    async logoPng(companyId: string, sha256: string | undefined | null): Promise<Buffer | null> {
      if (!sha256) return null;
      const logo = await repository.findLogo(companyId, sha256);
      return logo ? Buffer.from(logo.bytes) : null;
    },

    async getCompany(companyId: string): Promise<Company> {
      const row = await repository.findCompany(companyId);
      if (!row) throw AppError.notFound('Company');
      return toCompany(row);
    },

    async countCompanies(): Promise<number> {
      return repository.countCompanies();
    },

    async setCatalogScope(companyId: string, scope: CatalogScope): Promise<void> {
      await repository.updateCompany(companyId, {
        catalog_scope_kind: scope.kind,
        catalog_scope_ids: JSON.stringify([...new Set(scope.ids)]),
      });
    },

    /** Every company, oldest first: how an operator finds an id without SQL. */
    async listCompanies(): Promise<Company[]> {
      return (await repository.listCompanies()).map(toCompany);
    },

    /**
     * The company profile and print settings (admin settings, `portico company update`): every
     * bad field is named at once and nothing is changed then.
     */
    async updateSettings(companyId: string, patch: SettingsPatch): Promise<Company> {
      const current = await repository.findCompany(companyId);
      if (!current) throw AppError.notFound('Company');
      const details: FieldErrors = {};
      const changes = profileChanges(patch, current, details);
      if (patch.name !== undefined) {
        if (patch.name.trim() === '') addFieldError(details, 'name', said('error.empty'));
        else changes.name = patch.name.trim();
      }
      if (patch.paymentTermsDays !== undefined) {
        if (
          !Number.isInteger(patch.paymentTermsDays) ||
          patch.paymentTermsDays < 0 ||
          patch.paymentTermsDays > MAX_PAYMENT_TERMS_DAYS
        )
          addFieldError(details, 'paymentTermsDays', said('error.paymentTermsDays', { max: MAX_PAYMENT_TERMS_DAYS }));
        else changes.payment_terms_days = patch.paymentTermsDays;
      }
      if (patch.quotationValidityDays !== undefined) {
        // Bounded here, not only in the admin API's schema: the hub and the CLI call this too, and
        // a validity past the year 9999 would make every new quotation's expiry unprintable.
        if (
          !Number.isInteger(patch.quotationValidityDays) ||
          patch.quotationValidityDays < 1 ||
          patch.quotationValidityDays > MAX_VALIDITY_DAYS
        )
          addFieldError(
            details,
            'quotationValidityDays',
            said('error.company.validityDays', { max: String(MAX_VALIDITY_DAYS) }),
          );
        else changes.quotation_validity_days = patch.quotationValidityDays;
      }
      if (patch.pricesIncludeTax !== undefined) changes.prices_include_tax = patch.pricesIncludeTax;
      if (patch.fiscal !== undefined) {
        if (patch.fiscal.enabled !== undefined) changes.fiscal_enabled = patch.fiscal.enabled;
        if (patch.fiscal.vatRegistered !== undefined) changes.vat_registered = patch.fiscal.vatRegistered;
        if (patch.fiscal.sequenceMode !== undefined) {
          if ((SEQUENCE_MODES as readonly string[]).includes(patch.fiscal.sequenceMode))
            changes.fiscal_sequence_mode = patch.fiscal.sequenceMode;
          else
            addFieldError(details, 'fiscal.sequenceMode', said('error.oneOf', { values: SEQUENCE_MODES.join(', ') }));
        }
        if (patch.fiscal.zkiHash !== undefined) {
          if ((ZKI_HASHES as readonly string[]).includes(patch.fiscal.zkiHash))
            changes.fiscal_zki_hash = patch.fiscal.zkiHash;
          else addFieldError(details, 'fiscal.zkiHash', said('error.oneOf', { values: ZKI_HASHES.join(', ') }));
        }
      }
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      if (Object.keys(changes).length > 0) await repository.updateCompany(companyId, changes);
      return this.getCompany(companyId);
    },

    /**
     * A location: its name and address (printed on every document issued there), its code
     * (Portico's own, in quotation and sale numbers; fixed once made) and, for Croatian invoice
     * numbers, its business premises and device labels.
     */
    async createLocation(
      companyId: string,
      input: {
        name: string;
        code: string;
        address?: string | null;
        fiscalPremises?: string | null;
        fiscalDevice?: string | null;
      },
    ): Promise<Location> {
      await this.getCompany(companyId);
      const details: FieldErrors = {};
      const code = input.code.trim().toUpperCase();
      if (!/^[A-Z0-9]{1,10}$/.test(code)) addFieldError(details, 'code', said('error.location.code'));
      else if (await repository.findLocationByCode(companyId, code))
        addFieldError(details, 'code', said('error.location.codeTaken'));
      const fields = locationFields(input, details);
      if (fields.name === undefined && !details.name) addFieldError(details, 'name', said('error.empty'));
      if (Object.keys(details).length === 0)
        await tillFree(
          repository,
          companyId,
          { id: '', code, fiscal_premises: null, fiscal_device: null, ...fields },
          details,
        );
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      const row: LocationRow = {
        id: newId('location'),
        company_id: companyId,
        name: fields.name!,
        code,
        address: fields.address ?? null,
        created_at: clock.now().toISOString(),
        fiscal_premises: fields.fiscal_premises ?? null,
        fiscal_device: fields.fiscal_device ?? null,
      };
      await repository.insertLocation(row);
      return toLocation(row);
    },

    async getLocation(companyId: string, locationId: string): Promise<Location> {
      const row = await repository.findLocation(companyId, locationId);
      if (!row) throw AppError.notFound('Location');
      return toLocation(row);
    },

    async locationExists(companyId: string, locationId: string): Promise<boolean> {
      return (await repository.findLocation(companyId, locationId)) !== undefined;
    },

    async listLocations(companyId: string): Promise<Location[]> {
      return (await repository.listLocations(companyId)).map(toLocation);
    },

    /**
     * Renames or re-addresses a location, or sets its labels in Croatian invoice numbers: the
     * premises (1-20 letters or digits, as registered with the tax administration) and the device
     * (digits, no leading zero); null falls back to the location's code and device 1. Documents
     * already issued keep the number they were issued with (the sale stores its premises and device).
     */
    async updateLocation(
      companyId: string,
      locationId: string,
      patch: { name?: string; address?: string | null; fiscalPremises?: string | null; fiscalDevice?: string | null },
    ): Promise<Location> {
      const row = await repository.findLocation(companyId, locationId);
      if (!row) throw AppError.notFound('Location');
      const details: FieldErrors = {};
      const changes = locationFields(patch, details);
      const relabelled = 'fiscal_premises' in changes || 'fiscal_device' in changes;
      if (Object.keys(details).length === 0 && relabelled)
        await tillFree(repository, companyId, { ...row, ...changes }, details);
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      if (Object.keys(changes).length > 0) await repository.updateLocation(companyId, locationId, changes);
      return toLocation({ ...row, ...changes });
    },

    /** The location a hub user works at: the one last chosen, else the company's first. */
    async preferredLocation(companyId: string, userId: string): Promise<Location | undefined> {
      const [user, locations] = await Promise.all([
        repository.findUser(companyId, userId),
        repository.listLocations(companyId),
      ]);
      const chosen = locations.find((l) => l.id === user?.hub_location_id) ?? locations[0];
      return chosen ? toLocation(chosen) : undefined;
    },

    /** Remembers the location a hub user chose (one of the company's; anything else is ignored). */
    async rememberLocation(companyId: string, userId: string, locationId: string): Promise<void> {
      if (!(await repository.findLocation(companyId, locationId))) return;
      await repository.updateUser(companyId, userId, { hub_location_id: locationId });
    },

    async listUsers(companyId: string): Promise<User[]> {
      return (await repository.listUsersWithRoles(companyId, USER_ROLES)).map(toUser);
    },

    /**
     * A user's operator OIB (checked: 11 digits and the check digit, never with "HR"), told to CIS
     * only, and operator label (at most 40 characters), printed on receipts in its place (Zakon o
     * fiskalizaciji čl. 8: the label is printed, the OIB is sent); null removes either.
     */
    async updateUser(
      companyId: string,
      userId: string,
      patch: { operatorOib?: string | null; operatorLabel?: string | null },
    ): Promise<User> {
      const row = await repository.findUser(companyId, userId);
      if (!row) throw AppError.notFound('User');
      const changes: Partial<Pick<UserRow, 'operator_oib' | 'operator_label'>> = {};
      const details: FieldErrors = {};
      if (patch.operatorOib !== undefined) {
        changes.operator_oib = null;
        if (patch.operatorOib !== null && patch.operatorOib.trim() !== '') {
          const checked = validateTaxId(patch.operatorOib.replace(/^\s*HR/i, ''), 'HR');
          if (!checked.ok || checked.kind !== 'hr_oib' || !/^\d{11}$/.test(checked.value))
            addFieldError(details, 'operatorOib', checked.ok ? said('error.taxId.oibLength') : saidOf(checked.message));
          else changes.operator_oib = checked.value;
        }
      }
      if (patch.operatorLabel !== undefined) {
        const label = patch.operatorLabel?.trim() || null;
        if (label !== null && (label.length > 40 || /[\p{Cc}]/u.test(label)))
          addFieldError(details, 'operatorLabel', said('error.user.operatorLabel'));
        else changes.operator_label = label;
      }
      if (Object.keys(details).length > 0) throw AppError.invalid(details);
      if (Object.keys(changes).length === 0) return toUser(row);
      await repository.updateUser(companyId, userId, changes);
      return toUser({ ...row, ...changes });
    },

    async createUser(
      companyId: string,
      input: { email: string; name: string; role: string; password?: string },
    ): Promise<User> {
      await this.getCompany(companyId);
      if (!(USER_ROLES as readonly string[]).includes(input.role))
        throw AppError.invalid({ role: [said('error.oneOf', { values: USER_ROLES.join(', ') })] });
      const email = input.email.trim().toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw AppError.invalid({ email: [said('error.email')] });
      if (await repository.findUserByEmail(companyId, email))
        throw AppError.invalid({ email: [said('error.user.emailTaken')] });
      const row: UserRow = {
        id: newId('user'),
        company_id: companyId,
        email,
        name: input.name,
        role: input.role,
        password_hash: input.password ? await hashPassword(input.password) : null,
        created_at: clock.now().toISOString(),
        disabled_at: null,
        locale: null,
        operator_oib: null,
      };
      await repository.insertUser(row);
      return toUser(row);
    },

    async userExists(companyId: string, userId: string): Promise<boolean> {
      return (await repository.findUser(companyId, userId)) !== undefined;
    },
  };
}
export type CompaniesService = ReturnType<typeof createCompaniesService>;

export interface SettingsPatch {
  name?: string;
  address?: { street: string; postalCode?: string | null; city?: string | null } | null;
  country?: string | null;
  taxId?: string | null;
  locale?: string;
  bankAccount?: { iban: string; bic?: string | null; holder: string } | null;
  paymentTermsDays?: number;
  quotationValidityDays?: number;
  /** Catalog prices are gross (retail) or net; each document keeps the way it was priced. */
  pricesIncludeTax?: boolean;
  printTemplate?: Partial<Company['template']>;
  fiscal?: { enabled?: boolean; vatRegistered?: boolean; sequenceMode?: string; zkiHash?: string };
  einvoiceContact?: { name?: string | null; phone?: string | null; email?: string | null };
}

type CompanyChanges = Partial<Omit<CompanyRow, 'id' | 'created_at'>>;

const TEMPLATE_COLUMNS = {
  header: 'template_header',
  footer: 'template_footer',
  paymentInstructions: 'template_payment_instructions',
} as const;

/** The columns a profile patch changes, checking each field; problems go to `details` by the field's name. */
function profileChanges(
  patch: Omit<SettingsPatch, 'name' | 'quotationValidityDays'>,
  current: CompanyRow | null,
  details: FieldErrors,
): CompanyChanges {
  const changes: CompanyChanges = {};
  const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
  if (patch.locale !== undefined) {
    const checked = checkLocaleTag(patch.locale);
    if (checked.ok) changes.locale = checked.tag;
    else addFieldError(details, 'locale', saidOf(checked.message));
  }
  if (patch.country !== undefined) {
    const country = text(patch.country)?.toUpperCase() ?? null;
    if (country !== null && !isRegion(country)) addFieldError(details, 'country', said('error.country.form'));
    else changes.country = country;
  }
  if (patch.address !== undefined) {
    const street = text(patch.address?.street);
    if (patch.address !== null && street === null)
      addFieldError(details, 'address.street', said('error.address.street'));
    changes.address_street = street;
    changes.address_postal_code = patch.address === null ? null : text(patch.address.postalCode);
    changes.address_city = patch.address === null ? null : text(patch.address.city);
  }
  if (patch.taxId !== undefined) {
    const taxId = text(patch.taxId);
    if (taxId === null) changes.tax_id = null;
    else {
      const checked = validateTaxId(taxId, changes.country !== undefined ? changes.country : current?.country);
      if (checked.ok) changes.tax_id = checked.value;
      else addFieldError(details, 'taxId', saidOf(checked.message));
    }
  }
  if (patch.bankAccount !== undefined) {
    const account = patch.bankAccount;
    if (account === null) Object.assign(changes, { bank_iban: null, bank_bic: null, bank_holder: null });
    else {
      const iban = validateIban(account.iban);
      if (!iban.ok) addFieldError(details, 'bankAccount.iban', saidOf(iban.message));
      let bic: string | null = null;
      if (text(account.bic) !== null) {
        const checked = validateBic(account.bic!);
        if (checked.ok) bic = checked.bic;
        else addFieldError(details, 'bankAccount.bic', saidOf(checked.message));
      }
      const holder = text(account.holder);
      if (holder === null) addFieldError(details, 'bankAccount.holder', said('error.bank.holder'));
      if (iban.ok && holder !== null)
        Object.assign(changes, { bank_iban: iban.iban, bank_bic: bic, bank_holder: holder });
    }
  }
  const contact = patch.einvoiceContact;
  if (contact?.name !== undefined) changes.contact_name = text(contact.name);
  if (contact?.phone !== undefined) changes.contact_phone = text(contact.phone);
  if (contact?.email !== undefined) {
    const email = text(contact.email);
    if (email !== null && !/^[^@\s]+@[^@\s.]+(\.[^@\s.]+)+$/.test(email))
      addFieldError(details, 'einvoiceContact.email', said('error.customer.endpointId'));
    else changes.contact_email = email;
  }
  for (const [field, column] of Object.entries(TEMPLATE_COLUMNS) as Array<
    [keyof typeof TEMPLATE_COLUMNS, (typeof TEMPLATE_COLUMNS)[keyof typeof TEMPLATE_COLUMNS]]
  >) {
    const value = patch.printTemplate?.[field];
    if (value === undefined) continue;
    const unknown = value === null ? [] : unknownPlaceholders(value);
    if (unknown.length > 0) {
      addFieldError(
        details,
        `printTemplate.${field}`,
        said('error.mail.unknownPlaceholder', {
          unknown: unknown.join(', '),
          known: '{number}, {total}, {dueDate}, {customerName}, {reference}',
        }),
      );
    } else changes[column] = value;
  }
  return changes;
}

/** A two-letter region Intl knows (ISO 3166-1 alpha-2). */
function isRegion(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code)) return false;
  try {
    return new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' }).of(code) !== undefined;
  } catch {
    return false;
  }
}

function validateCompany(row: CompanyRow): FieldErrors {
  const details: FieldErrors = {};
  if (!/^[A-Z]{3}$/.test(row.currency)) addFieldError(details, 'currency', said('error.currency.form'));
  try {
    new Intl.DateTimeFormat('en', { timeZone: row.timezone });
  } catch {
    addFieldError(details, 'timezone', said('error.timezone.form'));
  }
  if (!Number.isInteger(row.quotation_validity_days) || row.quotation_validity_days < 1)
    addFieldError(details, 'quotationValidityDays', said('error.company.validityDaysPositive'));
  return details;
}

export function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    address:
      row.address_street === null
        ? null
        : { street: row.address_street, postalCode: row.address_postal_code, city: row.address_city },
    country: row.country,
    taxId: row.tax_id,
    bankAccount:
      row.bank_iban === null ? null : { iban: row.bank_iban, bic: row.bank_bic, holder: row.bank_holder ?? row.name },
    currency: row.currency,
    locale: row.locale,
    timezone: row.timezone,
    pricesIncludeTax: Boolean(row.prices_include_tax),
    quotationValidityDays: row.quotation_validity_days,
    paymentTermsDays: row.payment_terms_days ?? DEFAULT_PAYMENT_TERMS_DAYS,
    template: {
      header: row.template_header,
      footer: row.template_footer,
      paymentInstructions: row.template_payment_instructions,
    },
    catalogScope: {
      kind: row.catalog_scope_kind as CatalogScopeKind,
      ids: JSON.parse(row.catalog_scope_ids) as string[],
    },
    createdAt: row.created_at,
    fiscal: {
      enabled: Boolean(row.fiscal_enabled),
      vatRegistered: Boolean(row.vat_registered),
      sequenceMode: row.fiscal_sequence_mode as FiscalSettings['sequenceMode'],
      zkiHash: row.fiscal_zki_hash === 'sha256' ? 'sha256' : 'sha1',
    },
    einvoiceContact: { name: row.contact_name, phone: row.contact_phone, email: row.contact_email },
    logo: row.logo_sha256 ? { sha256: row.logo_sha256 } : null,
  };
}

type LocationChanges = Partial<Pick<LocationRow, 'name' | 'address' | 'fiscal_premises' | 'fiscal_device'>>;

/** A location's editable fields checked, each bad one named in `details`; blank optional ones cleared. */
function locationFields(
  input: { name?: string; address?: string | null; fiscalPremises?: string | null; fiscalDevice?: string | null },
  details: FieldErrors,
): LocationChanges {
  const changes: LocationChanges = {};
  const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);
  if (input.name !== undefined) {
    const name = text(input.name);
    if (name === null) addFieldError(details, 'name', said('error.empty'));
    else if (name.length > 100) addFieldError(details, 'name', said('error.atMostCharacters', { max: 100 }));
    else changes.name = name;
  }
  if (input.address !== undefined) {
    const address = text(input.address);
    if (address !== null && address.length > 300)
      addFieldError(details, 'address', said('error.atMostCharacters', { max: 300 }));
    else changes.address = address;
  }
  if (input.fiscalPremises !== undefined) {
    const value = text(input.fiscalPremises);
    if (value !== null && !/^[0-9A-Za-z]{1,20}$/.test(value))
      addFieldError(details, 'fiscalPremises', said('error.fiscal.premises'));
    else changes.fiscal_premises = value;
  }
  if (input.fiscalDevice !== undefined) {
    const value = text(input.fiscalDevice);
    if (value !== null && !/^[1-9][0-9]{0,19}$/.test(value))
      addFieldError(details, 'fiscalDevice', said('error.fiscal.device'));
    else changes.fiscal_device = value;
  }
  return changes;
}

/**
 * A location is one till: its premises and device labels (defaulted as its invoice numbers default
 * them) are no other location's. A second till of one premises is a second location with the same
 * premises label and another device label; the same pair twice would number two drawers' receipts
 * as one device's. Named at `fiscalDevice`.
 */
async function tillFree(
  repository: Pick<CompaniesRepository, 'listLocations'>,
  companyId: string,
  location: Pick<LocationRow, 'id' | 'code' | 'fiscal_premises' | 'fiscal_device'>,
  details: FieldErrors,
): Promise<void> {
  const till = (l: typeof location) => [l.fiscal_premises ?? l.code, l.fiscal_device ?? '1'] as const;
  const [premises, device] = till(location);
  const taken = (await repository.listLocations(companyId)).find(
    (l) => l.id !== location.id && till(l)[0] === premises && till(l)[1] === device,
  );
  if (taken)
    addFieldError(details, 'fiscalDevice', said('error.location.tillTaken', { name: taken.name, premises, device }));
}

function toLocation(row: LocationRow): Location {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    code: row.code,
    address: row.address,
    fiscalPremises: row.fiscal_premises,
    fiscalDevice: row.fiscal_device,
  };
}

function toUser(row: UserRow): User {
  return {
    id: row.id,
    companyId: row.company_id,
    email: row.email,
    name: row.name,
    role: row.role as UserRole,
    operatorOib: row.operator_oib,
    operatorLabel: row.operator_label ?? null,
  };
}
