import type { Container } from '../../../../container.ts';
import type { FieldErrors } from '../../../../lib/errors.ts';
import { decimalPoint } from '../../../../lib/money.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { bodyList, bodyText } from '../../form.ts';
import { paths } from '../../paths.ts';
import { money } from './desk-parts.ts';

/**
 * The lines of a document being made at the desk (a quotation, a counter sale): a combobox that
 * searches the catalog by name, SKU or barcode (type, arrows, Enter; hub.js), and a table of the
 * chosen lines with their unit, quantity, discount and note. The form posts each column as a
 * repeated field, in row order; `postedLines` reads them back as the admin API's `lines`.
 */

/** A line as the form shows it: what was posted or stored, and the product's units to choose from. */
export interface PickedLine {
  productId: string;
  unitId: string;
  quantity: string;
  discountPercent: string;
  note: string;
}

interface ProductChoice {
  id: string;
  name: string;
  sku: string | null;
  units: Array<{ id: string; name: string; price: string }>;
}

/** The form's lines as posted: parallel lists, one entry per row. */
export function pickedLines(body: unknown): PickedLine[] {
  const products = bodyList(body, 'productId');
  const units = bodyList(body, 'unitId');
  const quantities = bodyList(body, 'quantity');
  const discounts = bodyList(body, 'discountPercent');
  const notes = bodyList(body, 'lineNote');
  return products.map((productId, i) => ({
    productId,
    unitId: units[i] ?? '',
    quantity: (quantities[i] ?? '').trim(),
    discountPercent: (discounts[i] ?? '').trim(),
    note: (notes[i] ?? '').trim(),
  }));
}

/**
 * The lines as the admin API's body says them: numbers where a number was typed (a comma is a
 * decimal point), the text as typed otherwise, so the schema names the field that is wrong.
 */
export function postedLines(body: unknown): Array<Record<string, unknown>> {
  return pickedLines(body).map((line) => ({
    productId: line.productId,
    unitId: line.unitId,
    quantity: asNumber(line.quantity),
    ...(line.discountPercent === '' ? {} : { discountPercent: asNumber(line.discountPercent) }),
    ...(line.note === '' ? {} : { note: line.note }),
  }));
}

function asNumber(text: string): unknown {
  const value = decimalPoint(text);
  return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : text;
}

/** The catalog products these lines name, with their units: one read per product (a form holds few). */
export async function choicesFor(
  c: Container,
  companyId: string,
  lines: readonly { productId: string }[],
): Promise<Map<string, ProductChoice>> {
  const ids = [...new Set(lines.map((l) => l.productId))];
  const found = await Promise.all(ids.map((id) => c.catalogAdmin.getProduct(companyId, id).catch(() => null)));
  return new Map(
    found.flatMap((p) => (p ? [[p.id, { id: p.id, name: p.name, sku: p.sku, units: p.units }] as const] : [])),
  );
}

/**
 * The options of the product combobox: active products matching the text, each carrying its
 * units. A barcode scanner types the code and Enter, and hub.js picks the first option: the
 * product with that barcode (in any spelling of its GTIN) comes first, then one with that SKU.
 */
export async function productOptions(c: Container, ctx: HubContext, q: string): Promise<Html> {
  const companyId = ctx.user.companyId;
  const [{ data }, scanned] = await Promise.all([
    c.catalogAdmin.listProducts(companyId, { limit: 8, q, active: true }),
    c.catalogAdmin.findByBarcode(companyId, q),
  ]);
  const folded = q.trim().toLowerCase();
  const bySku = [...data].sort(
    (a, b) => Number(b.sku?.toLowerCase() === folded) - Number(a.sku?.toLowerCase() === folded),
  );
  const ranked = scanned?.active ? [scanned, ...bySku.filter((p) => p.id !== scanned.id)] : bySku;
  const options = ranked.filter((p) => p.units.length > 0);
  return html`${options.map(
    (p) =>
      html`<li role="option" id="opt-${p.id}" aria-selected="false" data-value="${JSON.stringify({
        id: p.id,
        name: p.name,
        sku: p.sku,
        units: p.units.map((u) => ({ id: u.id, name: u.name, price: money(ctx, u.price) })),
      })}"><span>${p.name}</span>${p.sku ? html` <span class="muted">${p.sku}</span>` : null}${p.barcode && p.barcode === scanned?.barcode ? html` <span class="muted">${p.barcode}</span>` : null} <span class="muted">${money(ctx, p.units[0]!.price)} / ${p.units[0]!.name}</span></li>`,
  )}<li role="presentation" class="sr-only" data-count="${options.length}">${ctx.t('hub.make.results', { count: options.length })}</li>`;
}

/** The options of the customer combobox: directory customers matching the text. */
export async function customerOptions(c: Container, ctx: HubContext, q: string): Promise<Html> {
  const { data } = await c.customers.search(ctx.user.companyId, { q, limit: 8 });
  return html`${data.map(
    (customer) =>
      html`<li role="option" id="opt-${customer.id}" aria-selected="false" data-value="${JSON.stringify({
        id: customer.id,
        name: customer.name,
        email: customer.email,
        phone: customer.phone,
      })}"><span>${customer.name}</span>${customer.email ? html` <span class="muted">${customer.email}</span>` : null}${customer.taxId ? html` <span class="muted">${customer.taxId}</span>` : null}</li>`,
  )}<li role="presentation" class="sr-only" data-count="${data.length}">${ctx.t('hub.make.results', { count: data.length })}</li>`;
}

/** A combobox over `source` (hub.js): a text field, its list box and a live count for screen readers. */
export function combobox(
  ctx: HubContext,
  spec: { id: string; label: string; hint: string; source: string; autofocus?: boolean },
): Html {
  return html`<div class="combobox">
