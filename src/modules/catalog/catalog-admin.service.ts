import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { formatMoney, parseScaled, MONEY_SCALE, RATE_SCALE } from '../../lib/money.ts';
import type { Store } from '../../db/store.ts';
import { datasheetFileName, type DatasheetFiles } from './datasheet-files.ts';
import { findActiveContent, hasPages } from './pdf-active-content.ts';
import { BarcodeTaken, type CatalogRepository } from './catalog.repository.ts';
import type { ProductRow, ProductWithRate, UnitRow } from './types.ts';
import { checkGtin, gtinSpellings } from './gtin.ts';
import { expandCategoryIds } from './catalog-scope.ts';
import { formatRate } from '../../lib/money.ts';
import type { ProductBasics } from './catalog.service.ts';
import { said } from '../i18n/index.ts';
import { kpdEntry } from '../einvoice/index.ts';
import { unitCodeOf } from './unit-codes.ts';

/** KPD 2025 codes: two-digit groups joined by dots, 10 characters at most ("47.52", "20.30.11"). */
const KPD_CODE = /^\d{2}(\.\d{1,2}){1,3}$/;
const UNIT_CODE = /^[A-Z0-9]{2,3}$/;

export interface NewProduct {
  name: string;
  sku?: string | null;
  /** A GTIN (EAN-8, UPC-A, EAN-13, GTIN-14) with a valid check digit; unique in the company. */
  barcode?: string | null;
  description?: string | null;
  categoryId?: string | null;
  modelId?: string | null;
  /** Absent: the company's standard rate (its highest), never a 0 % rate by accident. */
  taxRateId?: string;
  /** KPD 2025 code (e-invoice line classification). */
  classificationCode?: string | null;
  /** Decimal strings in the company's currency; `unitCode` a UN/ECE Rec 20 code (null: from the name). */
  units: Array<{ name: string; price: string; unitCode?: string | null }>;
}

export interface AdminUnit {
  id: string;
  name: string;
  price: string;
  /** UN/ECE Rec 20: as set, or derived from the name. */
  unitCode: string;
}

/** The admin's view of a product: inactive ones included, references by id. */
export interface AdminProduct extends ProductBasics {
  barcode: string | null;
  taxRateId: string;
  classificationCode: string | null;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  units: AdminUnit[];
}

export interface ProductPatch {
  name?: string;
  sku?: string | null;
  barcode?: string | null;
  description?: string | null;
  categoryId?: string | null;
  modelId?: string | null;
  taxRateId?: string;
  classificationCode?: string | null;
  active?: boolean;
}

export interface AdminProductQuery {
  limit: number;
  cursor?: string;
  q?: string;
  active?: boolean;
  /** Includes sub-categories, as on the public API. */
  categoryId?: string;
  modelId?: string;
}

type CatalogRepos = { catalog: CatalogRepository };

