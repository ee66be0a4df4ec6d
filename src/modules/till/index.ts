export { createTillService, type TillService, type TillRepos, type CloseInput } from './till.service.ts';
export { type DayReport, EURO_DENOMINATIONS } from './day-report.ts';
