/**
 * Fiscalisation of issued documents: one interface (`Fiscaliser`), Croatia's CIS its first
 * implementation.
 */
export {
  NOT_REQUIRED,
  NOT_REQUIRED_FISCALISER,
  NOT_REQUIRED_READER,
  type Fiscaliser,
  type FiscalDocument,
  type FiscalPaymentMethod,
  type FiscalStatus,
  type FiscalStatusReader,
} from './fiscaliser.ts';