/** Catalog administration: how a company keeps its own products, prices and datasheets. */
export function createCatalogAdminService(deps: {
  store: Store<CatalogRepos>;
  clock: Clock;
  newId: IdGenerator;
  datasheets: DatasheetFiles;
}) {
  const { store, clock, newId } = deps;
  const now = () => clock.now().toISOString();

  // Null clears a reference and undefined leaves it; every other value, the empty string
  // included, must name an existing record (a truthiness test let "" through to the foreign key).
  async function checkReferences(
    repos: CatalogRepos,
    companyId: string,
    input: { categoryId?: string | null; modelId?: string | null; taxRateId?: string },
  ) {
    const details = fieldErrors();
    if (input.categoryId != null && !(await repos.catalog.findCategory(companyId, input.categoryId)))
      addFieldError(details, 'categoryId', said('error.category.unknown'));
    if (input.modelId != null && !(await repos.catalog.findModel(companyId, input.modelId)))
      addFieldError(details, 'modelId', said('error.model.unknown'));
    if (input.taxRateId !== undefined && !(await repos.catalog.findTaxRate(companyId, input.taxRateId)))
      addFieldError(details, 'taxRateId', said('error.taxRate.unknown'));
    if (Object.keys(details).length > 0) throw AppError.invalid(details);
  }

  function unitRows(companyId: string, productId: string, units: NewProduct['units'], at: string): UnitRow[] {
    return units.map((unit, i) => ({
      id: newId('unit'),
      company_id: companyId,
      product_id: productId,
      name: unit.name,
      price_minor: Number(parsePrice(unit.price, `units[${i}].price`)),
      position: i,
      created_at: at,
      unit_code: parseUnitCode(unit.unitCode, `units[${i}].unitCode`),
    }));
  }

  /**
   * Refuses (409 `conflict` naming `barcode`) a barcode another product of the company has, in
   * any spelling of the same GTIN (a UPC-A and its EAN-13). The unique index decides a race.
   */
  async function checkBarcodeFree(repos: CatalogRepos, companyId: string, barcode: string | null, self?: string) {
    if (barcode === null) return;
    const other = (await repos.catalog.findProductsByBarcode(companyId, gtinSpellings(barcode))).find(
      (p) => p.id !== self,
    );
    if (other) throw barcodeConflict(other.name);
  }

  async function readProduct(repos: CatalogRepos, companyId: string, productId: string): Promise<AdminProduct> {
    const product = await repos.catalog.findProduct(companyId, productId);
    if (!product) throw AppError.notFound('Product');
    return toAdminProduct(product, await repos.catalog.listUnits(companyId, [productId]));
  }

  return {
    async createCategory(companyId: string, input: { name: string; parentId?: string | null }) {
      if (input.parentId != null && !(await store.repos.catalog.findCategory(companyId, input.parentId))) {
        throw AppError.invalid({ parentId: [said('error.category.unknown')] });
      }
      const row = {
        id: newId('category'),
        company_id: companyId,
        parent_id: input.parentId ?? null,
        name: input.name,
        created_at: now(),
      };
      await store.repos.catalog.insertCategory(row);
      return { id: row.id, name: row.name, parentId: row.parent_id };
    },

    async createModel(companyId: string, input: { name: string }) {
      const row = { id: newId('model'), company_id: companyId, name: input.name, created_at: now() };
      await store.repos.catalog.insertModel(row);
      return { id: row.id, name: row.name };
    },

    async createTaxRate(companyId: string, input: { name: string; rate: string; exemptionReason?: string | null }) {
      const rateBp = parseRate(input.rate);
      requireExemptionReason(rateBp, input.exemptionReason?.trim() || null);
      const row = {
        id: newId('taxRate'),
        company_id: companyId,
        name: input.name,
        rate_bp: rateBp,
        created_at: now(),
        exemption_reason: input.exemptionReason?.trim() || null,
      };
      await store.repos.catalog.insertTaxRate(row);
      return { id: row.id, name: row.name, rate: input.rate, exemptionReason: row.exemption_reason };
    },

    /** A product and its units commit together. */
    async createProduct(
      companyId: string,
      input: NewProduct,
      repos?: CatalogRepos,
      /** The demo shop only: keeps a code KPD 2025 no longer lists, to show what the hub says of it. */
      opts: { acceptUnlistedKpd?: boolean } = {},
    ): Promise<{ id: string; unitIds: string[] }> {
      refuseControlCharacters(input.name);
      if (input.units.length === 0) throw AppError.invalid({ units: [said('error.product.needsUnit')] });
      const twins = input.units.flatMap((u, i) =>
        input.units.findIndex((v) => v.name === u.name) < i ? [`units[${i}].name`] : [],
      );
      if (twins.length > 0)
        throw AppError.invalid(Object.fromEntries(twins.map((path) => [path, [said('error.unit.sameName')]])));
      const barcode = parseBarcode(input.barcode);
      const work = async (r: CatalogRepos) => {
        await checkReferences(r, companyId, input);
        await checkBarcodeFree(r, companyId, barcode);
        const taxRateId = input.taxRateId ?? (await standardRate(r, companyId));
        const at = now();
        const row: ProductRow = {
          id: newId('product'),
          company_id: companyId,
          sku: input.sku ?? null,
          barcode,
          name: input.name,
          description: input.description ?? null,
          category_id: input.categoryId ?? null,
          model_id: input.modelId ?? null,
          tax_rate_id: taxRateId,
          datasheet_file: null,
          datasheet_name: null,
          active: true,
          created_at: at,
          updated_at: at,
          classification_code: parseClassification(
            input.classificationCode,
            'classificationCode',
            opts.acceptUnlistedKpd,
          ),
        };
        const units = unitRows(companyId, row.id, input.units, at);
        await r.catalog.insertProduct(row);
        await r.catalog.insertUnits(units);
        return { id: row.id, unitIds: units.map((u) => u.id) };
      };
      return guardBarcode(repos ? work(repos) : store.transaction(work));
    },

    /** The product a scanned code names, in any spelling of its GTIN; undefined when none or not a GTIN. */
    async findByBarcode(companyId: string, code: string): Promise<AdminProduct | undefined> {
      const checked = checkGtin(code);
      if (!checked.ok) return undefined;
      const [product] = await store.repos.catalog.findProductsByBarcode(companyId, gtinSpellings(checked.value));
      if (!product) return undefined;
      return toAdminProduct(product, await store.repos.catalog.listUnits(companyId, [product.id]));
    },

    async listCategories(companyId: string) {
      return (await store.repos.catalog.listCategories(companyId)).map((c) => ({
        id: c.id,
        name: c.name,
        parentId: c.parent_id,
      }));
    },

    /** A new parent may not be the category itself or one of its descendants: the tree stays a tree. */
    async updateCategory(companyId: string, id: string, patch: { name?: string; parentId?: string | null }) {
      return store.transaction(async (r) => {
        const all = await r.catalog.listCategories(companyId);
        const current = all.find((c) => c.id === id);
        if (!current) throw AppError.notFound('Category');
        if (patch.parentId != null) {
          if (!all.some((c) => c.id === patch.parentId))
            throw AppError.invalid({ parentId: [said('error.category.unknown')] });
          const subtree = expandCategoryIds(
            all.map((c) => ({ id: c.id, parentId: c.parent_id })),
            [id],
          );
          if (subtree.has(patch.parentId)) throw AppError.invalid({ parentId: [said('error.category.underItself')] });
        }
        const name = patch.name ?? current.name;
        const parentId = patch.parentId === undefined ? current.parent_id : patch.parentId;
        await r.catalog.updateCategory(companyId, id, { name, parent_id: parentId });
        return { id, name, parentId };
      });
    },

    async deleteCategory(companyId: string, id: string): Promise<void> {
      await store.transaction(async (r) => {
        if (!(await r.catalog.findCategory(companyId, id))) throw AppError.notFound('Category');
        if (await r.catalog.categoryInUse(companyId, id)) throw new AppError('conflict', said('error.category.inUse'));
        await r.catalog.deleteCategory(companyId, id);
      });
    },

    async listModels(companyId: string) {
      return (await store.repos.catalog.listModels(companyId)).map((m) => ({ id: m.id, name: m.name }));
    },

    async updateModel(companyId: string, id: string, patch: { name: string }) {
      if (!(await store.repos.catalog.findModel(companyId, id))) throw AppError.notFound('Model');
      await store.repos.catalog.updateModel(companyId, id, { name: patch.name });
      return { id, name: patch.name };
    },

    async deleteModel(companyId: string, id: string): Promise<void> {
      await store.transaction(async (r) => {
        if (!(await r.catalog.findModel(companyId, id))) throw AppError.notFound('Model');
        if (await r.catalog.modelInUse(companyId, id)) throw new AppError('conflict', said('error.model.inUse'));
        await r.catalog.deleteModel(companyId, id);
      });
    },

    async listTaxRates(companyId: string) {
      return (await store.repos.catalog.listTaxRates(companyId)).map((t) => ({
        id: t.id,
        name: t.name,
        rate: formatRate(t.rate_bp),
        exemptionReason: t.exemption_reason,
      }));
    },

    /** Quotations and orders keep the rate they were priced with, so a change only affects new documents. */
    async updateTaxRate(
      companyId: string,
      id: string,
      patch: { name?: string; rate?: string; exemptionReason?: string | null },
    ) {
      const current = await store.repos.catalog.findTaxRate(companyId, id);
      if (!current) throw AppError.notFound('Tax rate');
      const rateBp = patch.rate === undefined ? current.rate_bp : parseRate(patch.rate);
      const name = patch.name ?? current.name;
      const exemptionReason =
        patch.exemptionReason === undefined ? current.exemption_reason : patch.exemptionReason?.trim() || null;
      requireExemptionReason(rateBp, exemptionReason);
      await store.repos.catalog.updateTaxRate(companyId, id, {
        name,
        rate_bp: rateBp,
        exemption_reason: exemptionReason,
      });
      return { id, name, rate: formatRate(rateBp), exemptionReason };
    },

    async listProducts(
      companyId: string,
      query: AdminProductQuery,
    ): Promise<{ data: AdminProduct[]; nextCursor: string | null }> {
      const after = query.cursor
        ? (([name, id]) => ({ name: name!, id: id! }))(decodeCursor(query.cursor, 2))
        : undefined;
      const categoryIds = query.categoryId
        ? [
            ...expandCategoryIds(
              (await store.repos.catalog.listCategories(companyId)).map((c) => ({ id: c.id, parentId: c.parent_id })),
              [query.categoryId],
            ),
          ]
        : undefined;
      const rows = await store.repos.catalog.listAllProducts(companyId, {
        text: query.q,
        active: query.active,
        categoryIds,
        modelId: query.modelId,
        limit: query.limit + 1,
        after,
      });
      const page = rows.slice(0, query.limit);
      const units = await store.repos.catalog.listUnits(
        companyId,
        page.map((p) => p.id),
      );
      const last = page.at(-1);
      return {
        data: page.map((p) => toAdminProduct(p, units)),
        nextCursor: rows.length > query.limit && last ? encodeCursor([last.name, last.id]) : null,
      };
    },

    getProduct: (companyId: string, productId: string) => readProduct(store.repos, companyId, productId),

    async updateProduct(companyId: string, productId: string, patch: ProductPatch): Promise<AdminProduct> {
      if (patch.name !== undefined) refuseControlCharacters(patch.name);
      const barcode = patch.barcode === undefined ? undefined : parseBarcode(patch.barcode);
      return guardBarcode(
        store.transaction(async (r) => {
          const stored = await r.catalog.findProduct(companyId, productId);
          if (!stored) throw AppError.notFound('Product');
          await checkReferences(r, companyId, patch);
          if (barcode !== undefined) await checkBarcodeFree(r, companyId, barcode, productId);
          const row: Partial<ProductRow> = { updated_at: now() };
          if (patch.name !== undefined) row.name = patch.name;
          if (patch.sku !== undefined) row.sku = patch.sku;
          if (barcode !== undefined) row.barcode = barcode;
          if (patch.description !== undefined) row.description = patch.description;
          if (patch.categoryId !== undefined) row.category_id = patch.categoryId;
          if (patch.modelId !== undefined) row.model_id = patch.modelId;
          if (patch.taxRateId !== undefined) row.tax_rate_id = patch.taxRateId;
          if (patch.active !== undefined) row.active = patch.active;
          if (patch.classificationCode !== undefined)
            // A stored code sent back unchanged passes, so a form saved for another field still saves.
            row.classification_code = parseClassification(
              patch.classificationCode,
              'classificationCode',
              patch.classificationCode?.trim() === stored.classification_code,
            );
          await r.catalog.updateProduct(companyId, productId, row);
          return readProduct(r, companyId, productId);
        }),
      );
    },

    /** Deactivating, never deleting: quotations and orders still point at the product. */
    async deactivateProduct(companyId: string, productId: string): Promise<void> {
      if (!(await store.repos.catalog.findProduct(companyId, productId))) throw AppError.notFound('Product');
      await store.repos.catalog.updateProduct(companyId, productId, { active: false, updated_at: now() });
    },

    /** Unit names are unique within a product: the CSV import matches units by name. */
    async addUnit(
      companyId: string,
      productId: string,
      input: { name: string; price: string; unitCode?: string | null },
    ): Promise<AdminUnit> {
      const priceMinor = Number(parsePrice(input.price));
      const unitCode = parseUnitCode(input.unitCode);
      return store.transaction(async (r) => {
        if (!(await r.catalog.findProduct(companyId, productId))) throw AppError.notFound('Product');
        const units = await r.catalog.listUnits(companyId, [productId]);
        if (units.some((u) => u.name === input.name)) throw AppError.invalid({ name: [said('error.unit.nameTaken')] });
        const row: UnitRow = {
          id: newId('unit'),
          company_id: companyId,
          product_id: productId,
          name: input.name,
          price_minor: priceMinor,
          position: Math.max(-1, ...units.map((u) => u.position)) + 1,
          unit_code: unitCode,
          created_at: now(),
        };
        await r.catalog.insertUnits([row]);
        await r.catalog.updateProduct(companyId, productId, { updated_at: row.created_at });
        return toAdminUnit(row);
      });
    },

    /** Quotation lines carry their own copy of the price, so a new price reaches only new documents. */
    async updateUnit(
      companyId: string,
      unitId: string,
      patch: { name?: string; price?: string; unitCode?: string | null },
    ): Promise<AdminUnit> {
      const priceMinor = patch.price === undefined ? undefined : Number(parsePrice(patch.price));
      const unitCode = patch.unitCode === undefined ? undefined : parseUnitCode(patch.unitCode);
      return store.transaction(async (r) => {
        const unit = await r.catalog.findUnit(companyId, unitId);
        if (!unit) throw AppError.notFound('Unit');
        if (patch.name !== undefined && patch.name !== unit.name) {
          const siblings = await r.catalog.listUnits(companyId, [unit.product_id]);
          if (siblings.some((u) => u.name === patch.name))
            throw AppError.invalid({ name: [said('error.unit.nameTaken')] });
        }
        const next = {
          ...unit,
          name: patch.name ?? unit.name,
          price_minor: priceMinor ?? unit.price_minor,
          unit_code: unitCode === undefined ? unit.unit_code : unitCode,
        };
        await r.catalog.updateUnit(companyId, unitId, {
          name: next.name,
          price_minor: next.price_minor,
          unit_code: next.unit_code,
        });
        await r.catalog.updateProduct(companyId, unit.product_id, { updated_at: now() });
        return toAdminUnit(next);
      });
    },

    /** A product without units could not be quoted or ordered; deactivate the product instead. */
    async deleteUnit(companyId: string, unitId: string): Promise<void> {
      await store.transaction(async (r) => {
        const unit = await r.catalog.findUnit(companyId, unitId);
        if (!unit) throw AppError.notFound('Unit');
        const siblings = await r.catalog.listUnits(companyId, [unit.product_id]);
        if (siblings.length <= 1) throw new AppError('conflict', said('error.unit.last'));
        await r.catalog.deleteUnit(companyId, unitId);
        await r.catalog.updateProduct(companyId, unit.product_id, { updated_at: now() });
      });
    },

    /** The admin's copy of a datasheet: inactive and out-of-scope products included, unlike the public one. */
    async getDatasheet(companyId: string, productId: string): Promise<{ name: string; bytes: Buffer }> {
      const product = await store.repos.catalog.findProduct(companyId, productId);
      const bytes = product?.datasheet_file ? await deps.datasheets.read(product.datasheet_file) : null;
      if (!product || !bytes) throw AppError.notFound('Datasheet');
      return { name: datasheetFileName(product), bytes };
    },

    /**
     * Stores a datasheet PDF for a product; only real PDFs within the size limit, with nothing
     * active in them, are taken. The uploaded file's name is not kept: it is served under a
     * name Portico makes from the product.
     */
    async setDatasheet(companyId: string, productId: string, file: { bytes: Buffer }, maxBytes: number): Promise<void> {
      const product = await store.repos.catalog.findProduct(companyId, productId);
      if (!product) throw AppError.notFound('Product');
      if (file.bytes.length > maxBytes)
        throw new AppError('payload_too_large', said('error.datasheet.tooLarge', { max: String(maxBytes) }));
      if (file.bytes.subarray(0, 5).toString('latin1') !== '%PDF-')
        throw AppError.invalid({ file: [said('error.datasheet.notPdf')] });
      const active = await findActiveContent(file.bytes);
      if (active) throw AppError.invalid({ file: [said('error.datasheet.activeContent', { what: active })] });
      if (!(await hasPages(file.bytes))) throw AppError.invalid({ file: [said('error.datasheet.noPages')] });
      const relative = await deps.datasheets.write(companyId, productId, file.bytes);
      await store.repos.catalog.updateProduct(companyId, productId, {
        datasheet_file: relative,
        datasheet_name: datasheetFileName(product),
        updated_at: now(),
      });
    },
  };
}
export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;

