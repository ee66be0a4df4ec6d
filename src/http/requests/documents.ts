import { Type } from 'typebox';
import { Text } from '../schemas.ts';

/** Why a quotation or web order is cancelled: the admin API's body and the hub's cancel form. */
export const CancelBody = Type.Object(
  { reason: Text(500, { examples: ['The customer bought elsewhere.'] }) },
  { additionalProperties: false },
);
