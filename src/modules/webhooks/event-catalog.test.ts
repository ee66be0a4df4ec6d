// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Value } from 'typebox/value';
import {
  EVENTS,
  EVENT_NAMES,
  PING,
  WEBHOOK_BODIES,
  isEventName,
  serializeBody,
  telegramLines,
} from './event-catalog.ts';

const company = { name: 'Boje & Lakovi <d.o.o.>', currency: 'EUR', locale: 'hr-HR' };

test('each entry: a dotted lower-case name, an example that fits its schema, a well-formed Telegram text', () => {
  for (const [name, definition] of [...Object.entries(EVENTS), ['ping', PING] as const]) {
    assert.match(name, /^[a-z_]+(\.[a-z_]+)?$/);
    assert.ok(
      definition.description.length > 0 && !definition.description.includes('\n'),
      `${name}: a one-line description`,
    );
    assert.ok(Value.Check(definition.data, definition.example), `${name}: the example fits the schema`);
    const text = telegramLines(name, definition.example, company)!.join('\n');
    assert.ok(text.includes('Boje &amp; Lakovi &lt;d.o.o.&gt;'), `${name}: names the company, escaped: ${text}`);
    for (const tag of text.match(/<[^>]*>/g) ?? []) assert.match(tag, /^<\/?(b|i|code)>$/, `${name}: ${tag}`);
  }
  assert.deepEqual(EVENT_NAMES, Object.keys(EVENTS));
  assert.ok(isEventName('quote.created') && !isEventName('ping') && !isEventName('toString'));
});

test('data that does not fit its event, or an event not catalogued, has no text of its own', () => {
  assert.equal(telegramLines('quote.created', { number: 'Q-1' }, company), null);
  assert.equal(telegramLines('invoice.paid', {}, company), null);
});

test("a body has exactly the spec's fields plus the event id, and every documented example fits its schema", () => {
  const body = serializeBody({
    id: 'evt_1',
    event: 'quote.created',
    companyId: 'cmp_1',
    locationId: 'loc_1',
    timestamp: '2026-01-01T00:00:00.000Z',
    livemode: false,
    data: EVENTS['quote.created'].example,
  });
  assert.deepEqual(Object.keys(JSON.parse(body)), [
    'id',
    'event',
    'companyId',
    'locationId',
    'timestamp',
    'livemode',
    'data',
  ]);
  assert.equal(JSON.parse(body).livemode, false);
  assert.deepEqual(
    WEBHOOK_BODIES.map((b) => b.name),
    [...EVENT_NAMES, 'ping'],
  );
  for (const b of WEBHOOK_BODIES) assert.ok(Value.Check(b.schema, b.example), b.name);
});