function toAdminUnit(u: UnitRow): AdminUnit {
  return { id: u.id, name: u.name, price: formatMoney(u.price_minor), unitCode: unitCodeOf(u.name, u.unit_code) };
}

/** A line break or a control character in a product's name breaks prints, receipts and exports (the hub's form comes here too). */
function refuseControlCharacters(name: string): void {
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) throw AppError.invalid({ name: [said('error.name.control')] });
}

function toAdminProduct(p: ProductWithRate, units: readonly UnitRow[]): AdminProduct {
  return {
    id: p.id,
    name: p.name,
    sku: p.sku,
    barcode: p.barcode,
    description: p.description,
    categoryId: p.category_id,
    modelId: p.model_id,
    taxRateId: p.tax_rate_id,
    taxRate: formatRate(p.rate_bp),
    classificationCode: p.classification_code,
    active: Boolean(p.active),
    hasDatasheet: p.datasheet_file !== null,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
    units: units.filter((u) => u.product_id === p.id).map(toAdminUnit),
  };
}

/** A KPD 2025 code as the classification prints it ("20.30.11"); blank clears it. */
export function parseClassification(
  text: string | null | undefined,
  field = 'classificationCode',
  acceptUnlisted = false,
): string | null {
  const code = text?.trim() ?? '';
  if (code === '') return null;
  if (!KPD_CODE.test(code)) throw AppError.invalid({ [field]: [said('error.product.classificationForm')] });
  // Zakon o fiskalizaciji art. 42: a code of the official KPD 2025 list, not merely of its form.
  if (!acceptUnlisted && !kpdEntry(code)) throw AppError.invalid({ [field]: [said('error.kpd.unknown', { code })] });
  return code;
}

