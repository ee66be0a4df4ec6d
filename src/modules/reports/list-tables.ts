import { MONEY_SCALE, parseScaled } from '../../lib/money.ts';
import { localDate } from './periods.ts';
import { reportLabel, type ReportLabel } from './report-labels.ts';
import type { Column, ColumnType, ExportLocale, Table } from './table.ts';

/**
 * The admin lists (sales, customers, quotations) as tables for CSV and XLSX: what the list's JSON
 * holds, flattened to the columns a spreadsheet reader wants. The inputs are the lists' JSON
 * shapes, named here by what is read of them.
 */

const cents = (amount: string) => Number(parseScaled(amount, MONEY_SCALE));

function columns(locale: ExportLocale, spec: Array<[ReportLabel, ColumnType, string?]>): Column[] {
  return spec.map(([label, type, key]) => ({ key: key ?? label, label: reportLabel(locale, label), type }));
}

export interface SaleListItem {
  number: string;
  invoiceNumber: string | null;
  kind: string;
  status: string;
  issuedAt: string | null;
  createdAt: string;
  dueDate: string | null;
  customer: { name: string; taxId: string | null };
  totals: { net: string; tax: string; withTax: string };
  paid: string;
  balance: string;
}

export function salesListTable(
  rows: readonly SaleListItem[],
  locale: ExportLocale,
  timeZone: string,
  statusLabel: (status: string) => string,
): Table {
  return {
    title: reportLabel(locale, 'title.salesList'),
    columns: columns(locale, [
      ['number', 'text'],
      ['kind', 'text'],
      ['status', 'text'],
      ['issued', 'date'],
      ['due', 'date'],
      ['customer', 'text'],
      ['taxId', 'text'],
      ['net', 'money'],
      ['tax', 'money'],
      ['gross', 'money'],
      ['paid', 'money'],
      ['balance', 'money'],
    ]),
    rows: rows.map((s) => ({
      number: s.invoiceNumber ?? s.number,
      kind: reportLabel(locale, `kind.${s.kind}` as ReportLabel),
      status: statusLabel(s.status),
      issued: localDate(s.issuedAt ?? s.createdAt, timeZone),
      due: s.dueDate,
      customer: s.customer.name,
      taxId: s.customer.taxId,
      net: cents(s.totals.net),
      tax: cents(s.totals.tax),
      gross: cents(s.totals.withTax),
      paid: cents(s.paid),
      balance: cents(s.balance),
    })),
  };
}

export interface CustomerListItem {
  kind: string;
  name: string;
  taxId: string | null;
  email: string | null;
  phone: string | null;
  address: { street: string; postalCode: string; city: string; country: string } | null;
  createdAt: string;
}

export function customersListTable(rows: readonly CustomerListItem[], locale: ExportLocale, timeZone: string): Table {
  return {
    title: reportLabel(locale, 'title.customers'),
    columns: columns(locale, [
      ['customer', 'text'],
      ['customerKind', 'text'],
      ['taxId', 'text'],
      ['email', 'text'],
      ['phone', 'text'],
      ['address', 'text'],
      ['created', 'date'],
    ]),
    rows: rows.map((c) => ({
      customer: c.name,
      customerKind: c.kind,
      taxId: c.taxId,
      email: c.email,
      phone: c.phone,
      address: c.address
        ? `${c.address.street}, ${c.address.postalCode} ${c.address.city}, ${c.address.country}`
        : null,
      created: localDate(c.createdAt, timeZone),
    })),
  };
}

export interface QuotationListItem {
  number: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  customer: { name: string };
  directoryCustomer: { name: string } | null;
  totals: { net: string; tax: string; withTax: string };
}

export function quotationsListTable(
  rows: readonly QuotationListItem[],
  locale: ExportLocale,
  timeZone: string,
  statusLabel: (status: string) => string,
): Table {
  return {
    title: reportLabel(locale, 'title.quotations'),
    columns: columns(locale, [
      ['docNumber', 'text', 'number'],
      ['status', 'text'],
      ['created', 'date'],
      ['expires', 'date'],
      ['customer', 'text'],
      ['net', 'money'],
      ['tax', 'money'],
      ['gross', 'money'],
    ]),
    rows: rows.map((q) => ({
      number: q.number,
      status: statusLabel(q.status),
      created: localDate(q.createdAt, timeZone),
      expires: localDate(q.expiresAt, timeZone),
      customer: q.directoryCustomer?.name ?? q.customer.name,
      net: cents(q.totals.net),
      tax: cents(q.totals.tax),
      gross: cents(q.totals.withTax),
    })),
  };
}

export type OrderListItem = Omit<QuotationListItem, 'expiresAt'>;

/** Web orders as listed: the quotations' columns without a validity. */
export function ordersListTable(
  rows: readonly OrderListItem[],
  locale: ExportLocale,
  timeZone: string,
  statusLabel: (status: string) => string,
): Table {
  return {
    title: reportLabel(locale, 'title.orders'),
    columns: columns(locale, [
      ['docNumber', 'text', 'number'],
      ['status', 'text'],
      ['created', 'date'],
      ['customer', 'text'],
      ['net', 'money'],
      ['tax', 'money'],
      ['gross', 'money'],
    ]),
    rows: rows.map((o) => ({
      number: o.number,
      status: statusLabel(o.status),
      created: localDate(o.createdAt, timeZone),
      customer: o.directoryCustomer?.name ?? o.customer.name,
      net: cents(o.totals.net),
      tax: cents(o.totals.tax),
      gross: cents(o.totals.withTax),
    })),
  };
}
