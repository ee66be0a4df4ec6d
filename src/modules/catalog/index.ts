export { createCatalogService, type CatalogService, type PublicProduct, type ResolvedLine } from './catalog.service.ts';
export { createCatalogAdminService, parsePrice, parseRate, type CatalogAdminService, type NewProduct } from './catalog-admin.service.ts';
export { createDatasheetFiles, type DatasheetFiles } from './datasheet-files.ts';
