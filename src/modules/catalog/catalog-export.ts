import { formatMoney, formatRate } from '../../lib/money.ts';
import { writeCsv } from '../../lib/csv.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { ProductWithRate } from './types.ts';
import { CSV_COLUMNS } from './catalog-csv.ts';

/**
 * The catalog as the CSV import reads it: the same columns (barcode included), one row per
 * unit, prices and rates with a decimal point, so a file exported, edited in a spreadsheet and
 * imported again changes only what was edited. Text a spreadsheet would run as a formula is
 * neutralised with an apostrophe, which the import takes off again. Active products only: the import has no column
 * for the state, and would otherwise bring deactivated products back into every list.
 */
export async function exportCatalogCsv(repos: { catalog: CatalogRepository }, companyId: string): Promise<string> {
  const [categories, models] = await Promise.all([
    repos.catalog.listCategories(companyId),
    repos.catalog.listModels(companyId),
  ]);
  const categoryById = new Map(categories.map((c) => [c.id, c]));
  const modelName = new Map(models.map((m) => [m.id, m.name]));
  const rows: Array<Array<string | null>> = [[...CSV_COLUMNS]];
  let after: { name: string; id: string } | undefined;
  for (;;) {
    const page: ProductWithRate[] = await repos.catalog.listAllProducts(companyId, {
      active: true,
      limit: PAGE,
      ...(after ? { after } : {}),
    });
    const units = await repos.catalog.listUnits(
      companyId,
      page.map((p) => p.id),
    );
    for (const p of page) {
      const category = p.category_id ? categoryById.get(p.category_id) : undefined;
      const parent = category?.parent_id ? categoryById.get(category.parent_id) : undefined;
      for (const unit of units.filter((u) => u.product_id === p.id)) {
        const row: Record<(typeof CSV_COLUMNS)[number], string | null> = {
          // The import matches products by SKU and requires one: a product without is exported
          // with the cell empty, and the import's report names its rows rather than guessing.
          sku: p.sku,
          name: p.name,
          category: category?.name ?? null,
          parent_category: parent?.name ?? null,
          model: p.model_id ? (modelName.get(p.model_id) ?? null) : null,
          tax_rate: formatRate(p.rate_bp),
          unit: unit.name,
          price: formatMoney(unit.price_minor),
          description: p.description,
          classification: p.classification_code,
          unit_code: unit.unit_code,
          barcode: p.barcode,
        };
        rows.push(CSV_COLUMNS.map((column) => row[column]));
      }
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last) break;
    after = { name: last.name, id: last.id };
  }
  // Every column is text to a spreadsheet (prices and rates are written with a point), so every
  // cell is neutralised; the import takes the apostrophe off again.
  return writeCsv(rows, { delimiter: ',', bom: false });
}

const PAGE = 500;
