import fs from 'node:fs/promises';
import { AppError } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import { kpdEntry } from '../einvoice/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory } from '../companies/index.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { CategoryRow, ModelRow, ProductRow, TaxRateRow, UnitRow } from './types.ts';
import { formatRate } from '../../lib/money.ts';
import { gtinSpellings } from './gtin.ts';
import { exportCatalogCsv } from './catalog-export.ts';
import { groupBySku, parseCatalogCsv, type CsvProduct, type ImportError } from './catalog-csv.ts';

export type { ImportError } from './catalog-csv.ts';

export interface ImportReport {
  /** Products created or updated. */
  imported: number;
  created: number;
  updated: number;
  errors: ImportError[];
}

const CHUNK = 500;

interface CatalogImportDeps {
  store: Store<{ catalog: CatalogRepository; companies: CompanyDirectory }>;
  clock: Clock;
  newId: IdGenerator;
}

/**
 * `portico catalog import`: all rows or none. Every row is checked — the file, then the
 * names against the company's catalog — before the first write, and the writes share one
 * transaction, so a report with errors means the database is exactly as it was.
 */
export function createCatalogImport(deps: CatalogImportDeps) {
  return {
    /** The active catalog in this import's own format, so a file can go out, be edited and come back (catalog-export.ts). */
    exportCsv: (companyId: string) => exportCatalogCsv(deps.store.repos, companyId),
    importCsv: (companyId: string, file: string) => importCatalogCsv(deps, companyId, file),
    /** The same import from text already in memory (an upload), telling `onProgress` how far the writes are. */
    importText: (companyId: string, text: string, onProgress?: ImportProgress) =>
      importCatalogText(deps, companyId, text, onProgress),
  };
}

/**
 * How far an import is: `total` is known once the file is checked (the rows to write); `done`
 * counts the rows written. It changes no rule, only lets a page draw a bar while it runs.
 */
export type ImportProgress = (progress: { phase: 'checking' | 'writing'; done: number; total: number }) => void;
export type CatalogImport = ReturnType<typeof createCatalogImport>;

async function importCatalogCsv(deps: CatalogImportDeps, companyId: string, file: string): Promise<ImportReport> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new AppError(
      'validation_failed',
      said('error.import.unreadable', { file, reason: (error as Error).message }),
    );
  }
  return importCatalogText(deps, companyId, text);
}

async function importCatalogText(
  deps: CatalogImportDeps,
  companyId: string,
  text: string,
  onProgress: ImportProgress = () => {},
): Promise<ImportReport> {
  if (!(await deps.store.repos.companies.findCompany(companyId))) throw AppError.notFound('Company');

  onProgress({ phase: 'checking', done: 0, total: 0 });
  const parsed = parseCatalogCsv(text);
  const grouped = groupBySku(parsed.rows);
  const fileErrors = [...parsed.errors, ...grouped.errors].sort((a, b) => a.row - b.row);
  if (fileErrors.length > 0) return failed(fileErrors);

  const at = deps.clock.now().toISOString();
  return deps.store.transaction(async (repos) => {
    const plan = await planImport(repos, companyId, grouped.products, { at, newId: deps.newId });
    if (plan.errors.length > 0) return failed(plan.errors);
    const total =
      plan.categories.length +
      plan.models.length +
      plan.taxRates.length +
      plan.newProducts.length +
      plan.productUpdates.length +
      plan.priceUpdates.length +
      plan.newUnits.length;
    let done = 0;
    const wrote = (rows: number) => {
      done += rows;
      onProgress({ phase: 'writing', done, total });
    };
    onProgress({ phase: 'writing', done, total });
    for (const row of plan.categories) {
      await repos.catalog.insertCategory(row);
      wrote(1);
    }
    for (const row of plan.models) {
      await repos.catalog.insertModel(row);
      wrote(1);
    }
    for (const row of plan.taxRates) {
      await repos.catalog.insertTaxRate(row);
      wrote(1);
    }
    for (const row of plan.newProducts) {
      await repos.catalog.insertProduct(row);
      wrote(1);
    }
    for (const { id, patch } of plan.productUpdates) {
      await repos.catalog.updateProduct(companyId, id, patch);
      wrote(1);
    }
    for (const { id, priceMinor } of plan.priceUpdates) {
      await repos.catalog.updateUnit(companyId, id, { price_minor: priceMinor });
      wrote(1);
    }
    for (let i = 0; i < plan.newUnits.length; i += CHUNK) {
      const chunk = plan.newUnits.slice(i, i + CHUNK);
      await repos.catalog.insertUnits(chunk);
      wrote(chunk.length);
    }
    const created = plan.newProducts.length;
    const updated = plan.productUpdates.length;
    return { imported: created + updated, created, updated, errors: [] };
  });
}

function failed(errors: ImportError[]): ImportReport {
  return { imported: 0, created: 0, updated: 0, errors };
}

