import { parse } from 'csv-parse/sync';
import { unneutralise } from '../../lib/spreadsheet-text.ts';
import { AppError } from '../../lib/errors.ts';
import { gtinSpellings } from './gtin.ts';
import { parseBarcode, parseClassification, parsePrice, parseRate, parseUnitCode } from './catalog-admin.service.ts';

/**
 * The catalog CSV, read without touching the database: one row per unit, rows sharing a SKU
 * form one product. Rows are numbered as a spreadsheet shows them (header = row 1), so a
 * report points at the line to fix.
 */

export const CSV_COLUMNS = [
  'sku',
  'name',
  'category',
  'parent_category',
  'model',
  'tax_rate',
  'unit',
  'price',
  'description',
  'classification',
  'unit_code',
  'barcode',
] as const;
type Column = (typeof CSV_COLUMNS)[number];
const REQUIRED: readonly Column[] = ['sku', 'name', 'tax_rate', 'unit', 'price'];
// The same limits as the admin API, so an imported product can be edited there unchanged.
const MAX_LENGTH: Record<Column, number> = {
  sku: 100,
  name: 300,
  category: 200,
  parent_category: 200,
  model: 200,
  tax_rate: 10,
  unit: 50,
  price: 20,
  description: 5000,
  classification: 10,
  unit_code: 3,
  barcode: 20,
};
export const MAX_ROWS = 20_000;
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export interface ImportError {
  row: number;
  field?: string;
  message: string;
}

/**
 * One valid data row. `undefined` means the file has no such column (the import leaves that
 * field alone on existing products); `null` means the cell is empty (the field is cleared).
 */
export interface CatalogCsvRow {
  row: number;
  sku: string;
  name: string;
  category: string | null | undefined;
  parentCategory: string | null | undefined;
  model: string | null | undefined;
  rateBp: number;
  unit: string;
  priceMinor: number;
  description: string | null | undefined;
  /** KPD 2025 code (e-invoice line classification). */
  classification: string | null | undefined;
  /** UN/ECE Rec 20 code of this row's unit; null or undefined: derived from its name. */
  unitCode: string | null | undefined;
  /** The product's GTIN, checked (see gtin.ts). */
  barcode: string | null | undefined;
}

export interface CsvProduct extends Omit<CatalogCsvRow, 'unit' | 'priceMinor' | 'unitCode'> {
  units: Array<{ row: number; name: string; priceMinor: number; unitCode: string | null }>;
}

export function parseCatalogCsv(text: string): { rows: CatalogCsvRow[]; errors: ImportError[] } {
  let records: string[][];
  try {
    records = (
      parse(text, { bom: true, trim: true, relax_column_count: true, skip_empty_lines: false }) as string[][]
    ).map((record) => record.map(unneutralise)); // a cell our export neutralised reads as written
  } catch (error) {
    const e = error as { records?: number; message: string };
    // `records` counts the rows read before the broken one.
    return { rows: [], errors: [{ row: (e.records ?? 0) + 1, message: `Not readable as CSV: ${e.message}` }] };
  }
  const header = records[0];
  if (!header || header.every((h) => h === ''))
    return {
      rows: [],
      errors: [{ row: 1, message: `The header row is missing; expected columns: ${CSV_COLUMNS.join(',')}.` }],
    };

  const errors: ImportError[] = [];
  const index = new Map<Column, number>();
  header.forEach((raw, i) => {
    const name = raw.toLowerCase() as Column;
    if (!CSV_COLUMNS.includes(name))
      errors.push({ row: 1, field: raw, message: `Unknown column; expected: ${CSV_COLUMNS.join(', ')}.` });
    else if (index.has(name)) errors.push({ row: 1, field: raw, message: 'The column appears twice.' });
    else index.set(name, i);
  });
  for (const column of REQUIRED)
    if (!index.has(column)) errors.push({ row: 1, field: column, message: 'Required column is missing.' });
  if (index.has('parent_category') && !index.has('category'))
    errors.push({ row: 1, field: 'parent_category', message: 'Needs a category column too.' });
  if (errors.length > 0) return { rows: [], errors };
  if (records.length - 1 > MAX_ROWS)
    return {
      rows: [],
      errors: [{ row: MAX_ROWS + 2, message: `At most ${MAX_ROWS} data rows per file; split the file.` }],
    };

  const rows: CatalogCsvRow[] = [];
  records.slice(1).forEach((record, i) => {
    const row = i + 2;
    if (record.every((cell) => cell === '')) return; // a blank line between groups is harmless
    const rowErrors: ImportError[] = [];
    if (record.length !== header.length) {
      rowErrors.push({
        row,
        message: `Has ${record.length} fields; the header has ${header.length}. Quote cells that contain commas.`,
      });
    }
    const cell = (column: Column): string | null | undefined => {
      const at = index.get(column);
      if (at === undefined) return undefined;
      const value = record[at] ?? '';
      if (value === '') {
        if (REQUIRED.includes(column)) rowErrors.push({ row, field: column, message: 'Is required.' });
        return null;
      }
      if (value.length > MAX_LENGTH[column])
        rowErrors.push({ row, field: column, message: `Must be at most ${MAX_LENGTH[column]} characters.` });
      // PostgreSQL cannot store NUL, and other control characters are always a copy-paste accident.
      if (CONTROL.test(value)) rowErrors.push({ row, field: column, message: 'Contains a control character.' });
      return value;
    };
    const sku = cell('sku'),
      name = cell('name'),
      unit = cell('unit'),
      description = cell('description');
    const category = cell('category'),
      parentCategory = cell('parent_category'),
      model = cell('model');
    const rateText = cell('tax_rate'),
      priceText = cell('price');
    if (parentCategory && !category)
      rowErrors.push({ row, field: 'parent_category', message: 'A parent category needs a category.' });
    // "25 %" is how people write a rate; the number is what counts.
    const rateBp = rateText
      ? attempt(() => parseRate(rateText.replace(/\s*%$/, ''), 'tax_rate'), row, 'tax_rate', rowErrors)
      : undefined;
    const priceMinor = priceText
      ? attempt(() => Number(parsePrice(priceText, 'price')), row, 'price', rowErrors)
      : undefined;
    const classificationText = cell('classification'),
      unitCodeText = cell('unit_code');
    const classification = classificationText
      ? // The form here; whether the list has it is the import's to say (it knows the stored code).
        attempt(() => parseClassification(classificationText, 'classification', true), row, 'classification', rowErrors)
      : classificationText;
    const unitCode = unitCodeText
      ? attempt(() => parseUnitCode(unitCodeText, 'unit_code'), row, 'unit_code', rowErrors)
      : unitCodeText;
    const barcodeText = cell('barcode');
    const barcode = barcodeText
      ? attempt(() => parseBarcode(barcodeText, 'barcode'), row, 'barcode', rowErrors)
      : barcodeText;
    if (rowErrors.length > 0 || !sku || !name || !unit || rateBp === undefined || priceMinor === undefined) {
      errors.push(...rowErrors);
      return;
    }
    rows.push({
      row,
      sku,
      name,
      category,
      parentCategory,
      model,
      rateBp,
      unit,
      priceMinor,
      description,
      classification,
      unitCode,
      barcode,
    });
  });
  if (rows.length === 0 && errors.length === 0) errors.push({ row: 2, message: 'The file has no data rows.' });
  return { rows, errors };
}

