import { randomUUID } from 'node:crypto';
import { ZipFile } from 'yazl';
import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory } from '../companies/index.ts';
import { said } from '../i18n/index.ts';
import { addDays, isCalendarDate, localDate, startOfDay } from '../../lib/zoned-days.ts';
// The sales tables' rows, read as the schema has them: the sales module depends on fiscal, not back.
import type { SaleLinesTable as SaleLineRow, SalesTable as SaleRow } from '../../db/schema.ts';
import { dsfinvkFiles, type DsfinvkBon, type DsfinvkClosing } from './dsfinvk.ts';
import { TseUnavailable, type TseClient, type TseCredentials } from './tse-client.ts';
import { TSE_RECEIPT_TYPES, type TseReceiptType } from './tse-format.ts';
import type { TseRepository, TseTransactionRow } from './tse.repository.ts';

/** Where the Kassenabschlüsse (Z_NR) of a device come from, for the business days that have transactions. */
export interface DayClosings {
  closingsOf(
    companyId: string,
    locationId: string,
    days: readonly string[],
  ): Promise<Array<{ number: number; createdAt: string; day: string }>>;
}

/**
 * The Kassenabschlüsse are the days closed at the location's cash drawer (the till module, given
 * as `closedDays`: every closed day of the location up to a date). Z_NR counts the device's
 * closings from its first, as DSFinV-K numbers them; a day with transactions whose drawer was
 * not closed is refused (409 naming the days), since its Bons belong to no Kassenabschluss yet.
 */
export function closingsFromDrawer(
  closedDays: (
    companyId: string,
    locationId: string,
    upTo: string,
  ) => Promise<ReadonlyArray<{ date: string; closedAt: string | null }>>,
): DayClosings {
  return {
    async closingsOf(companyId, locationId, days) {
      const last = [...days].sort().at(-1);
      if (!last) return [];
      const closed = [...(await closedDays(companyId, locationId, last))]
        .filter((d) => d.closedAt !== null)
        .sort((a, b) => a.date.localeCompare(b.date));
      const byDate = new Map(closed.map((d, i) => [d.date, { number: i + 1, createdAt: d.closedAt! }]));
      const open = days.filter((day) => !byDate.has(day));
      if (open.length > 0) throw new AppError('conflict', said('error.tse.dayNotClosed', { days: open.join(', ') }));
      return days.map((day) => ({ day, ...byDate.get(day)! }));
    },
  };
}

type Repos = {
  tse: Pick<TseRepository, 'findDevice' | 'listForPeriod'>;
  sales: {
    find(companyId: string, id: string): Promise<SaleRow | undefined>;
    listSaleLines(companyId: string, ids: readonly string[]): Promise<SaleLineRow[]>;
  };
  companies: Pick<CompanyDirectory, 'findCompany' | 'findLocation'>;
};

/** The DSFinV-K zip of one device for a period: the CSVs, index.xml and the TSE's own TAR export. */
export function createDsfinvkExport(deps: {
  store: Store<Repos>;
  client: TseClient;
  credentials: (companyId: string) => Promise<TseCredentials>;
  closings: DayClosings;
  software: { name: string; version: string };
}) {
  const { store } = deps;
  return {
    async build(companyId: string, input: { from: string; to: string; locationId: string }): Promise<Buffer> {
      const errors = fieldErrors();
      if (!isCalendarDate(input.from)) addFieldError(errors, 'from', said('error.calendarDate'));
      if (!isCalendarDate(input.to)) addFieldError(errors, 'to', said('error.calendarDate'));
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);
      const [company, location] = await Promise.all([
        store.repos.companies.findCompany(companyId),
        store.repos.companies.findLocation(companyId, input.locationId),
      ]);
      if (!company) throw AppError.notFound('Company');
      if (!location) throw AppError.notFound('Location');
      const tz = company.timezone;
      const start = new Date(startOfDay(input.from, tz));
      const end = new Date(startOfDay(addDays(input.to, 1), tz));
      const [device, rows] = await Promise.all([
        store.repos.tse.findDevice(companyId, location.id),
        store.repos.tse.listForPeriod(companyId, location.id, start.toISOString(), end.toISOString()),
      ]);
      const docIds = rows.flatMap((r) => (r.document_id && !r.business_case ? [r.document_id] : []));
      const [sales, lines] = await Promise.all([
        Promise.all(docIds.map((id) => store.repos.sales.find(companyId, id))),
        store.repos.sales.listSaleLines(companyId, docIds),
      ]);
      const saleById = new Map(sales.flatMap((s) => (s ? [[s.id, s] as const] : [])));
      const dayOf = (iso: string) => localDate(iso, tz);
      const bonsByDay = new Map<string, DsfinvkBon[]>();
      for (const row of rows) {
        const sale = row.document_id && !row.business_case ? saleById.get(row.document_id) : undefined;
        const bon = toBon(
          row,
          sale,
          lines.filter((l) => l.document_id === row.document_id),
        );
        const key = dayOf(row.created_at);
        bonsByDay.set(key, [...(bonsByDay.get(key) ?? []), bon]);
      }
      const days = [...bonsByDay.keys()].sort();
      const closings: DsfinvkClosing[] = (await deps.closings.closingsOf(companyId, location.id, days)).map((c) => ({
        ...c,
        bons: bonsByDay.get(c.day) ?? [],
      }));
      const address = {
        street: company.address_street ?? '',
        postalCode: company.address_postal_code ?? '',
        city: company.address_city ?? '',
      };
      const files = dsfinvkFiles({
        kasseId: device?.client_serial ?? `PORTICO-${location.id}`,
        company: { name: company.name, ...address, country: 'DEU', taxId: company.tax_id },
        location: { name: location.name, ...parseAddress(location.address) },
        software: deps.software,
        currency: company.currency,
        tse: device
          ? {
              id: 1,
              serial: device.tss_serial,
              algorithm: device.algorithm,
              timeFormat: device.time_format,
              publicKey: device.public_key,
            }
          : null,
        closings,
      });
      const zip = new ZipFile();
      for (const [name, content] of files) zip.addBuffer(Buffer.from(content, 'utf8'), name);
      if (device) {
        try {
          const tar = await deps.client.exportTar(await deps.credentials(companyId), device.tss_id, randomUUID(), {
            startUnix: Math.floor(start.getTime() / 1000),
            endUnix: Math.floor(end.getTime() / 1000),
          });
          zip.addBuffer(tar, `tse/${device.tss_serial}.tar`);
        } catch (error) {
          if (!(error instanceof TseUnavailable)) throw error;
          zip.addBuffer(
            Buffer.from(`The TSE's export could not be fetched: ${error.message}\r\nFetch it again later.\r\n`),
            'tse/EXPORT-MISSING.txt',
          );
        }
      }
      zip.end();
      const chunks: Buffer[] = [];
      for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
  };
}
export type DsfinvkExport = ReturnType<typeof createDsfinvkExport>;

