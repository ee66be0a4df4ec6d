import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import type { Company } from '../../modules/companies/index.ts';
import { Data, Nullable, errorResponses } from '../schemas.ts';
import { CatalogScopeBody as Scope } from '../requests/developer.ts';
import { SettingsBody } from '../requests/companies.ts';

const Settings = Type.Object(
  {
    name: Type.String(),
    currency: Type.String(),
    locale: Type.String(),
    timezone: Type.String(),
    pricesIncludeTax: Type.Boolean(),
    address: Nullable(
      Type.Object({ street: Type.String(), postalCode: Nullable(Type.String()), city: Nullable(Type.String()) }),
    ),
    country: Nullable(Type.String()),
    taxId: Nullable(Type.String()),
    bankAccount: Nullable(Type.Object({ iban: Type.String(), bic: Nullable(Type.String()), holder: Type.String() })),
    einvoiceContact: Type.Object({
      name: Nullable(Type.String()),
      phone: Nullable(Type.String()),
      email: Nullable(Type.String()),
    }),
    quotationValidityDays: Type.Integer(),
    paymentTermsDays: Type.Integer({
      description: 'Days a bank transfer is given unless the customer has its own terms (BT-9, BT-20).',
    }),
    printTemplate: Type.Object({
      header: Nullable(Type.String()),
      footer: Nullable(Type.String()),
      paymentInstructions: Nullable(Type.String()),
    }),
    fiscal: Type.Object(
      {
        enabled: Type.Boolean(),
        vatRegistered: Type.Boolean(),
        sequenceMode: Type.Union([Type.Literal('premises'), Type.Literal('device')]),
        zkiHash: Type.Union([Type.Literal('sha1'), Type.Literal('sha256')]),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

const presentSettings = (c: Company) => ({
  name: c.name,
  currency: c.currency,
  locale: c.locale,
  timezone: c.timezone,
  pricesIncludeTax: c.pricesIncludeTax,
  address: c.address,
  country: c.country,
  taxId: c.taxId,
  bankAccount: c.bankAccount,
  einvoiceContact: c.einvoiceContact,
  quotationValidityDays: c.quotationValidityDays,
  paymentTermsDays: c.paymentTermsDays,
  printTemplate: c.template,
  fiscal: c.fiscal,
});

/** The company's settings and the catalog scope its public API shows. */
export const companySettingsRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/catalog-scope',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetCatalogScope',
          summary: 'What the public API exposes',
          security,
          response: { 200: Data(Scope), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: await c.catalogScope.get(request.admin.companyId) }),
    );

    app.put(
      '/catalog-scope',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminSetCatalogScope',
          summary: 'Choose what the public API exposes',
          security,
          body: Scope,
          response: { 200: Data(Scope), ...errorResponses(400, 403) },
        },
      },
      async (request) => ({
        data: await c.catalogScope.set(request.admin.companyId, {
          kind: request.body.kind,
          ids: request.body.ids ?? [],
        }),
      }),
    );

    app.get(
      '/settings',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetSettings',
          summary: 'Company settings and print template',
          security,
          response: { 200: Data(Settings), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: presentSettings(await c.companies.getCompany(request.admin.companyId)) }),
    );

    app.patch(
      '/settings',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateSettings',
          security,
          summary:
            'Change the company profile (address, country, tax id, bank account, locale), the print template or quotation validity',
          description:
            'Only the fields sent change; `null` clears an optional one. Every bad field is named in `details` and nothing changes then. ' +
            'With a bank account, quotation PDFs carry payment codes for their exact total: the EPC QR code in EUR, and the HUB-3 PDF417 barcode too when the country is HR.',
          body: SettingsBody,
          response: { 200: Data(Settings), ...errorResponses(400, 403) },
        },
      },
      async (request) => ({
        data: presentSettings(await c.companies.updateSettings(request.admin.companyId, request.body)),
      }),
    );
  };