const PRODUCT_FIELDS = [
  ['name', 'name'],
  ['category', 'category'],
  ['parentCategory', 'parent_category'],
  ['model', 'model'],
  ['rateBp', 'tax_rate'],
  ['description', 'description'],
  ['classification', 'classification'],
  ['barcode', 'barcode'],
] as const;

/**
 * Rows sharing a SKU become one product; they must agree on the product's fields and not repeat
 * a unit, and two products may not share a barcode.
 */
export function groupBySku(rows: readonly CatalogCsvRow[]): { products: CsvProduct[]; errors: ImportError[] } {
  const bySku = new Map<string, CsvProduct>();
  const errors: ImportError[] = [];
  for (const r of rows) {
    const product = bySku.get(r.sku);
    if (!product) {
      const { unit, priceMinor, unitCode, ...fields } = r;
      bySku.set(r.sku, { ...fields, units: [{ row: r.row, name: unit, priceMinor, unitCode: unitCode ?? null }] });
      continue;
    }
    for (const [key, column] of PRODUCT_FIELDS) {
      if (r[key] !== product[key])
        errors.push({
          row: r.row,
          field: column,
          message: `Differs from row ${product.row}, the first row of SKU "${r.sku}"; rows of one product must agree.`,
        });
    }
    const twin = product.units.find((u) => u.name === r.unit);
    if (twin)
      errors.push({
        row: r.row,
        field: 'unit',
        message: `Unit "${r.unit}" is already in row ${twin.row} for SKU "${r.sku}".`,
      });
    else product.units.push({ row: r.row, name: r.unit, priceMinor: r.priceMinor, unitCode: r.unitCode ?? null });
  }
  const products = [...bySku.values()];
  // One barcode, one product: two products of the file with the same GTIN (in any spelling) cannot both be stored.
  const barcodeOwners = new Map<string, CsvProduct>();
  for (const p of products) {
    if (!p.barcode) continue;
    const twin = gtinSpellings(p.barcode)
      .map((code) => barcodeOwners.get(code))
      .find(Boolean);
    if (twin)
      errors.push({
        row: p.row,
        field: 'barcode',
        message: `The same barcode as SKU "${twin.sku}" in row ${twin.row}; a barcode names one product.`,
      });
    else barcodeOwners.set(p.barcode, p);
  }
  return { products, errors };
}

/** parsePrice and parseRate speak AppError; a CSV report wants their message for one cell. */
function attempt<T>(parseCell: () => T, row: number, field: string, errors: ImportError[]): T | undefined {
  try {
    return parseCell();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    errors.push({ row, field, message: error.details?.[field]?.[0] ?? error.message });
    return undefined;
  }
}
