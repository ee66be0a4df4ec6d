// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpErrorCatalogs } from './request-messages.ts';
import { needsRole, PERMISSIONS } from './access.ts';
import { toAppError, validationDetails } from './errors.ts';
import { buildValidator } from './validation.ts';

const en = httpErrorCatalogs.en as Record<string, string>;

test('every role a permission leaves out is refused by key: the hub says the roles in its language', () => {
  const sets = new Set(Object.values(PERMISSIONS).map((roles) => [...roles].sort().join(',')));
  for (const set of sets) {
    if (set === 'admin,staff,support') continue; // nobody is refused
    const roles = Object.values(PERMISSIONS).find((r) => [...r].sort().join(',') === set)!;
    const message = needsRole(roles);
    assert.equal(typeof message, 'object', `${roles.join(' or ')} has a key`);
    const said = message as { text: string; key: string };
    assert.equal(said.text, `This needs the ${roles.join(' or ')} role.`);
    assert.equal(en[said.key], said.text);
  }
});

test("the framework's refusals (body, JSON, media type, URL, size, rate) carry their key beside the English detail", () => {
  const thrown = [
    { code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' },
    { code: 'FST_ERR_CTP_BODY_TOO_LARGE' },
    { code: 'FST_ERR_CTP_EMPTY_JSON_BODY' },
    { code: 'FST_ERR_CTP_INVALID_JSON_BODY' },
    { code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' },
    { code: 'FST_ERR_BAD_URL' },
    { statusCode: 413 },
    { statusCode: 415 },
    { statusCode: 429 },
    { statusCode: 418 },
    { code: 'ERR_SQLITE_ERROR', errcode: 787 },
    new Error('a bug'),
  ];
  for (const error of thrown) {
    const appError = toAppError(error);
    assert.ok(appError.messageKey, `${JSON.stringify(error)}: "${appError.message}" has a key`);
    assert.equal(en[appError.messageKey.key], appError.message);
  }
});

test("the schema's refusals, as validationDetails words them, are each said by key", () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['name', 'count', 'tags', 'at', 'flag'],
    properties: {
      name: {
        type: 'string',
        minLength: 1,
        pattern: '\\S',
        'x-pattern-message': 'Must contain more than white space.',
      },
      count: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      tags: { type: 'array', minItems: 1, maxItems: 2 },
      at: { type: 'string', format: 'date-time' },
      flag: { type: 'boolean' },
      kind: { anyOf: [{ const: 'a' }, { const: 'b' }] },
    },
  };
  const validate = buildValidator({})({ schema, httpPart: 'body', method: 'POST', url: '/' }) as ((
    data: unknown,
  ) => boolean) & { errors?: Parameters<typeof validationDetails>[0] };
  const bodies = [
    { name: ' ', count: 0, ratio: 0, tags: [], at: 'yesterday', flag: 'yes', kind: 'c', extra: 1 },
    { name: 5, count: 11, ratio: 1, tags: [1, 2, 3], at: 1, flag: true },
    { count: 1.5, tags: 'x', at: '2026-01-01T00:00:00Z', flag: null },
  ];
  let seen = 0;
  for (const body of bodies) {
    assert.equal(validate(body), false);
    const error = toAppError(
      Object.assign(new Error('invalid'), { validation: validate.errors!, validationContext: 'body' }),
    );
    for (const [path, list] of Object.entries(error.details!))
      list.forEach((text, i) => {
        seen++;
        const key = error.detailKeys?.[path]?.[i];
        assert.ok(key, `${path}: "${text}" has a key`);
        assert.equal(key.key in en, true);
      });
  }
  assert.ok(seen >= 15, `${seen} messages`);
});