function toBon(row: TseTransactionRow, sale: SaleRow | undefined, lines: SaleLineRow[]): DsfinvkBon {
  const type = TSE_RECEIPT_TYPES[row.receipt_type as TseReceiptType];
  const at = (v: string | null) => (v === null ? null : new Date(v).toISOString());
  const base = {
    id: row.business_case ? row.id : (row.document_id ?? row.id),
    number: row.number === null ? null : Number(row.number),
    type,
    storno: row.receipt_type === 'CANCELLATION',
    start: at(row.time_start) ?? new Date(row.created_at).toISOString(),
    end: at(row.time_end) ?? new Date(row.created_at).toISOString(),
    tse: {
      number: row.number === null ? null : Number(row.number),
      start: at(row.time_start),
      end: at(row.time_end),
      processType: row.process_type,
      processData: row.process_data,
      signatureCounter: row.signature_counter === null ? null : Number(row.signature_counter),
      signature: row.signature,
      error: row.status === 'failed' ? row.error : null,
    },
  };
  if (row.business_case) {
    // A drawer movement: the cash the TSE signed (or was asked to sign), outside any VAT rate.
    const cash = cashOf(row.process_data);
    return {
      ...base,
      note: row.business_case,
      operator: null,
      customer: null,
      lines: [
        {
          position: 1,
          businessCase: row.business_case,
          text: row.business_case,
          code: null,
          quantityMilli: 1000,
          unit: '',
          rateBp: 0,
          grossMinor: cash,
          netMinor: cash,
          taxMinor: 0,
        },
      ],
      payments: [{ type: 'Bar', amountMinor: cash }],
      references: null,
    };
  }
  const total = lines.reduce((s, l) => s + Number(l.total_minor), 0);
  return {
    ...base,
    note: sale?.invoice_number ?? sale?.number ?? '',
    operator: sale?.operator_name ?? null,
    customer: sale ? sale.customer_name : null,
    lines: lines
      .sort((a, b) => a.position - b.position)
      .map((l) => ({
        position: l.position,
        businessCase: 'Umsatz',
        text: l.product_name,
        code: l.product_code,
        quantityMilli: Number(l.quantity_milli),
        unit: l.unit_name,
        rateBp: l.tax_rate_bp,
        grossMinor: Number(l.total_minor),
        netMinor: Number(l.net_minor),
        taxMinor: Number(l.tax_minor),
      })),
    payments:
      sale && total !== 0 ? [{ type: sale.payment_method === 'cash' ? 'Bar' : 'Unbar', amountMinor: total }] : [],
    references: sale?.corrects_sale_id ?? null,
  };
}

/** The cash of a `Beleg^…^<amount>:Bar` process data, in cents. */
function cashOf(processData: string): number {
  const bar = /(?:^|_)(-?\d+)\.(\d{2}):Bar(?:_|$)/.exec(processData.split('^')[2] ?? '');
  if (!bar) return 0;
  const minor = Math.abs(Number(bar[1])) * 100 + Number(bar[2]);
  return bar[1]!.startsWith('-') ? -minor : minor;
}

function parseAddress(raw: unknown): { street: string; postalCode: string; city: string } {
  const a = (typeof raw === 'string' ? safeJson(raw) : raw) as {
    street?: string;
    postalCode?: string;
    city?: string;
  } | null;
  return { street: a?.street ?? '', postalCode: a?.postalCode ?? '', city: a?.city ?? '' };
}
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { street: text };
  }
}
