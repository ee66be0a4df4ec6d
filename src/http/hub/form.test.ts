// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../lib/errors.ts';
import { CategoryBody, TaxRateBody } from '../requests/catalog.ts';
import { CustomerInput } from '../requests/customers.ts';
import { field, postForm, submit } from './form.ts';
import { hubTranslator } from './texts/index.ts';

const hub = { t: hubTranslator('hr') };
const post = (body: Record<string, unknown>) => ({ body, hub });

test('submit: the schema refuses before the work runs, in the language of the user for the common two', async () => {
  let ran = false;
  const work = async () => {
    ran = true;
  };
  const empty = await submit(CategoryBody, post({ name: '   ', _csrf: 'x' }), work, {
    read: (f) => ({ name: f.name ?? '' }),
  });
  assert.equal(ran, false);
  assert.ok(!empty.ok);
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.state.errors.name, ['Obavezno polje.']);
  assert.deepEqual({ ...empty.state.values }, { name: '' }, 'what was typed comes back, trimmed, without the token');
  const long = await submit(CategoryBody, post({ name: 'x'.repeat(201) }), work);
  assert.ok(!long.ok);
  assert.deepEqual(long.state.errors.name, ['Najviše 200 znakova.']);
  // Any other refusal is the admin API's own words for the same body.
  const rate = await submit(TaxRateBody, post({ name: 'PDV', rate: 'dvadeset' }), work);
  assert.ok(!rate.ok);
  assert.deepEqual(rate.state.errors.rate, ['Use a percentage such as "25" or "9.5".']);
  assert.equal(ran, false);
});

test("submit: the typed body reaches the work; a service's refusal becomes the form's state or is thrown on", async () => {
  const ok = await submit(CategoryBody, post({ name: ' Boje ' }), async (input) => input.name);
  assert.deepEqual(ok, { ok: true, result: 'Boje' });
  const named = await submit(CategoryBody, post({ name: 'Boje' }), async () => {
    throw AppError.invalid({ parentId: ['Unknown category.'] });
  });
  assert.ok(!named.ok);
  assert.deepEqual([named.status, named.state.errors], [400, { parentId: ['Unknown category.'] }]);
  const conflict = await submit(CategoryBody, post({ name: 'Boje' }), async () => {
    throw new AppError('conflict', 'The category still has products.');
  });
  assert.ok(!conflict.ok);
  assert.deepEqual([conflict.status, conflict.state.message], [409, 'The category still has products.']);
  await assert.rejects(
    submit(
      CategoryBody,
      post({ name: 'Boje' }),
      async () => {
        throw new AppError('conflict', 'no field');
      },
      { refusals: [] },
    ),
    /no field/,
  );
  await assert.rejects(
    submit(CategoryBody, post({ name: 'Boje' }), async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
});

test('field: the limits come from the schema, the typed value and its message after a refusal', () => {
  const fresh = field({ id: 'c', schema: CustomerInput, values: { name: 'Ana' } }, 'name', { label: 'Ime' }).value;
  assert.match(fresh, /<label for="c-name">Ime<\/label>/);
  assert.match(fresh, /id="c-name" name="name" type="text" value="Ana" required maxlength="200">/);
  const city = field({ id: 'c', schema: CustomerInput }, 'city', { path: 'address.city', label: 'Grad' }).value;
  assert.match(city, /maxlength="100"/);
  assert.doesNotMatch(city, /required/, 'an optional address has no required field');
  const refused = field(
    {
      id: 'c',
      schema: CustomerInput,
      values: { name: 'Ana' },
      state: { values: { name: '' }, errors: { name: ['Obavezno polje.'] } },
    },
    'name',
    { label: 'Ime' },
  ).value;
  assert.match(refused, /value="" required maxlength="200" aria-invalid="true" aria-describedby="c-name-error">/);
  assert.match(refused, /<p class="field-error" id="c-name-error">Obavezno polje.<\/p>/);
});

test('postForm: every posted form carries the CSRF token', () => {
  assert.equal(
    postForm({ csrf: 't<k>' }, '/hub/x', null).value,
    '<form method="post" action="/hub/x"><input type="hidden" name="_csrf" value="t&lt;k&gt;">',
  );
});