<label for="${spec.id}">${spec.label}</label>
<p class="muted" id="${spec.id}-hint">${spec.hint}</p>
<input id="${spec.id}" type="text" role="combobox" autocomplete="off" aria-autocomplete="list" aria-expanded="false"
  aria-controls="${spec.id}-list" aria-describedby="${spec.id}-hint" data-combobox="${spec.source}"${spec.autofocus ? html` autofocus` : null}>
<ul id="${spec.id}-list" role="listbox" aria-label="${spec.label}" hidden></ul>
<p class="sr-only" role="status" id="${spec.id}-status"></p>
</div>`;
}

/** The line editor: the product combobox, the table of lines, and the row template hub.js copies. */
export function lineEditor(
  ctx: HubContext,
  lines: readonly PickedLine[],
  choices: ReadonlyMap<string, ProductChoice>,
  errors: FieldErrors | undefined,
  opts: { autofocus?: boolean } = {},
): Html {
  const { t } = ctx;
  const lineErrors = Object.entries(errors ?? {}).filter(([path]) => path === 'lines');
  return html`<fieldset class="lines">
<legend>${t('hub.desk.lines')}</legend>
${combobox(ctx, {
  id: 'product-search',
  label: t('hub.make.addProduct'),
  hint: t('hub.make.addProductHint'),
  source: paths.productOptions,
  autofocus: opts.autofocus,
})}
${lineErrors.map(([, list]) => html`<p class="error" role="alert">${list.join(' ')}</p>`)}
<table class="line-editor" data-lines>
<caption class="sr-only">${t('hub.desk.lines')}</caption>
<thead><tr><th scope="col">${t('print.column.product')}</th><th scope="col">${t('hub.make.unit')}</th><th scope="col">${t('hub.make.quantity')}</th><th scope="col">${t('hub.make.discount')}</th><th scope="col">${t('hub.make.lineNote')}</th><th scope="col"><span class="sr-only">${t('hub.desk.actions')}</span></th></tr></thead>
<tbody>${lines.map((line, i) => lineRow(ctx, `r${i}`, line, choices.get(line.productId), errorsOf(errors, i)))}</tbody>
</table>
<p class="muted" data-no-lines${lines.length > 0 ? html` hidden` : null}>${t('hub.make.noLines')}</p>
<template id="line-template">${lineRow(ctx, 'KEY', { productId: '', unitId: '', quantity: '1', discountPercent: '', note: '' }, undefined, [])}</template>
</fieldset>`;
}

function errorsOf(errors: FieldErrors | undefined, i: number): string[] {
  return Object.entries(errors ?? {})
    .filter(([path]) => path.startsWith(`lines[${i}]`))
    .flatMap(([, list]) => list);
}

function lineRow(
  ctx: HubContext,
  key: string,
  line: PickedLine,
  product: ProductChoice | undefined,
  errors: string[],
): Html {
  const { t } = ctx;
  const name = product?.name ?? line.productId;
  const invalid = errors.length > 0 ? html` aria-invalid="true" aria-describedby="err-${key}"` : null;
  return html`<tr class="line">
<th scope="row"><span data-name>${name}</span> <span class="muted" data-sku>${product?.sku ?? ''}</span><input type="hidden" name="productId" value="${line.productId}">
${errors.length > 0 ? html`<br><span class="error" id="err-${key}">${errors.join(' ')}</span>` : null}</th>
<td><label class="sr-only" for="unit-${key}">${t('hub.make.unit')}</label><select id="unit-${key}" name="unitId">${(
    product?.units ?? []
  ).map(
    (u) =>
      html`<option value="${u.id}"${u.id === line.unitId ? html` selected` : null}>${u.name} · ${money(ctx, u.price)}</option>`,
  )}</select></td>
<td><label class="sr-only" for="qty-${key}">${t('hub.make.quantity')}</label><input id="qty-${key}" name="quantity" inputmode="decimal" size="6" required value="${line.quantity}"${invalid}></td>
<td><label class="sr-only" for="disc-${key}">${t('hub.make.discount')}</label><input id="disc-${key}" name="discountPercent" inputmode="decimal" size="5" value="${line.discountPercent}"></td>
<td><label class="sr-only" for="note-${key}">${t('hub.make.lineNote')}</label><input id="note-${key}" name="lineNote" maxlength="500" value="${line.note}"></td>
<td><button type="button" class="link" data-remove-line aria-label="${t('hub.make.remove', { name })}" data-label-template="${t('hub.make.remove', { name: '{name}' })}">×</button></td>
</tr>`;
}

/** The document's own fields read back for showing again (a directory customer's id, note, validity). */
export function textField(body: unknown, name: string): string {
  return bodyText(body, name).trim();
}
