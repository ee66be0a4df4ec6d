export type {
  CompanyDirectory,
  CompanyFiscalSwitch,
  LocationRow,
  MailRecipient,
  Recipient,
} from './types.ts';
export { recipientsPart, locationNamesPart } from './read-parts.ts';
export {
  createCompaniesService,
  toCompany,
  USER_ROLES,
  CATALOG_SCOPE_KINDS,
  type BankAccount,
  type CompaniesService,
  type Company,
  type CompanyAddress,
  type SettingsPatch,
  type Location,
  type User,
  type UserRole,
  type CatalogScope,
  type CatalogScopeKind,
  type NewCompany,
} from './companies.service.ts';
export {
  fillPrintTemplate,
  unknownPlaceholders,
  PRINT_TEMPLATE_PLACEHOLDERS,
  type PrintTemplatePlaceholder,
} from './print-template.ts';
export { logoImage, LOGO_MAX_BYTES } from './logo.ts';
