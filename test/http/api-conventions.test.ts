// test-engines: sqlite
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Type, type TSchema } from 'typebox';
import { createTestApp } from '../support/test-app.ts';
import { DECIMAL_MARKER, Money, MoneyInput, Quantity, QuantityInput } from '../../src/http/schemas.ts';

/**
 * The API convention (docs/api-conventions.md), checked on the OpenAPI document the app serves:
 * a money field is a decimal string (answered with two places), a quantity is accepted as a
 * number or a decimal string and answered as a decimal string. A field is recognised by the
 * `x-portico-decimal` marker the shared schemas carry; a field that reads like an amount by its
 * name, or says "cents" in its description, and has no marker, is a break too (a new route that
 * wrote its own `Type.Integer()` for a total). Only this document is read: no request is made.
 */

type Schema = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, unknown>>;
  webhooks?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

const patternOf = (schema: unknown) => (schema as { pattern: string }).pattern;
const MONEY_ANSWER = patternOf(Money);
const MONEY_INPUTS = new Set([patternOf(MoneyInput()), patternOf(MoneyInput({ signed: true }))]);
const QUANTITY_ANSWER = patternOf(Quantity);
const QUANTITY_INPUT = patternOf(QuantityInput().anyOf[1]);

/** Names an amount goes by in this API; a scalar field so named must carry the marker. */
const MONEY_NAME =
  /^(amount|price|net|tax|gross|total|withTax|base|exempt|balance|paid|credited|received|voided|float|counted|expected|difference|due|payable|tendered|change|value|sales|refunds|cash[A-Z]\w*|\d+[-+]\d*)$|(Price|Total|Amount|Balance)$/;
const QUANTITY_NAME = /^(quantity|creditable)$|Quantity$/;

/**
 * Fields whose names read like amounts but are not, each with why. Keyed `METHOD path field-path`.
 * A `*` method matches every operation of the path.
 */
const NOT_AMOUNTS: Record<string, string> = {
  'POST /api/v1/admin/exports/month res.data.total': 'how many documents the month holds',
  'GET /api/v1/admin/exports/{id} res.data.total': 'how many documents the month holds',
  'DELETE /api/v1/admin/test-data res.data.sales': 'how many test sales were removed',
  'POST /api/v1/admin/quotations/{id}/conversion res.data.lines[].change': 'what changed since quoting (an enum)',
  'GET /api/v1/admin/quotations/{id}/conversion res.data.lines[].change': 'what changed since quoting (an enum)',
};

interface Finding {
  where: string;
  problem: string;
}

function checkDocument(doc: Doc): Finding[] {
  const findings: Finding[] = [];
  const components = doc.components?.schemas ?? {};
  const resolve = (s: Schema): Schema => {
    const ref = s.$ref;
    if (typeof ref !== 'string') return s;
    const name = decodeURIComponent(ref.replace('#/components/schemas/', ''));
    return components[name] ?? s;
  };

  function field(where: string, name: string, raw: Schema, direction: 'req' | 'res'): void {
    const schema = resolve(raw);
    // A nullable amount is the amount or null: judge the amount.
    const branches = (schema.anyOf as Schema[] | undefined)?.map(resolve);
    const notNull = branches?.filter((b) => b.type !== 'null');
    const own = branches && notNull?.length === 1 && branches.length === 2 ? notNull[0]! : schema;
    const marker = (own[DECIMAL_MARKER] ?? schema[DECIMAL_MARKER]) as string | undefined;
    const scalar = own.type !== 'object' && own.type !== 'array' && !own.properties && !own.items;
    if (marker === 'money') {
      const ok =
        own.type === 'string' &&
        (direction === 'res' ? own.pattern === MONEY_ANSWER : MONEY_INPUTS.has(own.pattern as string));
      if (!ok)
        findings.push({ where, problem: `money is not the shared ${direction === 'res' ? 'Money' : 'MoneyInput'}` });
      return;
    }
    if (marker === 'quantity') {
      const ok =
        direction === 'res'
          ? own.type === 'string' && own.pattern === QUANTITY_ANSWER
          : Array.isArray(own.anyOf) &&
            own.anyOf.length === 2 &&
            (own.anyOf as Schema[]).some((b) => b.type === 'number') &&
            (own.anyOf as Schema[]).some((b) => b.type === 'string' && b.pattern === QUANTITY_INPUT);
      if (!ok)
        findings.push({
          where,
          problem: `quantity is not the shared ${direction === 'res' ? 'Quantity' : 'QuantityInput'}`,
        });
      return;
    }
    if (where in NOT_AMOUNTS) return;
    const description = String(own.description ?? schema.description ?? '');
    if (scalar && /\bcents\b|minor unit/i.test(description))
      findings.push({ where, problem: 'an amount in cents: money is a decimal string' });
    else if (scalar && MONEY_NAME.test(name))
      findings.push({ where, problem: 'reads as money but is not marked money' });
    else if (scalar && QUANTITY_NAME.test(name))
      findings.push({ where, problem: 'reads as a quantity but is not marked quantity' });
  }

  function walk(raw: Schema | undefined, where: string, direction: 'req' | 'res', seen: Set<Schema>): void {
    if (!raw || typeof raw !== 'object') return;
    const schema = resolve(raw);
    if (seen.has(schema)) return;
    const inner = new Set(seen).add(schema);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      for (const branch of (schema[key] as Schema[] | undefined) ?? []) walk(branch, where, direction, inner);
    for (const [name, property] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
      field(`${where}.${name}`, name, property, direction);
      walk(property, `${where}.${name}`, direction, inner);
    }
    if (schema.items && typeof schema.items === 'object') walk(schema.items as Schema, `${where}[]`, direction, inner);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
      walk(schema.additionalProperties as Schema, `${where}{}`, direction, inner);
  }

  for (const [path, operations] of Object.entries(doc.paths))
    for (const [method, operation] of Object.entries(operations)) {
      const op = operation as {
        requestBody?: { content?: Record<string, { schema?: Schema }> };
        responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
      };
      const at = `${method.toUpperCase()} ${path}`;
      for (const media of Object.values(op.requestBody?.content ?? {}))
        walk(media.schema, `${at} req`, 'req', new Set());
      for (const response of Object.values(op.responses ?? {}))
        for (const media of Object.values(response.content ?? {})) walk(media.schema, `${at} res`, 'res', new Set());
    }
  // Webhooks: Portico is the sender, so their bodies are answers.
  for (const [event, operations] of Object.entries(doc.webhooks ?? {}))
    for (const operation of Object.values(operations)) {
      const op = operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } };
      for (const media of Object.values(op.requestBody?.content ?? {}))
        walk(media.schema, `WEBHOOK ${event}`, 'res', new Set());
    }
  // One finding per field, however many status codes or media types repeat it.
  return [...new Map(findings.map((f) => [`${f.where} ${f.problem}`, f])).values()];
}

