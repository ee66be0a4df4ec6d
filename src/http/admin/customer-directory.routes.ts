import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery, JsonOrSheet, listOrSheet } from '../export-reply.ts';
import { customersListTable } from '../../modules/reports/index.ts';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, Id, Nullable, Pagination, ProblemRef, Timestamp, errorResponses } from '../schemas.ts';
import { CustomerInput, Kind, Language } from '../requests/customers.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const CustomerPatch = Type.Partial(CustomerInput, {
  additionalProperties: false,
  description: 'Fields left out stay as they are; `null` clears an optional one.',
});

export const Customer = Type.Object(
  {
    id: Id('cus'),
    kind: Kind,
    name: Type.String(),
    taxId: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone: Nullable(Type.String()),
    address: Nullable(
      Type.Object(
        { street: Type.String(), postalCode: Type.String(), city: Type.String(), country: Type.String() },
        { additionalProperties: false },
      ),
    ),
    note: Nullable(Type.String()),
    electronicAddress: Nullable(Type.Object({ id: Type.String(), scheme: Type.String() })),
    buyerReference: Nullable(Type.String()),
    language: Nullable(Language),
    paymentTermsDays: Nullable(
      Type.Integer({ description: "Days a bank transfer is given (BT-9); null: the company's." }),
    ),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

const SEARCH_DESCRIPTION = [
  '`q` is read once, as one of these, and each is one range of one index, so a page costs the same with a thousand customers or a million:',
  '- with an `@`: an e-mail address, matched by its start, case ignored; results in e-mail order;',
  "- digits written as a phone number starting with `+`, `00` or a national `0` (`091 234`, `+385 91`): a phone number, matched by the start of its international form (a national number is taken in the company's country), so any spelling of the same number matches; results in number order (11 digits that check as a Croatian OIB are a tax id instead);",
  '- digits alone, or two letters and digits (`12345678903`, `HR 1234`, `DE1234`): a tax id, matched by its start, spaces, dots and hyphens ignored, a Croatian `HR` prefix optional; results in tax id order;',
  '- anything else: a name, matched by its start with case, diacritics and punctuation ignored (`kovacevic a` finds "Kovačević, Ana"); results in name order;',
  '- no `q`: every customer, by name.',
  'Pages are keyset: pass `nextCursor` as `cursor` with the same `q`.',
].join('\n');

/** The customer directory: add, search, read, change, export. */
export const customerDirectoryRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.post(
      '/customers',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateCustomer',
          summary: 'Add a customer to the directory',
          security,
          body: CustomerInput,
          response: {
            201: { ...Data(Customer), description: 'The customer; `Location` names it.' },
            ...errorResponses(400, 403),
            409: {
              ...ProblemRef,
              description: '`conflict` naming `taxId`: another customer of the company has this tax id.',
            },
          },
        },
      },
      async (request, reply) => {
        const customer = await c.customers.create(request.admin.companyId, request.body);
        return reply.status(201).header('location', `/api/v1/admin/customers/${customer.id}`).send({ data: customer });
      },
    );

    app.get(
      '/customers',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListCustomers',
          summary: 'Search the customer directory',
          description: SEARCH_DESCRIPTION,
          security,
          querystring: Type.Object(
            { q: Type.Optional(Type.String({ maxLength: 200 })), ...Pagination, ...ExportQuery },
            { additionalProperties: false },
          ),
          response: {
            200: JsonOrSheet(
              'A page of customers; with `format=csv|xlsx`, every customer the search selects (at most 20,000), without paging.',
              Type.Object(
                { data: Type.Array(Customer), nextCursor: Nullable(Type.String()) },
                { additionalProperties: false },
              ),
            ),
            ...errorResponses(400, 403),
          },
        },
      },
      async (request, reply) => {
        const companyId = request.admin.companyId;
        const { q } = request.query;
        return listOrSheet(request, reply, {
          page: ({ limit = 25, cursor }) => c.customers.search(companyId, { q, limit, cursor }),
          firstPage: request.query,
          company: () => c.reports.company(companyId),
          table: customersListTable,
          name: 'customers',
        });
      },
    );

    app.get(
      '/customers/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetCustomer',
          summary: 'One customer',
          security,
          params: IdParams,
          response: { 200: Data(Customer), ...errorResponses(403, 404) },
        },
      },
      async (request) => ({ data: await c.customers.get(request.admin.companyId, request.params.id) }),
    );

    app.patch(
      '/customers/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateCustomer',
          summary: 'Change a customer',
          security,
          params: IdParams,
          body: CustomerPatch,
          response: {
            200: Data(Customer),
            ...errorResponses(400, 403, 404),
            409: {
              ...ProblemRef,
              description: '`conflict` naming `taxId`: another customer of the company has this tax id.',
            },
          },
        },
      },
      async (request) => ({ data: await c.customers.update(request.admin.companyId, request.params.id, request.body) }),
    );
  };
