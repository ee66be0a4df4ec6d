import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { AppError, type Message } from '../lib/errors.ts';
import type { UserRole } from '../modules/companies/index.ts';
import { said } from './request-messages.ts';
import { localDate } from '../modules/reports/index.ts';

/**
 * Who may do what in the admin API: the one place, the "Roles" of docs/hub.md written as code. Each
 * permission is an area and an action, granted to the roles listed; the roles table there
 * is checked against this one by test/http/admin/roles.test.ts. Permissions no route uses yet
 * (customers, sales, quotation handling) are here so the routes that come only name one.
 */
export const PERMISSIONS = {
  // Staff at the counter are who a walk-in customer's web inquiry reaches first (issue 34).
  'inquiries:read': ['admin', 'staff', 'support'],
  'inquiries:answer': ['admin', 'staff', 'support'], // reply to the inquirer, mark handled
  'inquiries:handle': ['admin', 'support'], // reopen, release from the spam folder
  'inquiries:spam': ['admin', 'support'], // the spam folder and what is in it
  // The caller's own inbox. Who is told of what is decided where notifications are made:
  // inquiries reach admin and support users only, so staff have none of them.
  'notifications:own': ['admin', 'staff', 'support'],
  'customers:read': ['admin', 'staff', 'support'],
  'customers:edit': ['admin', 'staff'], // create and edit
  'customers:manage': ['admin'], // the rest: delete, merge
  'quotations:read': ['admin', 'staff', 'support'], // quotations and web orders
  'quotations:handle': ['admin', 'staff'], // assign a customer, accept, convert an unexpired one, cancel
  'quotations:reprice': ['admin'], // convert an expired one with re-pricing
  'quotations:make': ['admin', 'staff'], // make and revise quotations in the hub
  'sales:read': ['admin', 'staff', 'support'], // sales and payments
  'sales:record-payment': ['admin', 'staff'],
  'sales:counter': ['admin', 'staff'], // sell at the counter: issue an invoice and take its payment
  'sales:manage': ['admin'],
  'invoices:correct': ['admin'], // cancel any invoice (storno), issue a credit note
  // Their own invoice, the day it was issued, with a reason (`mayCancelInvoice`); invoices:correct any.
  'invoices:cancel-own': ['admin', 'staff'],
  'payments:void': ['admin', 'staff'],
  // The cash drawer of a location: open with a float, cash in and out, close with a count, its day reports.
  'drawer:operate': ['admin', 'staff'],
  'drawer:overview': ['admin'], // every location's drawers at once
  'documents:send': ['admin', 'staff'], // send quotations and invoices by e-mail
  'catalog:read': ['admin', 'staff', 'support'],
  'catalog:write': ['admin'],
  'reports:run': ['admin'], // read reports, build and download exports (the month archive)
  'purchases:read': ['admin', 'staff'], // received e-invoices: list, read, their original XML
  // Staff decide on a received e-invoice (accept, reject: reported through the exchange) and upload
  // one received another way; admins record the payment made (issue 33).
  'purchases:handle': ['admin', 'staff'],
  'purchases:pay': ['admin'],
  'settings:manage': ['admin'], // developer settings (API keys, webhooks, catalog scope, print template, bank account), team, company profile
} as const satisfies Record<string, readonly UserRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/** Every admin route, by its operationId. A route missing here is refused at start. */
export const ADMIN_ROUTES: Readonly<Record<string, Permission>> = {
  adminListInquiries: 'inquiries:read',
  adminGetInquiry: 'inquiries:read',
  adminReleaseInquiry: 'inquiries:handle',
  adminListNotifications: 'notifications:own',
  adminReadNotification: 'notifications:own',

  adminListOrders: 'quotations:read',
  adminGetOrder: 'quotations:read',
  adminAcceptOrder: 'quotations:handle',
  adminCancelOrder: 'quotations:handle',
  adminConvertOrder: 'quotations:handle',
  adminListQuotations: 'quotations:read',
  adminGetQuotation: 'quotations:read',
  adminPreviewQuotationConversion: 'quotations:read',
  // An expired quotation needs `reprice`, which the route checks against quotations:reprice.
  adminConvertQuotation: 'quotations:handle',
  adminCancelQuotation: 'quotations:handle',
  adminCreateQuotation: 'quotations:make',
  adminReviseQuotation: 'quotations:make',
  adminListQuotationRevisions: 'quotations:read',
  adminGetQuotationRevision: 'quotations:read',

  adminListSales: 'sales:read',
  adminGetSale: 'sales:read',
  adminGetSaleEInvoice: 'sales:read',
  adminGetSaleStatement: 'sales:read',
  adminRecordSalePayment: 'sales:record-payment',
  adminRefundSale: 'sales:record-payment',
  adminCreateCounterSale: 'sales:counter',
  adminVoidSalePayment: 'payments:void',
  adminCancelSale: 'invoices:cancel-own',
  adminCreateCreditNote: 'invoices:correct',
  adminOpenDrawer: 'drawer:operate',
  adminMoveDrawerCash: 'drawer:operate',
  adminCloseDrawer: 'drawer:operate',
  adminGetDrawer: 'drawer:operate',
  adminGetDrawerDay: 'drawer:operate',
  adminListDrawers: 'drawer:overview',
  adminDrawerReport: 'reports:run',
  adminSetLogo: 'settings:manage',
  adminRemoveLogo: 'settings:manage',

  adminListQuotationCustomerMatches: 'quotations:read',
  adminListOrderCustomerMatches: 'quotations:read',
  adminAssignQuotationCustomer: 'quotations:handle',
  adminAssignOrderCustomer: 'quotations:handle',

  adminListCustomers: 'customers:read',
  adminGetCustomer: 'customers:read',
  adminCreateCustomer: 'customers:edit',
  adminUpdateCustomer: 'customers:edit',

  adminListCategories: 'catalog:read',
  adminListModels: 'catalog:read',
  adminListTaxRates: 'catalog:read',
  adminListProducts: 'catalog:read',
  adminGetProduct: 'catalog:read',
  adminExportCatalog: 'catalog:read',
  adminCreateCategory: 'catalog:write',
  adminUpdateCategory: 'catalog:write',
  adminDeleteCategory: 'catalog:write',
  adminCreateModel: 'catalog:write',
  adminUpdateModel: 'catalog:write',
  adminDeleteModel: 'catalog:write',
  adminCreateTaxRate: 'catalog:write',
  adminUpdateTaxRate: 'catalog:write',
  adminCreateProduct: 'catalog:write',
  adminUpdateProduct: 'catalog:write',
  adminDeactivateProduct: 'catalog:write',
  adminAddUnit: 'catalog:write',
  adminUpdateUnit: 'catalog:write',
  adminDeleteUnit: 'catalog:write',
  adminUploadDatasheet: 'catalog:write',

  adminListApiKeys: 'settings:manage',
  adminCreateApiKey: 'settings:manage',
  adminRevokeApiKey: 'settings:manage',
  adminDeleteTestData: 'settings:manage',
  adminGetCatalogScope: 'settings:manage',
  adminSetCatalogScope: 'settings:manage',
  adminGetSettings: 'settings:manage',
  adminUpdateSettings: 'settings:manage',
  adminCreateWebhook: 'settings:manage',
  adminListWebhooks: 'settings:manage',
  adminGetWebhook: 'settings:manage',
  adminUpdateWebhook: 'settings:manage',
  adminDeleteWebhook: 'settings:manage',
  adminTestWebhook: 'settings:manage',
  adminListDeliveries: 'settings:manage',
  adminRedeliver: 'settings:manage',
  adminGetFiscalSettings: 'settings:manage',
  adminUploadFiscalCertificate: 'settings:manage',
  adminCheckFiscal: 'settings:manage',
  adminSaveTseAccount: 'settings:manage',
  adminSetUpLocationTse: 'settings:manage',
  adminAbortCounterBasket: 'sales:counter',
  adminExportDsfinvk: 'reports:run',
  adminListLocations: 'settings:manage',
  adminUpdateLocation: 'settings:manage',
  adminCreateLocation: 'settings:manage',
  adminListUsers: 'settings:manage',
  adminUpdateUser: 'settings:manage',

  adminSendQuotation: 'documents:send',
  adminListQuotationSendings: 'quotations:read',
  adminSendSale: 'documents:send',
  adminListSaleSendings: 'sales:read',
  adminReplyToInquiry: 'inquiries:answer',
  adminListInquiryReplies: 'inquiries:read',
  adminReopenInquiry: 'inquiries:handle',
  adminReportSales: 'reports:run',
  adminReportVat: 'reports:run',
  adminReportPayments: 'reports:run',
  adminReportReceivables: 'reports:run',
  adminStartMonthExport: 'reports:run',
  adminGetExport: 'reports:run',
  adminDownloadExport: 'reports:run',
  adminReportPurchases: 'reports:run',
  adminGetExchange: 'settings:manage',
  adminSetExchange: 'settings:manage',
  adminDeleteExchange: 'settings:manage',
  adminCheckExchange: 'settings:manage',
  adminListPurchaseInvoices: 'purchases:read',
  adminGetPurchaseInvoice: 'purchases:read',
  adminUploadPurchaseInvoice: 'purchases:handle',
  adminAcceptPurchaseInvoice: 'purchases:handle',
  adminRejectPurchaseInvoice: 'purchases:handle',
  adminRecordPurchasePayment: 'purchases:pay',
};

