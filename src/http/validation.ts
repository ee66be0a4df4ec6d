import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { DECIMAL_MARKER } from './schemas.ts';

// ajv-formats is CommonJS; under ESM its function may arrive wrapped in `default`.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

const shared: Options = {
  allErrors: true, // name every bad field at once, not just the first
  verbose: true, // keeps parentSchema, where a pattern's human message lives
  useDefaults: true,
  removeAdditional: false, // unknown fields are errors, never silently dropped
  strict: true,
  discriminator: true, // webhook endpoints: report the errors of the chosen `kind` only
};

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...shared, coerceTypes });
  addFormats(ajv, ['email', 'uri', 'date-time', 'date']);
  ajv.addKeyword({ keyword: 'x-pattern-message', schemaType: 'string' });
  // Marks money and quantities for the API convention's test; says nothing to validation.
  ajv.addKeyword({ keyword: DECIMAL_MARKER, schemaType: 'string' });
  ajv.addVocabulary(['example']);
  return ajv;
}

// Bodies are JSON with real types: "2" is not a quantity. Query strings and params are text
// by nature and are coerced to the declared types.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

function compileValidator(schema: unknown, httpPart: string | undefined): Validate {
  const prepared = withUniqueItemTypes(schema) as object;
  if (httpPart === 'body') return bodyAjv.compile(prepared) as Validate;
  return numbersInDigits(textAjv.compile(prepared) as Validate);
}

/**
 * Compiling every route's schemas when an app is built cost about a second of CPU per start
 * (and per test process), for routes most starts never serve. A validator is compiled on its
 * first request instead, once per schema per process: two apps in one process (tests, the
 * hub's forms) share it. `compileAllSchemas()` compiles what is still pending, so a test can
 * prove every schema compiles under `strict` as building the app used to.
 */
const validators = new Map<string, Validate>();
const pending = new Set<() => void>();

const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const key = `${httpPart === 'body' ? 'body' : 'text'}:${JSON.stringify(schema)}`;
  const known = validators.get(key);
  if (known) return known as ReturnType<FastifySchemaCompiler<unknown>>;
  let real: Validate | undefined;
  const compile = (): Validate => {
    if (!real) {
      real = validators.get(key) ?? compileValidator(schema, httpPart);
      validators.set(key, real);
      pending.delete(compile);
    }
    return real;
  };
  pending.add(compile);
  const lazy = function (this: unknown, data: unknown, context?: unknown) {
    const validate = compile();
    const valid = validate.call(this, data, context as never) as boolean;
    lazy.errors = validate.errors;
    return valid;
  } as Validate;
  // Fastify hands a validator with a schemaEnv the request as parent, so Ajv can coerce a root
  // value; every compiled Ajv validator has one, so the stand-in says so before compiling.
  lazy.schemaEnv = true as unknown as Validate['schemaEnv'];
  return lazy as ReturnType<FastifySchemaCompiler<unknown>>;
};

/** Compiles every validator still waiting for its first request; throws what Ajv throws. */
export function compileAllValidators(): number {
  const waiting = [...pending];
  for (const compile of waiting) compile();
  return waiting.length;
}

/**
 * Ajv checks `uniqueItems` by hashing when the items declare a scalar `type`, and otherwise
 * compares every pair: 80,000 distinct strings in a union-of-literals array (webhook `events`)
 * held the event loop for over a minute. A union whose branches are all literals of one JSON
 * type has that type, so it is written on the items (a copy; the route's schema is unchanged).
 */
function withUniqueItemTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withUniqueItemTypes);
  if (!schema || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = withUniqueItemTypes(value);
  const items = copy.items as Record<string, unknown> | undefined;
  if (copy.uniqueItems === true && items && typeof items === 'object' && !('type' in items)) {
    const type = literalType(items);
    if (type) copy.items = { ...items, type };
  }
  return copy;
}

function literalType(schema: Record<string, unknown>): string | undefined {
  const branches = (schema.anyOf ?? schema.oneOf ?? [schema]) as Array<Record<string, unknown>>;
  const values = branches.flatMap((b) => ('const' in b ? [b.const] : Array.isArray(b.enum) ? b.enum : [undefined]));
  const types = new Set(values.map((v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v)));
  const [type] = types;
  return types.size === 1 && (type === 'string' || type === 'integer' || type === 'boolean') ? type : undefined;
}

type Validate = ValidateFunction & { schemaEnv?: unknown };

/**
 * Ajv coerces text with `+text`, then checks minimum and maximum only for finite numbers:
 * `limit=Infinity`, `1e400` or 400 nines passed an integer schema as Infinity, and `0x10` or
 * ` 5` passed as 16 and 5. A number in a query string or path is written in decimal digits
 * and is finite and exact (within 2^53), or the request is a 400 naming it. Only the parts given as text are checked
 * (query, params, headers: flat and small); JSON bodies are not coerced, and Ajv refuses a
 * non-finite number there by type.
 */
function numbersInDigits(validate: Validate): Validate {
  const checked = function (this: unknown, data: unknown, context?: unknown) {
    const texts =
      data && typeof data === 'object' && !Array.isArray(data)
        ? Object.entries(data).filter(([, v]) => typeof v === 'string')
        : [];
    const valid = validate.call(this, data, context as never) as boolean;
    const errors: ErrorObject[] = [...(validate.errors ?? [])];
    for (const [key, text] of texts) {
      const value = (data as Record<string, unknown>)[key];
      if (typeof value === 'number' && !(DECIMAL.test(text as string) && Math.abs(value) <= Number.MAX_SAFE_INTEGER)) {
        errors.push({
          instancePath: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
          schemaPath: '#/numberText',
          keyword: 'numberText',
          params: {},
          message: 'must be a number in decimal digits, such as 25',
        });
      }
    }
    checked.errors = errors.length > 0 ? errors : null;
    return valid && errors.length === 0;
  } as Validate;
  // Fastify passes the parent to a validator with a schemaEnv, so Ajv can coerce a root value.
  checked.schemaEnv = validate.schemaEnv;
  checked.schema = validate.schema;
  return checked;
}

const DECIMAL = /^-?\d{1,20}(\.\d{1,20})?$/;

const sharedIds = new Set<string>();

/**
 * Fastify's schema-controller hook: every encapsulated context (including those that add
 * shared schemas) gets our compiler, with the shared schemas known to both Ajv instances.
 */
export function buildValidator(externalSchemas: unknown): FastifySchemaCompiler<unknown> {
  for (const schema of Object.values((externalSchemas ?? {}) as Record<string, { $id?: string }>)) {
    // Ajv's getSchema would compile the shared schema just to answer; what was added is known.
    if (!schema.$id || sharedIds.has(schema.$id)) continue;
    sharedIds.add(schema.$id);
    for (const ajv of [bodyAjv, textAjv]) ajv.addSchema(schema);
  }
  return validatorCompiler;
}
