import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Container } from '../../container.ts';
import { Data, errorResponses } from '../schemas.ts';
import { CloseDrawerBody, DrawerMovementBody, OpenDrawerBody } from '../requests/drawer.ts';
import { DayReportSchema } from './drawer.schemas.ts';

const Params = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** A location's drawer today: open with a float, cash in and out, close with a count, and where it stands. */
export const drawerDayRoutes =
  (c: Container): FastifyPluginAsyncTypebox =>
  async (app) => {
    const security = [{ adminToken: [] }];

    const actor = (request: { admin: { companyId: string; userId: string | null } }) => ({
      companyId: request.admin.companyId,
      userId: request.admin.userId,
    });

    app.post(
      '/locations/:id/drawer/open',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminOpenDrawer',
          summary: "Open the location's cash drawer for today with a float",
          description: '409 when the drawer is open already, or today was closed already. Counter staff and admins.',
          security,
          params: Params,
          body: OpenDrawerBody,
          response: { 201: Data(DayReportSchema), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const report = await c.till.open(actor(request), request.params.id, request.body);
        return reply.status(201).send({ data: report });
      },
    );

    app.post(
      '/locations/:id/drawer/movements',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminMoveDrawerCash',
          summary: 'Put cash into the open drawer or take it out, with a reason',
          description: 'Answers the day so far. 409 when the drawer is not open.',
          security,
          params: Params,
          body: DrawerMovementBody,
          response: { 201: Data(DayReportSchema), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const report = await c.till.move(actor(request), request.params.id, request.body);
        return reply.status(201).send({ data: report });
      },
    );

    app.post(
      '/locations/:id/drawer/close',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminCloseDrawer',
          summary: 'Close the drawer with the cash counted: answers the day report',
          description:
            'The count as `counted`, or by denomination (`denominations`: `{"50.00": 2, "0.20": 3}`), or both when they agree. ' +
            'The day report is written whole and never changes afterwards. Fires `drawer.closed`. 409 when the drawer is not open.',
          security,
          params: Params,
          body: CloseDrawerBody,
          response: { 201: Data(DayReportSchema), ...errorResponses(400, 404, 409) },
        },
      },
      async (request, reply) => {
        const report = await c.till.close(actor(request), request.params.id, request.body);
        return reply
          .status(201)
          .header('location', `/api/v1/admin/locations/${request.params.id}/drawer/days/${report.date}`)
          .send({ data: report });
      },
    );

    app.get(
      '/locations/:id/drawer',
      {
        schema: {
          tags: ['Admin'],
          operationId: 'adminGetDrawer',
          summary: 'The open day of the drawer: float, movements, expected cash so far',
          description: '404 when the drawer is not open.',
          security,
          params: Params,
          response: { 200: Data(DayReportSchema), ...errorResponses(404) },
        },
      },
      async (request) => ({ data: await c.till.current(request.admin.companyId, request.params.id) }),
    );
  };
