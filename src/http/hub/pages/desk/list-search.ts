import type { FastifyReply } from 'fastify';
import { MONEY_SCALE, decimalPoint, parseScaled } from '../../../../lib/money.ts';
import { addDays, startOfDay, type Table } from '../../../../modules/reports/index.ts';
import { everyPage, sendTable } from '../../../export-reply.ts';
import { html, type Html } from '../../html.ts';
import type { HubContext } from '../../hub-context.ts';
import { queryChoice, queryText } from '../../form.ts';
import { withQuery } from '../../paths.ts';

/**
 * The search a shop's lists share (issue 34): a number, a customer's name or OIB (`q`), the gross
 * amount, a period by day in the company's time zone; and the export of what is shown, as CSV or
 * XLSX from the reports' own writer, in the reader's language.
 */
export interface ListSearch {
  form: { q: string; amount: string; from: string; to: string };
  q?: string;
  totalMinor?: number;
  /** ISO instants: from the start of `from`'s day to the start of the day after `to`. */
  fromInstant?: string;
  toInstant?: string;
  /** Fields that could not be read, by name, with the message to show. */
  errors: Record<string, string>;
  format?: 'csv' | 'xlsx';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function readListSearch(ctx: HubContext, query: unknown): ListSearch {
  const raw = (query ?? {}) as Record<string, unknown>;
  const form = {
    q: queryText(raw.q, 100) ?? '',
    amount: queryText(raw.amount, 20) ?? '',
    from: queryText(raw.from, 10) ?? '',
    to: queryText(raw.to, 10) ?? '',
  };
  const errors: Record<string, string> = {};
  const out: ListSearch = { form, errors };
  if (form.q) out.q = form.q;
  if (form.amount) {
    const amount = decimalPoint(form.amount);
    if (/^\d+(\.\d{1,2})?$/.test(amount)) out.totalMinor = Number(parseScaled(amount, MONEY_SCALE));
    else errors.amount = ctx.t('hub.search.amountForm');
  }
  const tz = ctx.user.timezone;
  if (form.from) {
    if (DAY.test(form.from)) out.fromInstant = startOfDay(form.from, tz);
    else errors.from = ctx.t('hub.search.dayForm');
  }
  if (form.to) {
    // Up to the start of the next day, at its own local midnight whatever the clocks did that night.
    if (DAY.test(form.to)) out.toInstant = startOfDay(addDays(form.to, 1), tz);
    else errors.to = ctx.t('hub.search.dayForm');
  }
  const format = queryChoice(raw.format, ['csv', 'xlsx'] as const);
  if (format) out.format = format;
  return out;
}

/** The query of what is shown, for the next page and the export links. */
export function searchParams(search: ListSearch): Record<string, string | undefined> {
  const { q, amount, from, to } = search.form;
  return { q: q || undefined, amount: amount || undefined, from: from || undefined, to: to || undefined };
}

/** The search fields, each labelled, with its message; to sit inside the list's filter form. */
export function searchFields(
  ctx: HubContext,
  search: ListSearch,
  qLabel: string,
  withAmount = true,
  withQ = true,
): Html {
  const { t } = ctx;
  const f = (name: 'q' | 'amount' | 'from' | 'to', label: string, type: string, extra: Html | null = null) => {
    const error = search.errors[name];
    return html`<div><label for="${name}">${label}</label><br><input id="${name}" name="${name}" type="${type}" value="${search.form[name]}"${extra}${error ? html` aria-invalid="true" aria-describedby="${name}-error"` : null}>${error ? html`<br><span class="field-error" id="${name}-error">${error}</span>` : null}</div>`;
  };
  return html`${withQ ? f('q', qLabel, 'search', html` maxlength="100"`) : null}
${withAmount ? f('amount', t('hub.search.amount', { currency: ctx.user.currency }), 'text', html` inputmode="decimal" maxlength="20" size="10"`) : null}
${f('from', t('hub.search.from'), 'date')}
${f('to', t('hub.search.to'), 'date')}`;
}

/** "Export: CSV · XLSX" of the list as filtered. */
export function exportLinks(ctx: HubContext, path: string, params: Record<string, string | undefined>): Html {
  const { t } = ctx;
  const link = (format: 'csv' | 'xlsx') => withQuery(path, { ...params, format });
  return html`<p class="export-links">${t('hub.search.export')}: <a href="${link('csv')}" download>CSV</a> · <a href="${link('xlsx')}" download>XLSX</a></p>`;
}

/** Every row the filter selects (the admin API's limit), as the table built from them. */
export async function sendListExport<T>(
  reply: FastifyReply,
  ctx: HubContext,
  format: 'csv' | 'xlsx',
  name: string,
  fetch: (page: { limit: number; cursor?: string }) => Promise<{ data: T[]; nextCursor: string | null }>,
  table: (rows: T[], locale: 'hr' | 'de' | 'en') => Table,
): Promise<FastifyReply> {
  const rows = await everyPage(fetch);
  const locale = ctx.user.language;
  return sendTable(reply, table(rows, locale), format, locale, name);
}