export function rolesFor(operationId: string): readonly UserRole[] | null {
  const permission = ADMIN_ROUTES[operationId];
  return permission === undefined ? null : PERMISSIONS[permission];
}

/**
 * Installs the role check on every route registered in this instance from now on. A route
 * that names no rule in ADMIN_ROUTES stops the server from starting, so a new route cannot
 * forget it. The check runs on request, right after the token is authenticated: a refused
 * caller gets 403 before its body is read or validated.
 */
export function enforceRoles(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const operationId = (route.schema as { operationId?: unknown } | undefined)?.operationId;
    const roles = typeof operationId === 'string' ? rolesFor(operationId) : null;
    if (!roles) {
      throw new Error(
        `Admin route ${String(route.method)} ${route.url} (operationId ${String(operationId)}) has no entry in src/http/access.ts ADMIN_ROUTES.`,
      );
    }
    const check = async (request: FastifyRequest): Promise<void> => {
      if (!(roles as readonly string[]).includes(request.admin.role)) {
        throw new AppError('forbidden', needsRole(roles));
      }
    };
    const existing =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...existing, check];
  });
}

/** The refusal of a role a permission leaves out, by the roles it takes, each said by key. */
const NEEDS_ROLE = {
  admin: 'error.role.admin',
  'admin or support': 'error.role.adminOrSupport',
  'admin or staff': 'error.role.adminOrStaff',
} as const;