describe('the API convention for money and quantities', () => {
  test('every money field and quantity in the OpenAPI document follows it', async (t) => {
    const app = await createTestApp();
    t.after(() => app.close());
    const doc = app.app.swagger() as unknown as Doc;
    const findings = checkDocument(doc);
    assert.deepEqual(
      findings.map((f) => `${f.where}: ${f.problem}`),
      [],
    );
    // The walk saw the fields it is about: the public quote's quantity, a report's totals.
    const text = JSON.stringify(doc);
    assert.ok((text.match(new RegExp(`"${DECIMAL_MARKER}":"money"`, 'g')) ?? []).length > 50);
    assert.ok((text.match(new RegExp(`"${DECIMAL_MARKER}":"quantity"`, 'g')) ?? []).length > 5);
    // The convention is written in the document itself, for whoever reads only that.
    assert.match((doc as { info?: { description?: string } }).info?.description ?? '', /decimal string/);
  });

  test('a deliberately wrong schema is found: cents, an unmarked total, a number-only quantity, a lookalike', () => {
    const body = (properties: Record<string, TSchema>) => ({
      content: { 'application/json': { schema: Type.Object(properties) } },
    });
    const doc: Doc = {
      paths: {
        '/wrong': {
          post: {
            requestBody: body({
              quantity: Type.Number({ exclusiveMinimum: 0 }),
              price: Type.String({ [DECIMAL_MARKER]: 'money', pattern: '^\\d+$' }),
              lines: Type.Array(Type.Object({ count: QuantityInput() })),
            }),
            responses: {
              200: body({
                grossCents: Type.Integer({ description: 'Cents (minor units).' }),
                total: Type.Integer(),
                unitPrice: Type.Number({ [DECIMAL_MARKER]: 'money' }),
                lines: Type.Array(Type.Object({ quantity: QuantityInput() })),
                fine: Type.Object({
                  net: Money,
                  quantity: Quantity,
                  refunds: Type.Array(Type.Object({ amount: Money })),
                }),
              }),
            },
          },
        },
      },
    };
    assert.deepEqual(
      checkDocument(doc).map((f) => `${f.where}: ${f.problem}`),
      [
        'POST /wrong req.quantity: reads as a quantity but is not marked quantity',
        'POST /wrong req.price: money is not the shared MoneyInput',
        'POST /wrong res.grossCents: an amount in cents: money is a decimal string',
        'POST /wrong res.total: reads as money but is not marked money',
        'POST /wrong res.unitPrice: money is not the shared Money',
        'POST /wrong res.lines[].quantity: quantity is not the shared Quantity',
      ],
    );
  });
});
