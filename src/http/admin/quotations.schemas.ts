import { Type } from 'typebox';
import { QUOTATION_STATUSES, type QuotationView } from '../../modules/quotations/index.ts';
import { Nullable, Timestamp } from '../schemas.ts';
import { DirectoryCustomer, presentAdminQuotation, Quotation } from '../public/v1/quotes.routes.ts';

/** The quotation as the hub sees it: the public shape plus its state and links. */
export const AdminQuotation = Type.Object(
  {
    ...Quotation.properties,
    status: Type.Enum(QUOTATION_STATUSES, {
      description:
        '`approved` (as created by the API) → `accepted` | `declined` (the customer on their page) → `converted` | `cancelled`; `approved` and `accepted` convert and cancel.',
    }),
    directoryCustomer: DirectoryCustomer,
    expired: Type.Boolean({
      description: 'Past `expiresAt`; derived, never a stored state. Only an admin converts it, with `reprice`.',
    }),
    saleId: Nullable(Type.String({ description: 'The sale it was converted to.' })),
    cancelledAt: Nullable(Timestamp),
    cancellationReason: Nullable(Type.String()),
    revision: Type.Integer({
      minimum: 1,
      description: '1 for a new quotation; a revision keeps the id and suffixes the number (`Q-ZG1-2026-00042-2`).',
    }),
    revisedAt: Nullable(Timestamp),
    createdBy: Nullable(Type.String({ description: 'The hub user who made it; null when an API key did.' })),
  },
  { additionalProperties: false },
);

/** The hub's quotation: the admin shape (with the directory customer) and its state. */
export function presentHubQuotation(q: QuotationView, base: string) {
  return {
    data: {
      ...presentAdminQuotation(q, base).data,
      expired: q.expired,
      saleId: q.saleId,
      cancelledAt: q.cancelledAt,
      cancellationReason: q.cancellationReason,
      revision: q.revision,
      revisedAt: q.revisedAt,
      createdBy: q.createdBy,
    },
  };
}
