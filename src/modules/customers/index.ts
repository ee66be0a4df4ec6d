export type { CustomerReads, CustomerRow } from './types.ts';
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
export { validateTaxId, type TaxIdKind, type TaxIdResult } from './tax-id.ts';
export { type CustomerMatch, type MatchReason, type Placeholder } from './customer-matches.ts';
export {
  createCustomerAssignmentService,
  type CustomerAssignmentService,
  type DocumentKind,
  type Assignment,
} from './customer-assignment.service.ts';
