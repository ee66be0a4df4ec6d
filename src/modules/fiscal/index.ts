/**
 * Fiscalisation of issued documents: one interface (`Fiscaliser`), Croatia's CIS its first
 * implementation.
 */
export {
  NOT_REQUIRED,
  type Fiscaliser,
  type FiscalDocument,
  type FiscalPaymentMethod,
  type FiscalStatus,
} from './fiscaliser.ts';
