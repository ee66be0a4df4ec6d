export { validateTaxId, type TaxIdResult } from './tax-id.ts';
