/**
 * Every address of the hub, built in one place: a page links and redirects through these and
 * never spells `/hub/…` itself, so a moved page is one edit here and a typo is a type error.
 * Ids are encoded as path segments; what comes after `?` is built by `withQuery`.
 */

export const HUB = '/hub';

const seg = (id: string) => encodeURIComponent(id);

/** A path with a query string (`?notice=saved`, filters); absent or empty values are left out. */
export function withQuery(path: string, query: Record<string, string | undefined> | URLSearchParams): string {
  const params =
    query instanceof URLSearchParams
      ? query
      : new URLSearchParams(
          Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== ''),
        );
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/** A redirect's notice (`?notice=<key>`), one of the page's own keys (see form.ts `noticeOf`). */
export const withNotice = (path: string, notice: string): string => `${path}?notice=${notice}`;

export type DeskKind = 'quotation' | 'order' | 'sale';

export const paths = {
  today: HUB,
  signIn: (next = '') => `${HUB}/sign-in${next}`,
  signOut: `${HUB}/sign-out`,
  reset: (token: string) => `${HUB}/reset/${seg(token)}`,
  resetDone: `${HUB}/reset-done`,

  account: `${HUB}/account`,
  accountPassword: `${HUB}/account/password`,
  accountLanguage: `${HUB}/account/language`,
  company: `${HUB}/company`,
  help: `${HUB}/help`,
  helpGuide: (guide: string, anchor?: string) => `${HUB}/help/${seg(guide)}${anchor ? `#${anchor}` : ''}`,
  reports: `${HUB}/reports`,
  reportsExport: `${HUB}/reports/export`,
  reportsArchive: `${HUB}/reports/archive`,
  reportsArchiveJob: (id: string) => `${HUB}/reports/archive/${seg(id)}`,
  reportsArchiveStatus: (id: string) => `${HUB}/reports/archive/${seg(id)}/status`,
  reportsArchiveFile: (id: string) => `${HUB}/reports/archive/${seg(id)}/download`,
  team: `${HUB}/team`,
  teamUser: (id: string, action: 'role' | 'reset' | 'enable' | 'disable' | 'oib') => `${HUB}/team/${seg(id)}/${action}`,

  notifications: `${HUB}/notifications`,
  notificationsCount: `${HUB}/notifications/count`,
  notificationsReadAll: `${HUB}/notifications/read-all`,
  notificationRead: (id: string) => `${HUB}/notifications/${seg(id)}/read`,

  inquiries: `${HUB}/inquiries`,
  inquiry: (id: string) => `${HUB}/inquiries/${seg(id)}`,
  inquiryHandled: (id: string) => `${HUB}/inquiries/${seg(id)}/handled`,
  inquiryRelease: (id: string) => `${HUB}/inquiries/${seg(id)}/release`,
  inquiryPhoto: (id: string) => `${HUB}/inquiries/${seg(id)}/photo`,
  inquiryReply: (id: string) => `${HUB}/inquiries/${seg(id)}/reply`,
  inquiryReopen: (id: string) => `${HUB}/inquiries/${seg(id)}/reopen`,

  quotations: `${HUB}/quotations`,
  quotation: (id: string) => `${HUB}/quotations/${seg(id)}`,
  newQuotation: `${HUB}/quotations/new`,
  quotationEdit: (id: string) => `${HUB}/quotations/${seg(id)}/edit`,
  quotationRevisionPdf: (id: string, revision: number) => `${HUB}/quotations/${seg(id)}/revisions/${revision}/pdf`,
  counter: `${HUB}/counter`,
  counterTotal: `${HUB}/counter/total`,
  drawer: `${HUB}/drawer`,
  drawerAction: (action: 'open' | 'movements' | 'close') => `${HUB}/drawer/${action}`,
  drawerDay: (locationId: string, date: string) => `${HUB}/drawer/days/${seg(locationId)}/${seg(date)}`,
  drawerDayPdf: (locationId: string, date: string) => `${HUB}/drawer/days/${seg(locationId)}/${seg(date)}/pdf`,
  /** The line picker's and customer picker's options (combobox lists). */
  productOptions: `${HUB}/desk/product-options`,
  customerOptions: `${HUB}/desk/customer-options`,
  /** A new quotation started from an inquiry: the inquirer's details prefilled. */
  newQuotationFromInquiry: (inquiryId: string) => `${HUB}/quotations/new?inquiryId=${encodeURIComponent(inquiryId)}`,
  orders: `${HUB}/orders`,
  order: (id: string) => `${HUB}/orders/${seg(id)}`,
  sales: `${HUB}/sales`,
  sale: (id: string) => `${HUB}/sales/${seg(id)}`,
  /** A desk document of any kind, and the page that assigns its customer. */
  document: (kind: DeskKind, id: string) => `${HUB}/${DESK_FOLDER[kind]}/${seg(id)}`,
  documentCustomer: (kind: DeskKind, id: string) => `${HUB}/${DESK_FOLDER[kind]}/${seg(id)}/customer`,
  customers: `${HUB}/customers`,
  newCustomer: `${HUB}/customers/new`,
  customer: (id: string) => `${HUB}/customers/${seg(id)}`,

  catalog: `${HUB}/catalog`,
  categories: `${HUB}/catalog/categories`,
  category: (id: string) => `${HUB}/catalog/categories/${seg(id)}`,
  categoryDelete: (id: string) => `${HUB}/catalog/categories/${seg(id)}/delete`,
  models: `${HUB}/catalog/models`,
  model: (id: string) => `${HUB}/catalog/models/${seg(id)}`,
  modelDelete: (id: string) => `${HUB}/catalog/models/${seg(id)}/delete`,
  taxRates: `${HUB}/catalog/tax-rates`,
  taxRate: (id: string) => `${HUB}/catalog/tax-rates/${seg(id)}`,
  products: `${HUB}/catalog/products`,
  newProduct: `${HUB}/catalog/products/new`,
  product: (id: string) => `${HUB}/catalog/products/${seg(id)}`,
  productAction: (id: string, action: 'activate' | 'deactivate' | 'delete' | 'datasheet' | 'units') =>
    `${HUB}/catalog/products/${seg(id)}/${action}`,
  productUnit: (id: string, unitId: string) => `${HUB}/catalog/products/${seg(id)}/units/${seg(unitId)}`,
  productUnitDelete: (id: string, unitId: string) => `${HUB}/catalog/products/${seg(id)}/units/${seg(unitId)}/delete`,
  catalogImport: `${HUB}/catalog/import`,
  catalogExport: `${HUB}/catalog/export.csv`,
  importJob: (id: string) => `${HUB}/catalog/import/${seg(id)}`,
  importJobStatus: (id: string) => `${HUB}/catalog/import/${seg(id)}/status`,

  developer: `${HUB}/developer`,
  apiKeys: `${HUB}/developer/api-keys`,
  apiKeyRevoke: (id: string) => `${HUB}/developer/api-keys/${seg(id)}/revoke`,
  testDataDelete: `${HUB}/developer/test-data/delete`,
  webhooks: `${HUB}/developer/webhooks`,
  webhook: (id: string) => `${HUB}/developer/webhooks/${seg(id)}`,
  catalogScope: `${HUB}/developer/catalog-scope`,
  catalogScopePreview: `${HUB}/developer/catalog-scope/preview`,
  printSettings: `${HUB}/developer/print`,
  mailSettings: `${HUB}/developer/mail`,
  fiscal: `${HUB}/developer/fiscal`,
  fiscalCheck: `${HUB}/developer/fiscal/check`,
  exchange: `${HUB}/developer/einvoice-exchange`,
  exchangeCheck: `${HUB}/developer/einvoice-exchange/check`,
  exchangeRemove: `${HUB}/developer/einvoice-exchange/remove`,
  purchases: `${HUB}/purchases`,
  purchase: (id: string) => `${HUB}/purchases/${seg(id)}`,
  purchaseXml: (id: string) => `${HUB}/purchases/${seg(id)}/original.xml`,
  purchaseAttachment: (id: string, index: number) => `${HUB}/purchases/${seg(id)}/attachments/${index}`,
  purchaseAccept: (id: string) => `${HUB}/purchases/${seg(id)}/accept`,
  purchaseReject: (id: string) => `${HUB}/purchases/${seg(id)}/reject`,
  purchasePayment: (id: string) => `${HUB}/purchases/${seg(id)}/payments`,
  kpdSearch: `${HUB}/catalog/kpd`,
  printPreviewFrame: `${HUB}/developer/print/preview-frame`,
  printPreviewPdf: `${HUB}/developer/print/preview.pdf`,
  printLogo: `${HUB}/developer/print/logo`,
  printLogoRemove: `${HUB}/developer/print/logo/remove`,
} as const;

const DESK_FOLDER: Record<DeskKind, string> = { quotation: 'quotations', order: 'orders', sale: 'sales' };

/** Whether a page is one of the company settings' (profile, print template, fiscalisation): the main navigation marks "Company" there. */
export function inCompanySettings(path: string): boolean {
  return [paths.company, paths.printSettings, paths.fiscal].some((p) => path === p || path.startsWith(`${p}/`));
}
