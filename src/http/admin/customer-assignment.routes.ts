import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import type { DocumentKind } from '../../modules/customers/index.ts';
import { Data, ProblemRef, errorResponses } from '../schemas.ts';
import { CustomerInput } from '../requests/customers.ts';
import { AdminQuotation, presentHubQuotation } from './quotations.schemas.ts';
import { AdminOrder } from './orders.routes.ts';
import { baseUrl } from '../base-url.ts';
import { Customer } from './customer-directory.routes.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

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

const NOT_OPEN = (what: string) => ({
  409: {
    ...ProblemRef,
    description: `${what}; or, with \`newCustomer\`, \`conflict\` naming \`newCustomer.taxId\`: another customer has that tax id.`,
  },
});

/** A quotation's or web order's placeholder customer matched to the directory, and assigned. */
export const customerAssignmentRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

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
