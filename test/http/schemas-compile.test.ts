// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import { bearer, createTenant, createTestApp } from '../support/test-app.ts';
import { buildValidator, compileAllValidators } from '../../src/http/validation.ts';
import { buildSerializer, compileAllSerializers } from '../../src/http/serialization.ts';

// Routes compile their schemas on first use (a start no longer pays for every route's), so a
// schema Ajv's strict mode or fast-json-stringify refuses would only fail on its first request.
// This compiles all of them, as building the app used to.
test("every route's request and response schemas compile, under Ajv's strict mode", async (t) => {
  const app = await createTestApp();
  t.after(() => app.close());
  const validators = compileAllValidators();
  const serializers = compileAllSerializers();
  assert.ok(validators > 100, `only ${validators} validators were waiting`);
  assert.ok(serializers > 100, `only ${serializers} serializers were waiting`);
  // Compiled once per process: a second app of the same code adds nothing to compile.
  const second = await createTestApp();
  t.after(() => second.close());
  assert.equal(compileAllValidators() + compileAllSerializers(), 0);

  // …and a route compiled ahead of its first request still refuses by field, and answers.
  const d = await createTenant(app.c);
  const bad = await app.app.inject({
    method: 'GET',
    url: '/api/v1/public/products?limit=abc',
    headers: bearer(d.locations[0]!.apiKey),
  });
  assert.equal(bad.statusCode, 400);
  assert.deepEqual(bad.json().details, { limit: ['Must be a whole number.'] });
  const good = await app.app.inject({
    method: 'GET',
    url: '/api/v1/public/products?limit=2',
    headers: bearer(d.locations[0]!.apiKey),
  });
  assert.equal(good.statusCode, 200);
  assert.equal(good.json().data.length, 2);
});

test('a schema the compilers refuse is found by compiling them all', () => {
  // A misspelt keyword: Ajv's strict mode refuses it, once it is compiled.
  buildValidator({})({
    schema: { type: 'object', properties: { a: { type: 'string', minLenght: 1 } } },
    httpPart: 'body',
    method: 'POST',
    url: '/x',
  });
  assert.throws(() => compileAllValidators(), /unknown keyword: "minLenght"/);
  const serialize = buildSerializer({})({ schema: Type.Object({ n: Type.Integer() }) });
  assert.equal(compileAllSerializers(), 1);
  assert.equal(serialize({ n: 3 }), '{"n":3}');
});
