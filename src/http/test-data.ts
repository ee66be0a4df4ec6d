import type { Container } from '../container.ts';

export interface DeletedTestData {
  inquiries: number;
  quotations: number;
  orders: number;
  sales: number;
  events: number;
}

/**
 * Everything made with the company's test keys, deleted together: the developer settings'
 * "delete test data". Each part is one module's own; live data is never touched. Run again
 * after a failure, it deletes what is left.
 */
export async function deleteTestData(c: Container, companyId: string): Promise<DeletedTestData> {
  const inquiries = await c.inquiries.deleteTestData(companyId);
  // Sales first: a test sale names the test quotation or order it came from.
  const sales = await c.sales.deleteTestData(companyId);
  const quotations = await c.quotations.deleteTestData(companyId);
  const orders = await c.orders.deleteTestData(companyId);
  const events = await c.endpoints.deleteTestEvents(companyId);
  return { inquiries, quotations, orders, sales, events };
}