/** A barcode as stored (its digits), after the GTIN check; blank clears it. */
export function parseBarcode(text: string | null | undefined, field = 'barcode'): string | null {
  if (text === undefined || text === null || text.trim() === '') return null;
  const checked = checkGtin(text);
  if (checked.ok) return checked.value;
  throw AppError.invalid({
    [field]: [
      checked.reason === 'form'
        ? said('error.product.barcodeForm')
        : said('error.product.barcodeCheck', { expected: String(checked.expected) }),
    ],
  });
}

function barcodeConflict(otherProduct?: string): AppError {
  const details = fieldErrors();
  addFieldError(
    details,
    'barcode',
    otherProduct === undefined
      ? said('error.product.barcodeTakenSummary')
      : said('error.product.barcodeTaken', { product: otherProduct }),
  );
  return new AppError('conflict', said('error.product.barcodeTakenSummary'), details);
}

/** A concurrent write that took the barcode first reaches the unique index: the same refusal, without the other's name. */
async function guardBarcode<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof BarcodeTaken) throw barcodeConflict();
    throw error;
  }
}

/** A UN/ECE Recommendation 20 (or 21, "X…") unit code; blank: derived from the unit's name. */
export function parseUnitCode(text: string | null | undefined, field = 'unitCode'): string | null {
  const code = text?.trim().toUpperCase() ?? '';
  if (code === '') return null;
  if (!UNIT_CODE.test(code)) throw AppError.invalid({ [field]: [said('error.unit.codeForm')] });
  return code;
}

