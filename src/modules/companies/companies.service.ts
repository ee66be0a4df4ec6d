import { AppError } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { CompaniesRepository, CompanyRow, LocationRow, UserRow } from './companies.repository.ts';
import { hashPassword } from './password.ts';

export const USER_ROLES = ['admin', 'support', 'staff'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const CATALOG_SCOPE_KINDS = ['all', 'products', 'categories', 'models'] as const;
export type CatalogScopeKind = (typeof CATALOG_SCOPE_KINDS)[number];

export interface CatalogScope {
  kind: CatalogScopeKind;
  ids: string[];
}

export interface Company {
  id: string;
  name: string;
  address: string | null;
  taxId: string | null;
  currency: string;
  locale: string;
  timezone: string;
  pricesIncludeTax: boolean;
  quotationValidityDays: number;
  template: { header: string | null; footer: string | null; paymentInstructions: string | null };
  catalogScope: CatalogScope;
  createdAt: string;
}

export interface Location {
  id: string;
  companyId: string;
  name: string;
  code: string;
  address: string | null;
}

export interface User {
  id: string;
  companyId: string;
  email: string;
  name: string;
  role: UserRole;
}

export interface NewCompany {
  name: string;
  address?: string | null;
  taxId?: string | null;
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
        address: input.address ?? null,
        tax_id: input.taxId ?? null,
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
      };
      validateCompany(row);
      await repository.insertCompany(row);
      return toCompany(row);
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
      await repository.updateCompany(companyId, { catalog_scope_kind: scope.kind, catalog_scope_ids: JSON.stringify([...new Set(scope.ids)]) });
    },

    /** Print template and quotation defaults, as set in developer settings. */
    async updateSettings(companyId: string, patch: { quotationValidityDays?: number; template?: Partial<Company['template']> }): Promise<Company> {
      const changes: Parameters<CompaniesRepository['updateCompany']>[1] = {};
      if (patch.quotationValidityDays !== undefined) changes.quotation_validity_days = patch.quotationValidityDays;
      if (patch.template?.header !== undefined) changes.template_header = patch.template.header;
      if (patch.template?.footer !== undefined) changes.template_footer = patch.template.footer;
      if (patch.template?.paymentInstructions !== undefined) changes.template_payment_instructions = patch.template.paymentInstructions;
      if (Object.keys(changes).length > 0) await repository.updateCompany(companyId, changes);
      return this.getCompany(companyId);
    },

    async createLocation(companyId: string, input: { name: string; code: string; address?: string | null }): Promise<Location> {
      await this.getCompany(companyId);
      const code = input.code.toUpperCase();
      if (!/^[A-Z0-9]{1,10}$/.test(code)) throw AppError.invalid({ code: ['Use 1 to 10 letters or digits.'] });
      if (await repository.findLocationByCode(companyId, code)) throw AppError.invalid({ code: ['Already used by another location.'] });
      const row: LocationRow = {
        id: newId('location'), company_id: companyId, name: input.name, code, address: input.address ?? null,
        created_at: clock.now().toISOString(),
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

    async createUser(companyId: string, input: { email: string; name: string; role: string; password?: string }): Promise<User> {
      await this.getCompany(companyId);
      if (!(USER_ROLES as readonly string[]).includes(input.role)) throw AppError.invalid({ role: [`Use one of ${USER_ROLES.join(', ')}.`] });
      const email = input.email.trim().toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw AppError.invalid({ email: ['Not an e-mail address.'] });
      if (await repository.findUserByEmail(companyId, email)) throw AppError.invalid({ email: ['Already a user of this company.'] });
      const row: UserRow = {
        id: newId('user'), company_id: companyId, email, name: input.name, role: input.role,
        password_hash: input.password ? await hashPassword(input.password) : null, created_at: clock.now().toISOString(),
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

function validateCompany(row: CompanyRow): void {
  const details: Record<string, string[]> = {};
  if (!/^[A-Z]{3}$/.test(row.currency)) details.currency = ['Use an ISO 4217 code such as EUR.'];
  try {
    new Intl.NumberFormat(row.locale);
  } catch {
    details.locale = ['Not a BCP 47 locale.'];
  }
  try {
    new Intl.DateTimeFormat('en', { timeZone: row.timezone });
  } catch {
    details.timezone = ['Not an IANA time zone.'];
  }
  if (!Number.isInteger(row.quotation_validity_days) || row.quotation_validity_days < 1) details.quotationValidityDays = ['Must be a positive whole number of days.'];
  if (Object.keys(details).length > 0) throw AppError.invalid(details);
}

export function toCompany(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    taxId: row.tax_id,
    currency: row.currency,
    locale: row.locale,
    timezone: row.timezone,
    pricesIncludeTax: Boolean(row.prices_include_tax),
    quotationValidityDays: row.quotation_validity_days,
    template: { header: row.template_header, footer: row.template_footer, paymentInstructions: row.template_payment_instructions },
    catalogScope: { kind: row.catalog_scope_kind as CatalogScopeKind, ids: JSON.parse(row.catalog_scope_ids) as string[] },
    createdAt: row.created_at,
  };
}

function toLocation(row: LocationRow): Location {
  return { id: row.id, companyId: row.company_id, name: row.name, code: row.code, address: row.address };
}

function toUser(row: UserRow): User {
  return { id: row.id, companyId: row.company_id, email: row.email, name: row.name, role: row.role as UserRole };
}
