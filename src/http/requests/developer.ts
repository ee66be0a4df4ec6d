import { Type } from 'typebox';
import { Text } from '../schemas.ts';

export const KeyKindSchema = Type.Union([Type.Literal('secret'), Type.Literal('publishable')], {
  description:
    '`secret` (the default): for your server, every public route. `publishable`: safe in a web page, only `POST /reach-out` and the catalog reads, only from `allowedOrigins`.',
});
export const KeyModeSchema = Type.Union([Type.Literal('live'), Type.Literal('test')], {
  description: '`live` (the default), or `test`: works on test data, which live keys never see.',
});
export const AllowedOrigins = Type.Array(Type.String({ maxLength: 200, examples: ['https://shop.example.com'] }), {
  maxItems: 20,
  description:
    'Publishable keys only, at least one: the exact origins (scheme, host, port) whose pages may use the key. `http://localhost:*` allows any local port, for development.',
});

/** A new location API key: the admin API's body and the hub's form. */
export const NewApiKeyBody = Type.Object(
  {
    locationId: Type.String({ maxLength: 64 }),
    name: Text(100),
    kind: Type.Optional(KeyKindSchema),
    mode: Type.Optional(KeyModeSchema),
    allowedOrigins: Type.Optional(AllowedOrigins),
  },
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
