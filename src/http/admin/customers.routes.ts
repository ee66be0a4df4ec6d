import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExportQuery, JsonOrSheet, everyPage, exportFormat, exportLocale, sendTable } from '../export-reply.ts';
import { customersListTable } from '../../modules/reports/index.ts';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import type { DocumentKind } from '../../modules/customers/index.ts';
import { Data, Id, Nullable, Pagination, ProblemRef, Timestamp, errorResponses } from '../schemas.ts';
import { CustomerInput, Kind, Language } from '../requests/customers.ts';
import { AdminQuotation, presentHubQuotation } from './quotations.routes.ts';
import { AdminOrder } from './orders.routes.ts';
import { baseUrl } from '../base-url.ts';

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

const CustomerMatch = Type.Object(
  {
    customer: Customer,
    score: Type.Number({
      description:
        '100 for the same tax id, 40 for the same e-mail, 30 for the same phone, plus 20 × name similarity: one identifier outranks any name.',
    }),
    reasons: Type.Array(
      Type.Union([
        Type.Literal('same_tax_id'),
        Type.Literal('same_email'),
        Type.Literal('same_phone'),
        Type.Literal('similar_name'),
      ]),
    ),
    nameSimilarity: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'How alike the names are (word by word, diacritics, case, order and legal forms ignored).',
    }),
  },
  { additionalProperties: false },
);

const AssignBody = Type.Union(
  [
    Type.Object(
      { customerId: Type.String({ maxLength: 64, description: "A customer of this company's directory." }) },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        newCustomer: Type.Partial(CustomerInput, {
          additionalProperties: false,
          description:
            "A directory customer created from the placeholder: `kind` defaults to `person`; name, e-mail and phone to the placeholder's unless given (`null` leaves one out).",
        }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'Either `customerId` or `newCustomer`.' },
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

const NOT_OPEN = (what: string) => ({
  409: {
    ...ProblemRef,
    description: `${what}; or, with \`newCustomer\`, \`conflict\` naming \`newCustomer.taxId\`: another customer has that tax id.`,
  },
});

/** The customer directory, and assigning its customers to quotations and web orders. */
export const customersRoutes =
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
        const { q, format: asked, locale: askedLocale } = request.query;
        const format = exportFormat(request, asked);
        if (format === 'json')
          return c.customers.search(companyId, { q, limit: request.query.limit ?? 25, cursor: request.query.cursor });
        const rows = await everyPage((page) => c.customers.search(companyId, { q, ...page }));
        const company = await c.reports.company(companyId);
        const locale = exportLocale(askedLocale, company.locale);
        return sendTable(reply, customersListTable(rows, locale, company.timeZone), format, locale, 'customers');
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

    for (const kind of ['quotation', 'order'] as const satisfies readonly DocumentKind[]) {
      const path = kind === 'quotation' ? 'quotations' : 'orders';
      const Noun = kind === 'quotation' ? 'Quotation' : 'Order';
      const what = kind === 'quotation' ? 'quotation' : 'web order';

      app.get(
        `/${path}/:id/customer-matches`,
        {
          schema: {
            tags: ['Admin'],
            operationId: `adminList${Noun}CustomerMatches`,
            summary: `Directory customers that may be the ${what}'s customer`,
            description: `Up to 10 directory customers ranked for the ${what}'s placeholder customer, best first: same tax id, same e-mail (case ignored), same phone (any spelling of the number), similar name (word by word, in any order). Each comes with its reasons; customers with none are left out.`,
            security,
            params: IdParams,
            response: { 200: Data(Type.Array(CustomerMatch)), ...errorResponses(403, 404) },
          },
        },
        async (request) => ({
          data: await c.customerAssignment.matches(request.admin.companyId, kind, request.params.id),
        }),
      );

      app.put(
        `/${path}/:id/customer`,
        {
          schema: {
            tags: ['Admin'],
            operationId: `adminAssign${Noun}Customer`,
            summary: `Assign a directory customer to the ${what}`,
            description: `Links the ${what} to a directory customer (\`customerId\`), or creates one from its placeholder and links it in one transaction (\`newCustomer\`). The placeholder \`customer\` is kept as it arrived; \`directoryCustomer\` names the assigned one. Assigning again replaces the link while the ${what} is open.`,
            security,
            params: IdParams,
            body: AssignBody,
            response: {
              200: Data(kind === 'quotation' ? AdminQuotation : AdminOrder),
              ...errorResponses(400, 403, 404),
              ...NOT_OPEN(
                kind === 'quotation'
                  ? '`quotation_not_open`: the quotation is no longer `approved` (converted or cancelled)'
                  : '`order_not_open`: the order is no longer `received` or `accepted` (converted or cancelled)',
              ),
            },
          },
        },
        async (request) => {
          const { companyId } = request.admin;
          await c.customerAssignment.assign(companyId, kind, request.params.id, request.body);
          return kind === 'quotation'
            ? presentHubQuotation(await c.quotations.get(companyId, request.params.id), baseUrl(c.config, request))
            : { data: await c.orders.get(companyId, request.params.id) };
        },
      );
    }
  };
