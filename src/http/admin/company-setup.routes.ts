import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { USER_ROLES, type Location, type User } from '../../modules/companies/index.ts';
import { Data, Nullable, errorResponses } from '../schemas.ts';
import { LocationBody, NewLocationBody, UserBody } from '../requests/companies.ts';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const LocationOutput = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    code: Type.String(),
    address: Nullable(Type.String()),
    fiscalPremises: Nullable(Type.String()),
    fiscalDevice: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const UserOutput = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: Type.Enum(USER_ROLES),
    operatorOib: Nullable(Type.String()),
    operatorLabel: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

const presentLocation = (l: Location) => ({
  id: l.id,
  name: l.name,
  code: l.code,
  address: l.address,
  fiscalPremises: l.fiscalPremises,
  fiscalDevice: l.fiscalDevice,
});
const presentUser = (u: User) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role,
  operatorOib: u.operatorOib,
  operatorLabel: u.operatorLabel,
});

/** What issuing an invoice needs of the company's locations (premises, device) and users (operator OIB). Admins only. */
export const companySetupRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    app.get(
      '/locations',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListLocations',
          summary: "The company's locations, with their labels in Croatian invoice numbers",
          security,
          response: { 200: Type.Object({ data: Type.Array(LocationOutput) }), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: (await c.companies.listLocations(request.admin.companyId)).map(presentLocation) }),
    );

    app.post(
      '/locations',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCreateLocation',
          summary: 'Add a location: its name and address, its code, its business premises and device labels',
          security,
          body: NewLocationBody,
          response: { 201: Data(LocationOutput), ...errorResponses(400, 403) },
        },
      },
      async (request, reply) => {
        const location = await c.companies.createLocation(request.admin.companyId, request.body);
        return reply
          .code(201)
          .header('location', `/api/v1/admin/locations/${location.id}`)
          .send({ data: presentLocation(location) });
      },
    );

    app.patch(
      '/locations/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateLocation',
          summary: 'Rename or re-address a location, or set its business premises and device labels',
          security,
          params: IdParams,
          body: LocationBody,
          response: { 200: Data(LocationOutput), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: presentLocation(
          await c.companies.updateLocation(request.admin.companyId, request.params.id, request.body),
        ),
      }),
    );

    app.get(
      '/users',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminListUsers',
          summary: "The company's users, with their operator OIB",
          security,
          response: { 200: Type.Object({ data: Type.Array(UserOutput) }), ...errorResponses(403) },
        },
      },
      async (request) => ({ data: (await c.companies.listUsers(request.admin.companyId)).map(presentUser) }),
    );

    app.patch(
      '/users/:id',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminUpdateUser',
          summary:
            "Set a user's operator OIB (told to the fiscal authority) and operator label (printed as the invoice's operator)",
          security,
          params: IdParams,
          body: UserBody,
          response: { 200: Data(UserOutput), ...errorResponses(400, 403, 404) },
        },
      },
      async (request) => ({
        data: presentUser(await c.companies.updateUser(request.admin.companyId, request.params.id, request.body)),
      }),
    );
  };
