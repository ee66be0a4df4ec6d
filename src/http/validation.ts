import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// ajv-formats is CommonJS; under ESM its function may arrive wrapped in `default`.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

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
  ajv.addVocabulary(['example']);
  return ajv;
}

// Bodies are JSON with real types: "2" is not a quantity. Query strings and params are text
// by nature and are coerced to the declared types.
const bodyAjv = makeAjv(false);
const textAjv = makeAjv(true);

const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  return ajv.compile(schema as object) as ReturnType<FastifySchemaCompiler<unknown>>;
};

/**
 * Fastify's schema-controller hook: every encapsulated context (including those that add
 * shared schemas) gets our compiler, with the shared schemas known to both Ajv instances.
 */
export function buildValidator(externalSchemas: unknown): FastifySchemaCompiler<unknown> {
  for (const schema of Object.values((externalSchemas ?? {}) as Record<string, { $id?: string }>)) {
    for (const ajv of [bodyAjv, textAjv]) {
      if (schema.$id && !ajv.getSchema(schema.$id)) ajv.addSchema(schema);
    }
  }
  return validatorCompiler;
}
