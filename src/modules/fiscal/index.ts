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
  type FiscalStatusReader,
  type TseRecord,
} from './fiscaliser.ts';
export { createAnswerVerifier } from './cis-answer-signature.ts';
export { createCroatianFiscaliser, type CroatianFiscaliser, type FiscalRepos } from './cis-fiscaliser.ts';
export { createCisClient, type CisClient } from './cis-client.ts';
export { createFiscalCredentials } from './fiscal-credentials.ts';
export { createFiscalSender, DEFAULT_FISCAL_RETRY_DELAYS_MS } from './fiscal-sender.ts';
export { createFiscalWorker } from './fiscal-worker.ts';
export { createFiscalNotices } from './fiscal-notices.ts';
export {
  createFiscalSettingsService,
  type FiscalSettingsService,
  type FiscalSettingsView,
  type FiscalCertificateInfo,
} from './fiscal-settings.service.ts';
export { createCountryFiscaliser } from './country-fiscaliser.ts';
export type { CountryFiscaliser, FiscalWrites } from './types.ts';
export { createGermanTse, type GermanTse, type TseSale } from './tse-fiscaliser.ts';
export { createTseClient, type TseClient } from './tse-client.ts';
export { createTseSettingsService, type TseSettingsService, type TseSettingsView } from './tse-settings.service.ts';
export {
  parseQrCode,
  verifyTseSignature,
  type TseAmounts,
  type TseReceiptType,
  type TseSignedFields,
} from './tse-format.ts';
export {
  createDsfinvkExport,
  closingsFromDrawer,
  type DayClosings,
  type DsfinvkExport,
} from './dsfinvk-export.service.ts';