type ProductUpdate = {
  id: string;
  patch: Partial<
    Pick<
      ProductRow,
      | 'name'
      | 'category_id'
      | 'model_id'
      | 'tax_rate_id'
      | 'description'
      | 'updated_at'
      | 'classification_code'
      | 'barcode'
    >
  >;
};

/** Matches the file's names against the catalog and lists every write, or every reason not to write. */
interface ImportPlan {
  errors: ImportError[];
  categories: CategoryRow[];
  models: ModelRow[];
  taxRates: TaxRateRow[];
  newProducts: ProductRow[];
  productUpdates: ProductUpdate[];
  priceUpdates: Array<{ id: string; priceMinor: number }>;
  newUnits: UnitRow[];
}

interface PlanContext {
  companyId: string;
  at: string;
  newId: IdGenerator;
  plan: ImportPlan;
}

/** What the file's rows are checked against: the company's catalog as it is, read in chunks. */
async function readCatalog(repos: { catalog: CatalogRepository }, companyId: string, products: readonly CsvProduct[]) {
  const [categories, models, taxRates] = await Promise.all([
    repos.catalog.listCategories(companyId),
    repos.catalog.listModels(companyId),
    repos.catalog.listTaxRates(companyId),
  ]);
  const skus = products.map((p) => p.sku);
  const existing: ProductRow[] = [];
  for (let i = 0; i < skus.length; i += CHUNK)
    existing.push(...(await repos.catalog.findProductsBySku(companyId, skus.slice(i, i + CHUNK))));
  const existingUnits: UnitRow[] = [];
  for (let i = 0; i < existing.length; i += CHUNK)
    existingUnits.push(
      ...(await repos.catalog.listUnits(
        companyId,
        existing.slice(i, i + CHUNK).map((p) => p.id),
      )),
    );

  // A barcode names one product: the file's are distinct (groupBySku); none may be another product's.
  const filed = products.flatMap((p) => (p.barcode ? gtinSpellings(p.barcode) : []));
  const holders: ProductRow[] = [];
  for (let i = 0; i < filed.length; i += CHUNK)
    holders.push(...(await repos.catalog.findProductsByBarcode(companyId, filed.slice(i, i + CHUNK))));
  return { categories, models, taxRates, existing, existingUnits, holders };
}

/** Categories, models and tax rates by name or rate: the catalog's, or new ones added to the plan. */
function namedThings(
  known: { categories: CategoryRow[]; models: ModelRow[]; taxRates: TaxRateRow[] },
  { companyId, at, newId, plan }: PlanContext,
) {
  const key = (name: string) => name.toLowerCase();
  const allCategories = [...known.categories];

  /** By name, case-insensitively; without a parent, a root category wins, and two equal candidates are an error. */
  function category(name: string, parentId: string | null | undefined, row: number, field: string): string | null {
    const named = allCategories.filter(
      (c) => key(c.name) === key(name) && (parentId === undefined || c.parent_id === parentId),
    );
    const candidates =
      parentId === undefined && named.some((c) => c.parent_id === null)
        ? named.filter((c) => c.parent_id === null)
        : named;
    if (candidates.length > 1 && parentId === undefined) {
      plan.errors.push({
        row,
        field,
        message: `Several categories are named "${name}"; add a parent_category to say which.`,
      });
      return null;
    }
    if (candidates[0]) return candidates[0].id;
    const created: CategoryRow = {
      id: newId('category'),
      company_id: companyId,
      parent_id: parentId ?? null,
      name,
      created_at: at,
    };
    allCategories.push(created);
    plan.categories.push(created);
    return created.id;
  }

  const modelIds = new Map(known.models.map((m) => [key(m.name), m.id]));
  function model(name: string): string {
    let id = modelIds.get(key(name));
    if (!id) {
      id = newId('model');
      modelIds.set(key(name), id);
      plan.models.push({ id, company_id: companyId, name, created_at: at });
    }
    return id;
  }

  const taxRateIds = new Map<number, string>();
  for (const t of known.taxRates) if (!taxRateIds.has(t.rate_bp)) taxRateIds.set(t.rate_bp, t.id);
  function taxRate(rateBp: number): string {
    let id = taxRateIds.get(rateBp);
    if (!id) {
      id = newId('taxRate');
      taxRateIds.set(rateBp, id);
      plan.taxRates.push({
        id,
        company_id: companyId,
        name: `Tax ${formatRate(rateBp)} %`,
        rate_bp: rateBp,
        created_at: at,
        exemption_reason: null,
      });
    }
    return id;
  }
  return { category, model, taxRate };
}

