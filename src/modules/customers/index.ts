export type { CustomersRepository, CustomerRow } from './customers.repository.ts';
export {
  createCustomersService,
  CUSTOMER_KINDS,
  type CustomersService,
  type Customer,
  type CustomerKind,
  type CustomerPatch,
  type NewCustomer,
  type Address,
} from './customers.service.ts';
export { emailKey, phoneKey, phoneSearch, nameKey } from './contact-keys.ts';
export { validateTaxId, taxIdKey, iso7064Mod11_10, type TaxIdKind, type TaxIdResult } from './tax-id.ts';
export { rankCustomerMatches, type CustomerMatch, type MatchReason, type Placeholder } from './customer-matches.ts';
export { nameSimilarity, nameTokens } from './name-similarity.ts';
export {
  createCustomerAssignmentService,
  type CustomerAssignmentService,
  type DocumentKind,
  type Assignment,
} from './customer-assignment.service.ts';
