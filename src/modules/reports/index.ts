export { createReportsService, type ReportsService } from './reports.service.ts';
export type { ReportQuery } from './report-shapes.ts';
export { GROUP_BYS, type GroupBy, addDays, localDate, startOfDay } from './periods.ts';
export { toCsv, formatDate, type Column, type ColumnType, type ExportLocale, type Table } from './table.ts';
export { toXlsx } from './xlsx.ts';
export type { ReportName } from './report-tables.ts';
export { salesListTable, customersListTable, quotationsListTable, ordersListTable } from './list-tables.ts';
export { createMonthArchives, type MonthArchives, type ArchiveJob } from './month-archive.ts';