/** Why a row cannot name its product: its SKU is ambiguous, or its barcode is another product's. */
function identityConflict(p: CsvProduct, matches: ProductRow[], holders: ProductRow[]): ImportError | null {
  if (matches.length > 1)
    return {
      row: p.row,
      field: 'sku',
      message: `${matches.length} products already have SKU "${p.sku}"; give them distinct SKUs in the admin first.`,
    };
  if (p.barcode) {
    const spellings = gtinSpellings(p.barcode);
    const holder = holders.find((h) => h.barcode !== null && spellings.includes(h.barcode) && h.sku !== p.sku);
    if (holder)
      return {
        row: p.row,
        field: 'barcode',
        message: `Product "${holder.name}"${holder.sku ? ` (SKU "${holder.sku}")` : ''} already has this barcode.`,
      };
  }
  return null;
}

/** A product's units: a known unit's price updated, a new unit added after the product's last. */
function planUnits(p: CsvProduct, productId: string, units: UnitRow[], { companyId, at, newId, plan }: PlanContext) {
  let position = Math.max(-1, ...units.map((u) => u.position));
  for (const u of p.units) {
    const same = units.find((e) => e.name === u.name);
    if (same) {
      if (same.price_minor !== u.priceMinor) plan.priceUpdates.push({ id: same.id, priceMinor: u.priceMinor });
    } else {
      plan.newUnits.push({
        id: newId('unit'),
        company_id: companyId,
        product_id: productId,
        name: u.name,
        price_minor: u.priceMinor,
        position: ++position,
        created_at: at,
        unit_code: u.unitCode,
      });
    }
  }
}

/** The product itself: a patch of the columns the file has, or a new row. */
function planProduct(
  p: CsvProduct,
  current: ProductRow | undefined,
  refs: {
    productId: string;
    categoryId: string | null | undefined;
    modelId: string | null | undefined;
    taxRateId: string;
  },
  { companyId, at, plan }: PlanContext,
) {
  const { productId, categoryId, modelId, taxRateId } = refs;
  if (current) {
    // A column missing from the file leaves that field as it is; an empty cell clears it.
    const patch: ProductUpdate['patch'] = { name: p.name, tax_rate_id: taxRateId, updated_at: at };
    if (categoryId !== undefined) patch.category_id = categoryId;
    if (modelId !== undefined) patch.model_id = modelId;
    if (p.description !== undefined) patch.description = p.description;
    if (p.classification !== undefined) patch.classification_code = p.classification;
    if (p.barcode !== undefined) patch.barcode = p.barcode;
    plan.productUpdates.push({ id: current.id, patch });
  } else {
    plan.newProducts.push({
      id: productId,
      company_id: companyId,
      sku: p.sku,
      barcode: p.barcode ?? null,
      name: p.name,
      description: p.description ?? null,
      category_id: categoryId ?? null,
      model_id: modelId ?? null,
      tax_rate_id: taxRateId,
      datasheet_file: null,
      datasheet_name: null,
      active: true,
      created_at: at,
      updated_at: at,
      classification_code: p.classification ?? null,
    });
  }
}

async function planImport(
  repos: { catalog: CatalogRepository },
  companyId: string,
  products: readonly CsvProduct[],
  opts: { at: string; newId: IdGenerator },
): Promise<ImportPlan> {
  const known = await readCatalog(repos, companyId, products);
  const plan: ImportPlan = {
    errors: [],
    categories: [],
    models: [],
    taxRates: [],
    newProducts: [],
    productUpdates: [],
    priceUpdates: [],
    newUnits: [],
  };
  const context: PlanContext = { companyId, at: opts.at, newId: opts.newId, plan };
  const { category, model, taxRate } = namedThings(known, context);

  for (const p of products) {
    const matches = known.existing.filter((e) => e.sku === p.sku);
    const conflict = identityConflict(p, matches, known.holders);
    if (conflict) {
      plan.errors.push(conflict);
      continue;
    }
    let categoryId: string | null | undefined = p.category === undefined ? undefined : null;
    if (p.category) {
      const parentId = p.parentCategory ? category(p.parentCategory, undefined, p.row, 'parent_category') : undefined;
      if (parentId === null) continue;
      categoryId = category(p.category, parentId, p.row, 'category');
      if (categoryId === null) continue;
    }
    const modelId = p.model === undefined ? undefined : p.model === null ? null : model(p.model);
    const taxRateId = taxRate(p.rateBp);
    const current = matches[0];
    // KPD 2025 (Zakon o fiskalizaciji art. 42): a new code must be on the list; a product's stored
    // code, read back unchanged from an export, passes (the e-invoice names it where it matters).
    if (p.classification && p.classification !== current?.classification_code && !kpdEntry(p.classification))
      plan.errors.push({
        row: p.row,
        field: 'classification',
        message: said('error.kpd.unknown', { code: p.classification }).text,
      });
    const productId = current?.id ?? opts.newId('product');
    planUnits(p, productId, current ? known.existingUnits.filter((u) => u.product_id === current.id) : [], context);
    planProduct(p, current, { productId, categoryId, modelId, taxRateId }, context);
  }
  plan.errors.sort((a, b) => a.row - b.row);
  return plan;
}
