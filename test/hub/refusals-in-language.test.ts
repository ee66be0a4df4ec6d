// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hubCatalogs, type HubMessageKey } from '../../src/http/hub/texts/index.ts';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { hubPostHeaders } from '../support/http-helpers.ts';

const hr = hubCatalogs.hr as Record<string, string>;
const en = hubCatalogs.en as Record<string, string>;

/** The page's text with the entities the hub's templates write turned back into characters. */
const textOf = (body: string) =>
  body
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** A catalog text cut at its placeholders: the pieces a rendering of it shows whatever the parameters. */
const pieces = (text: string) =>
  text
    .split(/\{\w+(?::\w+)?\}/)
    .map((p) => p.trim())
    .filter((p) => p.length >= 8);

/**
 * Refusals thrown by services and by the HTTP shell, met through the hub by a Croatian user: each
 * is shown in Croatian, and its English text (the API's `detail`) is nowhere on the page. A message
 * thrown as plain text, without its key, reaches the page in English and fails here.
 */
describe('hub: refusals thrown by services and the HTTP shell are shown in the reader’s language (hr)', () => {
  let t: TestApp;
  let headers: Record<string, string>;
  let product: { id: string; unitId: string };
  let locationId: string;
  before(async () => {
    t = await createTestApp();
    const demo = await createTenant(t.c, { passwords: true });
    const admin = demo.users.find((u) => u.role === 'admin')!;
    headers = await hubPostHeaders(t.app, t.c, admin.email, admin.password!);
    const first = demo.products[0]!;
    product = { id: first.id, unitId: first.units[0]!.id };
    locationId = demo.locations[0]!.id;
  });
  after(async () => {
    await t.close();
  });

  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const post = (url: string, payload: string, extra: Record<string, string> = form) =>
    t.app.inject({ method: 'POST', url, headers: { ...headers, ...extra }, payload });

  /** The page says each key in Croatian (its fixed pieces) and none of them in English. */
  function assertSaid(body: string, keys: HubMessageKey[]): void {
    const page = textOf(body);
    for (const key of keys) {
      for (const piece of pieces(hr[key]!)) assert.ok(page.includes(piece), `${key}: "${piece}" on the page`);
      for (const piece of pieces(en[key]!).filter((p) => !hr[key]!.includes(p)))
        assert.ok(!page.includes(piece), `${key}: English "${piece}" on the page`);
    }
  }

  test('priced lines: a quantity with four decimals and a discount with three (documents/priced-lines)', async () => {
    const res = await post(
      '/hub/counter',
      new URLSearchParams([
        ['productId', product.id],
        ['unitId', product.unitId],
        ['quantity', '1,2345'],
        ['discountPercent', '12,345'],
        ['lineNote', ''],
        ['paymentMethod', 'card'],
      ]).toString(),
    );
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    assertSaid(res.body, ['error.quantity.form', 'error.discount.form']);
  });

  test('the request schema: a discount over 100 %, as Ajv words it (http/errors validationDetails)', async () => {
    const res = await post(
      '/hub/counter',
      new URLSearchParams([
        ['productId', product.id],
        ['unitId', product.unitId],
        ['quantity', '1'],
        ['discountPercent', '150'],
        ['lineNote', ''],
        ['paymentMethod', 'card'],
      ]).toString(),
    );
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    assertSaid(res.body, ['error.maximum']);
  });

  test('a counter sale: cash received short of the total, in the reader’s money format (sales/counter-sale)', async () => {
    const res = await post(
      '/hub/counter',
      new URLSearchParams([
        ['productId', product.id],
        ['unitId', product.unitId],
        ['quantity', '3'],
        ['discountPercent', ''],
        ['lineNote', ''],
        ['paymentMethod', 'cash'],
        ['tendered', '0,01'],
      ]).toString(),
    );
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    assertSaid(res.body, ['error.counter.tenderedShort']);
    assert.match(textOf(res.body), /Manje je od ukupnog iznosa od \d+,\d\d\./);
  });

  test('the print template: an unknown placeholder (companies)', async () => {
    const res = await post(
      '/hub/developer/print',
      new URLSearchParams({
        header: 'Račun {iban}',
        footer: '',
        paymentInstructions: '',
        iban: '',
        bic: '',
        holder: '',
      }).toString(),
    );
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    assertSaid(res.body, ['error.mail.unknownPlaceholder']);
  });

  test('a publishable key: an origin that is not http(s), read back from the rule’s text (api-keys)', async () => {
    const res = await post(
      '/hub/developer/api-keys',
      new URLSearchParams({
        locationId,
        name: 'Web',
        kind: 'publishable',
        mode: 'live',
        allowedOrigins: 'ftp://shop.example.com',
      }).toString(),
    );
    assert.equal(res.statusCode, 400, res.body.slice(0, 500));
    assertSaid(res.body, ['error.origin.scheme']);
  });

  test('the HTTP shell: a body too large and a JSON body on a form (http/errors)', async () => {
    const large = await post('/hub/team', `name=${'a'.repeat(2 * 1024 * 1024)}`);
    assert.equal(large.statusCode, 413, large.body.slice(0, 500));
    assert.match(String(large.headers['content-type']), /^text\/html/);
    const json = await post('/hub/team', '{"name":"A"}', { 'content-type': 'application/json' });
    assert.equal(json.statusCode, 415, json.body.slice(0, 500));
    assertSaid(json.body, ['error.request.mediaType']);
    const said = textOf(large.body);
    assert.ok(
      said.includes(hr['error.request.bodyTooLarge']!) || said.includes(hr['error.request.bodyTooLargeHere']!),
      said.slice(0, 500),
    );
  });
});
