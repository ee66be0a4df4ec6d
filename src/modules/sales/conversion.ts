import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import { formatMoney, formatRate, formatScaledTrimmed, QUANTITY_SCALE } from '../../lib/money.ts';
import type { CatalogReads } from '../catalog/index.ts';
import { priceLine, summarize, type DocumentLineRow } from '../documents/index.ts';
import { said } from '../i18n/index.ts';

/** Why a line cannot be priced today. */
export type LineChange = 'unchanged' | 'price_changed' | 'tax_changed' | 'product_removed' | 'unit_removed';

export interface ConversionLine {
  position: number;
  productId: string;
  unitId: string;
  productName: string;
  unitName: string;
  quantity: string;
  note: string | null;
  quotedUnitPrice: string;
  /** null when the product or unit is gone (deleted, or deactivated) from the catalog. */
  currentUnitPrice: string | null;
  /** The line's discount in percent ("10", "0"): kept when repriced, so both totals are after it. */
  discountPercent: string;
  /** The line with tax as quoted, and as it would be today (null when it cannot be priced). */
  quotedLineTotal: string;
  currentLineTotal: string | null;
  change: LineChange;
}

export interface ConversionPreview {
  lines: ConversionLine[];
  quotedTotal: string;
  /** null when some line can no longer be priced. */
  currentTotal: string | null;
}

/** Today's prices are the catalog's. */
type PricesRepos = { catalog: Pick<CatalogReads, 'findProducts' | 'listUnits'> };

interface Current {
  unitPriceMinor: number;
  taxRateBp: number;
  productName: string;
  unitName: string;
  productCode: string | null;
}

/** Today's price of each line's product and unit, or why there is none. */
async function currentPrices(
  repos: PricesRepos,
  companyId: string,
  lines: readonly DocumentLineRow[],
): Promise<Array<Current | 'product_removed' | 'unit_removed'>> {
  const ids = [...new Set(lines.map((l) => l.product_id))];
  const [products, units] = await Promise.all([
    repos.catalog.findProducts(companyId, ids),
    repos.catalog.listUnits(companyId, ids),
  ]);
  const productById = new Map(products.map((p) => [p.id, p]));
  const unitById = new Map(units.map((u) => [u.id, u]));
  return lines.map((line) => {
    const product = productById.get(line.product_id);
    if (!product || !product.active) return 'product_removed';
    const unit = unitById.get(line.unit_id);
    if (!unit || unit.product_id !== product.id) return 'unit_removed';
    return {
      unitPriceMinor: unit.price_minor,
      taxRateBp: product.rate_bp,
      productName: product.name,
      unitName: unit.name,
      productCode: product.sku,
    };
  });
}

/** Line by line, what the document quoted and what the catalog asks today; both totals. */
export async function previewConversion(
  repos: PricesRepos,
  companyId: string,
  lines: readonly DocumentLineRow[],
  pricesIncludeTax: boolean,
): Promise<ConversionPreview> {
  const current = await currentPrices(repos, companyId, lines);
  const quoted = summarize(
    lines.map((l) => ({ net: l.net_minor, tax: l.tax_minor, total: l.total_minor, taxRateBp: l.tax_rate_bp })),
  );
  let priceable = true;
  const repriced: Array<ReturnType<typeof priceLine> & { taxRateBp: number }> = [];
  const out = lines.map((line, i): ConversionLine => {
    const now = current[i]!;
    const base = {
      position: line.position,
      productId: line.product_id,
      unitId: line.unit_id,
      productName: line.product_name,
      unitName: line.unit_name,
      quantity: formatScaledTrimmed(line.quantity_milli, QUANTITY_SCALE),
      note: line.note,
      quotedUnitPrice: formatMoney(line.unit_price_minor),
      discountPercent: formatRate(line.discount_bp ?? 0),
      quotedLineTotal: formatMoney(line.total_minor),
    };
    if (typeof now === 'string') {
      priceable = false;
      return { ...base, currentUnitPrice: null, currentLineTotal: null, change: now };
    }
    // Like with like: today's price under the quoted discount, or a discounted quotation shows
    // every line "unchanged" beside a higher total (issue 34).
    const today = priceLine(
      {
        unitPriceMinor: now.unitPriceMinor,
        quantityMilli: line.quantity_milli,
        taxRateBp: now.taxRateBp,
        discountBp: line.discount_bp ?? 0,
      },
      pricesIncludeTax,
    );
    repriced.push({ ...today, taxRateBp: now.taxRateBp });
    const change: LineChange =
      now.unitPriceMinor !== line.unit_price_minor
        ? 'price_changed'
        : now.taxRateBp !== line.tax_rate_bp
          ? 'tax_changed'
          : 'unchanged';
    return {
      ...base,
      currentUnitPrice: formatMoney(now.unitPriceMinor),
      currentLineTotal: formatMoney(today.total),
      change,
    };
  });
  return {
    lines: out,
    quotedTotal: formatMoney(quoted.withTax),
    currentTotal: priceable ? formatMoney(summarize(repriced).withTax) : null,
  };
}

/**
 * The lines priced at today's catalog prices and tax rates, quantities and notes kept. A line
 * whose product or unit is gone cannot be priced: a 409 naming each such line.
 */
export async function repriceLines(
  repos: PricesRepos,
  companyId: string,
  lines: readonly DocumentLineRow[],
  pricesIncludeTax: boolean,
): Promise<DocumentLineRow[]> {
  const current = await currentPrices(repos, companyId, lines);
  const details = fieldErrors();
  const out = lines.map((line, i): DocumentLineRow => {
    const now = current[i]!;
    if (typeof now === 'string') {
      addFieldError(
        details,
        `lines[${i}]`,
        now === 'product_removed'
          ? said('error.conversion.productRemoved', { position: String(line.position), product: line.product_name })
          : said('error.conversion.unitRemoved', {
              position: String(line.position),
              product: line.product_name,
              unit: line.unit_name,
            }),
      );
      return line;
    }
    const amounts = priceLine(
      {
        unitPriceMinor: now.unitPriceMinor,
        quantityMilli: line.quantity_milli,
        taxRateBp: now.taxRateBp,
        discountBp: line.discount_bp ?? 0,
      },
      pricesIncludeTax,
    );
    return {
      ...line,
      product_name: now.productName,
      product_code: now.productCode,
      unit_name: now.unitName,
      unit_price_minor: now.unitPriceMinor,
      tax_rate_bp: now.taxRateBp,
      net_minor: amounts.net,
      tax_minor: amounts.tax,
      total_minor: amounts.total,
    };
  });
  if (Object.keys(details).length > 0) throw new AppError('conflict', said('error.conversion.unpriced'), details);
  return out;
}
