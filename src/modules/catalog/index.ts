export type { CatalogReads } from './types.ts';
export { createCatalogService, type CatalogService, type PublicProduct, type ResolvedLine } from './catalog.service.ts';
export {
  createCatalogAdminService,
  parsePrice,
  type CatalogAdminService,
  type NewProduct,
} from './catalog-admin.service.ts';
export { createCatalogScopeService, type CatalogScopeService } from './catalog-scope.service.ts';
export { createDatasheetFiles, type DatasheetFiles } from './datasheet-files.ts';
export {
  createCatalogImport,
  type CatalogImport,
  type ImportError,
  type ImportProgress,
  type ImportReport,
} from './catalog-import.ts';
export { CSV_COLUMNS } from './catalog-csv.ts';
export { unitCodeOf } from './unit-codes.ts';
