import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../lib/errors.ts';
import { said } from './request-messages.ts';
import { toCsv, toXlsx, type ExportLocale, type Table } from '../modules/reports/index.ts';
import { fileHeaders } from './file-reply.ts';

export type ExportFormat = 'json' | 'csv' | 'xlsx';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** `format` and `locale` of an exportable read: the JSON schema feeds validation and OpenAPI. */
export const ExportQuery = {
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('xlsx')], {
      description: 'JSON (default), CSV or XLSX; without it, an `Accept` of text/csv or the XLSX type picks that.',
    }),
  ),
  locale: Type.Optional(
    Type.Union([Type.Literal('hr'), Type.Literal('de'), Type.Literal('en')], {
      description:
        "The spreadsheet's conventions and headings: `hr` and `de` write `;` between fields, a decimal comma and dates as 26.11.2026.; `en` a comma, a decimal point and ISO dates. Default: the company's language.",
    }),
  ),
};

export function exportFormat(request: FastifyRequest, format: ExportFormat | undefined): ExportFormat {
  if (format) return format;
  const accept = request.headers.accept ?? '';
  if (/\btext\/csv\b/.test(accept)) return 'csv';
  if (accept.includes(XLSX)) return 'xlsx';
  return 'json';
}

export function exportLocale(requested: ExportLocale | undefined, companyLocale: string | undefined): ExportLocale {
  if (requested) return requested;
  const base = (companyLocale ?? 'en').slice(0, 2);
  return base === 'hr' || base === 'de' ? base : 'en';
}

/** The table as a CSV or XLSX download named `{name}.csv|xlsx`. */
export async function sendTable(
  reply: FastifyReply,
  table: Table,
  format: 'csv' | 'xlsx',
  locale: ExportLocale,
  name: string,
): Promise<FastifyReply> {
  if (format === 'csv')
    return fileHeaders(reply, 'ours', `${name}.csv`)
      .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]+/g, '_')}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(toCsv(table, locale));
  const body = await toXlsx(table, locale);
  return fileHeaders(reply, 'ours', `${name}.xlsx`)
    .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]+/g, '_')}.xlsx"`)
    .type(XLSX)
    .send(body);
}

/** A 200 that is JSON, CSV or XLSX, as OpenAPI documents it. */
export const JsonOrSheet = (description: string, json: unknown) => ({
  description,
  content: {
    'application/json': { schema: json },
    'text/csv': { schema: Type.String() },
    [XLSX]: { schema: Type.String({ format: 'binary' }) },
  },
});

/** A list exported whole is at most this long: past it, a report or a narrower filter is the answer. */
export const EXPORT_ROWS_MAX = 20_000;

/** Every page of a newest-first list, for an export; a 400 naming `format` past EXPORT_ROWS_MAX rows. */
export async function everyPage<T>(
  fetch: (page: { limit: number; cursor?: string }) => Promise<{ data: T[]; nextCursor: string | null }>,
): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetch({ limit: 100, ...(cursor ? { cursor } : {}) });
    rows.push(...page.data);
    if (rows.length > EXPORT_ROWS_MAX)
      throw AppError.invalid({ format: [said('error.export.tooMany', { max: EXPORT_ROWS_MAX })] });
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

type Page<T> = { data: T[]; nextCursor: string | null };

/**
 * A list read: one page as JSON, or, asked for CSV or XLSX (`format`, else `Accept`), every page
 * as one table in the asked locale (else the company's) and the company's time zone.
 */
export async function listOrSheet<T>(
  request: FastifyRequest & { query: { format?: ExportFormat; locale?: ExportLocale } },
  reply: FastifyReply,
  opts: {
    /** One page of the list: the request's own page for JSON, each page in turn for a sheet. */
    page: (query: { limit?: number; cursor?: string }) => Promise<Page<T>>;
    /** The first page as JSON answers it (the request's `limit` and `cursor`). */
    firstPage: { limit?: number; cursor?: string };
    company: () => Promise<{ locale: string; timeZone: string }>;
    table: (rows: T[], locale: ExportLocale, timeZone: string) => Table;
    name: string;
  },
): Promise<Page<T> | FastifyReply> {
  const format = exportFormat(request, request.query.format);
  if (format === 'json') return opts.page(opts.firstPage);
  const rows = await everyPage(opts.page);
  const company = await opts.company();
  const locale = exportLocale(request.query.locale, company.locale);
  return sendTable(reply, opts.table(rows, locale, company.timeZone), format, locale, opts.name);
}
