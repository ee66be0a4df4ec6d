import { Type } from 'typebox';
import { Text } from '../schemas.ts';

/** A new location API key: the admin API's body and the hub's form. */
export const NewApiKeyBody = Type.Object(
  { locationId: Type.String({ maxLength: 64 }), name: Text(100) },
  { additionalProperties: false },
);

/** What the public API exposes: the admin API's body and answer, and the hub's catalog scope form. */
export const CatalogScopeBody = Type.Object(
  {
    kind: Type.Union(
      [Type.Literal('all'), Type.Literal('products'), Type.Literal('categories'), Type.Literal('models')],
      {
        description:
          '`all`, or selective: fixed `products`, dynamic `categories` (sub-categories included) or `models`.',
      },
    ),
    ids: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 10_000, uniqueItems: true, default: [] }),
  },
  { additionalProperties: false },
);
