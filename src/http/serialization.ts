import fastJsonStringify, { type Options } from 'fast-json-stringify';

/**
 * fast-json-stringify compiles a serializer per response schema; for every route of an app
 * that was about a quarter of building one (and of each test process), mostly for routes a
 * start never answers. Here a serializer is compiled on the route's first response, once per
 * schema per process, with the same options Fastify's own factory passes.
 */
type Serialize = (data: unknown) => string;

const serializers = new Map<string, Serialize>();
const pending = new Set<() => Serialize>();

export function buildSerializer(externalSchemas: unknown, serializerOpts: Options = {}) {
  const options: Options = { ...serializerOpts, schema: externalSchemas as Options['schema'] };
  // The shared schemas are the same for every route of an app: written out once per app, not
  // once per route (that was a third of building an app).
  const shared = JSON.stringify(options.schema ?? null);
  return ({ schema }: { schema: object & { $id?: string } }): Serialize => {
    // As Fastify's factory does: a schema never refers to itself through the shared ones.
    const own: Options | null =
      options.schema && schema.$id && options.schema[schema.$id]
        ? { ...options, schema: withoutKey(options.schema, schema.$id) }
        : null;
    const key = `${JSON.stringify(schema)}\u0000${own ? JSON.stringify(own.schema) : shared}`;
    const known = serializers.get(key);
    if (known) return known;
    let real: Serialize | undefined;
    const compile = (): Serialize => {
      if (!real) {
        real =
          serializers.get(key) ??
          (fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], own ?? options) as Serialize);
        serializers.set(key, real);
        pending.delete(compile);
      }
      return real;
    };
    pending.add(compile);
    return (data) => compile()(data);
  };
}

function withoutKey<T>(schemas: Record<string, T>, key: string): Record<string, T> {
  const copy = { ...schemas };
  delete copy[key];
  return copy;
}

/** Compiles every serializer still waiting for its first response; throws what it throws. */
export function compileAllSerializers(): number {
  const waiting = [...pending];
  for (const compile of waiting) compile();
  return waiting.length;
}