/**
 * "This needs the admin role.", in the reader's language: the roles are words of the catalog,
 * not parameters, so a Croatian reader reads "administrator". A permission given to a new mix of
 * roles is said in English until the catalog has its key (the access test names it).
 */
export function needsRole(roles: readonly UserRole[]): Message {
  const named = roles.join(' or ');
  const key = (NEEDS_ROLE as Record<string, (typeof NEEDS_ROLE)[keyof typeof NEEDS_ROLE]>)[named];
  return key ? said(key) : `This needs the ${named} role.`;
}

/** Whether a role holds a permission: the hub hides what this refuses, and refuses it again on request. */
export function can(role: UserRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly string[]).includes(role);
}

/**
 * Whether `actor` may cancel this invoice: a holder of invoices:correct any invoice any day; a
 * holder of invoices:cancel-own only one they issued themselves, on the same calendar day in the
 * company's time zone (a wrong receipt is caught at the counter; later it is a credit note's
 * or the owner's business). The refusal says which.
 */
export function mayCancelInvoice(
  actor: { role: UserRole; userId: string },
  sale: { createdBy: string | null; issuedAt: string | null; createdAt: string },
  timeZone: string,
  now: Date,
): void {
  if (can(actor.role, 'invoices:correct')) return;
  if (!can(actor.role, 'invoices:cancel-own'))
    throw new AppError('forbidden', needsRole(PERMISSIONS['invoices:correct']));
  if (sale.createdBy !== actor.userId) throw new AppError('forbidden', said('error.cancel.notOwn'));
  if (localDate(sale.issuedAt ?? sale.createdAt, timeZone) !== localDate(now, timeZone))
    throw new AppError('forbidden', said('error.cancel.notToday'));
}
