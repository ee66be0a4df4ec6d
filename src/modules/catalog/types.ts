import type { CategoriesTable, ModelsTable, ProductsTable, TaxRatesTable, UnitsTable } from '../../db/schema.ts';
import type { CatalogRepository } from './catalog.repository.ts';

// The catalog's rows, named here: the ports below hand some of them to other modules.
export type CategoryRow = CategoriesTable;
export type ModelRow = ModelsTable;
export type TaxRateRow = TaxRatesTable;
export type ProductRow = ProductsTable;
export type UnitRow = UnitsTable;
export type ProductWithRate = ProductRow & { rate_bp: number };

/**
 * The port the documents' modules (quotations, orders, sales, invoicing) price lines through, in
 * their own unit of work: the products a line names, their units and the tax rates in force.
 */
export type CatalogReads = Pick<CatalogRepository, 'findProducts' | 'listUnits' | 'listTaxRates'>;
