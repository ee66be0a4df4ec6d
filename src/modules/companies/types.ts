import type { CompaniesTable, LocationsTable, UsersTable } from '../../db/schema.ts';
import type { CompaniesRepository } from './companies.repository.ts';

// The rows other modules are handed, named here so that no module imports them from a repository.
export type CompanyRow = CompaniesTable;
export type LocationRow = LocationsTable;
export type UserRow = UsersTable;
export type Recipient = Pick<UserRow, 'id' | 'company_id' | 'email'>;
/** A user to e-mail, with the language to write in: their own, else the company's. */
export type MailRecipient = { id: string; email: string; locale: string };

/**
 * The port other modules read companies through, in their own unit of work: a company, its
 * locations and logo, the users to tell. The repository behind it stays this module's.
 */
export type CompanyDirectory = Pick<
  CompaniesRepository,
  | 'findCompany'
  | 'findLocation'
  | 'listLocations'
  | 'findLogo'
  | 'findUser'
  | 'listUsersWithRoles'
  | 'listRecipients'
  | 'listMailRecipients'
>;

/** What a country's fiscal settings write of the company: that fiscalisation is switched on. */
export type CompanyFiscalSwitch = Pick<CompaniesRepository, 'updateCompany'>;