export function parsePrice(text: string, field = 'price'): bigint {
  try {
    const value = parseScaled(text, MONEY_SCALE);
    // 999,999,999.99 at most: line totals must stay exact integers of cents.
    if (value < 0n || value > 99_999_999_999n) throw new RangeError('out of range');
    return value;
  } catch {
    throw AppError.invalid({ [field]: [said('error.price.form')] });
  }
}

export function parseRate(text: string, field = 'rate'): number {
  try {
    const value = parseScaled(text, RATE_SCALE);
    if (value < 0n || value > 10_000n) throw new RangeError('out of range');
    return Number(value);
  } catch {
    throw AppError.invalid({ [field]: [said('error.rate.form')] });
  }
}

/**
 * A 0 % rate says why no VAT is charged: the invoice must state the provision (Croatia: Zakon o
 * PDV-u čl. 79 st. 1 t. 10 — "napomenu o oslobođenju"; Germany: §14 Abs. 4 Satz 1 Nr. 8 UStG,
 * "einen Hinweis auf die Steuerbefreiung"), and the print takes it from the rate.
 */
function requireExemptionReason(rateBp: number, reason: string | null): void {
  if (rateBp === 0 && !reason) throw AppError.invalid({ exemptionReason: [said('error.taxRate.exemptionNeeded')] });
}

/**
 * The company's standard rate: its highest (25 % in Croatia, Zakon o PDV-u čl. 38 st. 1; 19 % in
 * Germany, §12 Abs. 1 UStG; the reduced and zero rates are the exceptions a product is put in on purpose).
 */
async function standardRate(r: CatalogRepos, companyId: string): Promise<string> {
  const rates = await r.catalog.listTaxRates(companyId);
  const standard = rates.reduce<(typeof rates)[number] | undefined>(
    (best, rate) => (rate.rate_bp > 0 && (!best || rate.rate_bp > best.rate_bp) ? rate : best),
    undefined,
  );
  if (!standard) throw AppError.invalid({ taxRateId: [said('error.taxRate.unknown')] });
  return standard.id;
}
