// test-engines: both
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, createTenant, bearer, type TestApp } from '../../support/test-app.ts';
import { ISO_MS_UTC, assertProblem, listAllInquiries, reachOut, validReachOut } from '../../support/http-helpers.ts';

const REQUIRED = ['topic', 'subject', 'message', 'email', 'phone'];

describe('POST /api/v1/public/reach-out', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  test("201 with exactly { data: { id, topic, subject, productPhotoUrl, createdAt } }, stored at the key's company and location", async () => {
    const demo = await createTenant(t.c);
    const second = demo.locations[1]!;
    const body = validReachOut({
      name: 'Ana Kovač',
      productPhotoUrl: 'https://shop.example.com/images/boja-5l.jpg',
      subject: 'Šišmiš — 5 L?',
    });
    const before = Date.now();
    const res = await reachOut(t.app, second.apiKey, body);
    assert.equal(res.statusCode, 201, res.body);
    assert.match(String(res.headers['content-type']), /^application\/json/);
    const json = res.json();
    assert.deepEqual(Object.keys(json), ['data']);
    assert.deepEqual(Object.keys(json.data).sort(), ['createdAt', 'id', 'productPhotoUrl', 'subject', 'topic']);
    assert.match(json.data.id, /^inq_[0-9A-Za-z]+$/);
    assert.equal(json.data.topic, body.topic);
    assert.equal(json.data.subject, 'Šišmiš — 5 L?');
    assert.equal(json.data.productPhotoUrl, body.productPhotoUrl);
    assert.match(json.data.createdAt, ISO_MS_UTC);
    const created = Date.parse(json.data.createdAt);
    assert.ok(created >= before - 1000 && created <= Date.now() + 1000, 'createdAt is the time of the request');

    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/inquiries/${json.data.id}`,
      headers: bearer(demo.adminToken),
    });
    assert.equal(stored.statusCode, 200, stored.body);
    assert.deepEqual(stored.json().data, {
      id: json.data.id,
      locationId: second.id,
      topic: body.topic,
      subject: body.subject,
      message: body.message,
      email: body.email,
      phone: body.phone,
      name: 'Ana Kovač',
      productPhotoUrl: body.productPhotoUrl,
      createdAt: json.data.createdAt,
    });
    const row = await t.c.database.db
      .selectFrom('inquiries')
      .select(['company_id', 'location_id'])
      .where('id', '=', json.data.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual({ ...row }, { company_id: demo.companyId, location_id: second.id });
  });

  test('name and productPhotoUrl are optional; productPhotoUrl is null when absent', async () => {
    const demo = await createTenant(t.c);
    const res = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut());
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().data.productPhotoUrl, null);
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/inquiries/${res.json().data.id}`,
      headers: bearer(demo.adminToken),
    });
    assert.equal(stored.json().data.name, null);
    assert.equal(stored.json().data.locationId, demo.locations[0]!.id);
  });

  test('400 names every bad field at once, and a rejected request writes nothing', async () => {
    const demo = await createTenant(t.c);
    const key = demo.locations[0]!.apiKey;
    const countBefore = (await listAllInquiries(t.app, demo.adminToken)).length;

    const cases: Array<{ name: string; body: unknown; fields: string[] }> = [
      { name: 'all required missing', body: {}, fields: REQUIRED },
      ...REQUIRED.map((field) => {
        const body = validReachOut();
        delete body[field];
        return { name: `${field} missing`, body, fields: [field] };
      }),
      {
        name: 'wrong types',
        body: { topic: 1, subject: true, message: ['x'], email: { a: 1 }, phone: 385123, name: 5, productPhotoUrl: 7 },
        fields: [...REQUIRED, 'name', 'productPhotoUrl'],
      },
      {
        name: 'empty strings',
        body: { topic: '', subject: '', message: '', email: '', phone: '', name: '', productPhotoUrl: '' },
        fields: [...REQUIRED, 'name', 'productPhotoUrl'],
      },
      {
        name: 'white space only',
        body: { topic: '   ', subject: '\t\n', message: '  \n ', email: '   ', phone: '    ', name: '  ' },
        fields: [...REQUIRED, 'name'],
      },
      { name: 'bad e-mail', body: validReachOut({ email: 'ana.kovac(at)example' }), fields: ['email'] },
      { name: 'e-mail without domain', body: validReachOut({ email: 'ana@' }), fields: ['email'] },
      {
        name: 'http photo URL',
        body: validReachOut({ productPhotoUrl: 'http://shop.example.com/a.jpg' }),
        fields: ['productPhotoUrl'],
      },
      {
        name: 'ftp photo URL',
        body: validReachOut({ productPhotoUrl: 'ftp://shop.example.com/a.jpg' }),
        fields: ['productPhotoUrl'],
      },
      { name: 'photo not a URL', body: validReachOut({ productPhotoUrl: 'not a url' }), fields: ['productPhotoUrl'] },
      {
        name: 'over length bounds',
        body: validReachOut({ topic: 'x'.repeat(201), message: 'y'.repeat(5001) }),
        fields: ['topic', 'message'],
      },
      { name: 'unknown field', body: validReachOut({ colour: 'red' }), fields: ['colour'] },
      {
        name: 'several rules at once',
        body: {
          topic: '',
          subject: 'ok',
          message: 'ok',
          email: 'nope',
          productPhotoUrl: 'http://x.example/a.jpg',
          extra: 1,
        },
        fields: ['topic', 'email', 'phone', 'productPhotoUrl', 'extra'],
      },
    ];
    for (const c of cases) {
      const res = await reachOut(t.app, key, c.body);
      const problem = assertProblem(res, 400, 'validation_failed');
      assert.equal(typeof problem.details, 'object', c.name);
      assert.deepEqual(
        Object.keys(problem.details).sort(),
        [...c.fields].sort(),
        `${c.name}: ${JSON.stringify(problem.details)}`,
      );
      for (const [field, messages] of Object.entries(problem.details as Record<string, unknown>)) {
        assert.ok(
          Array.isArray(messages) &&
            messages.length > 0 &&
            messages.every((m) => typeof m === 'string' && m.length > 0),
          `${c.name}: ${field}`,
        );
      }
    }

    const countAfter = (await listAllInquiries(t.app, demo.adminToken)).length;
    assert.equal(countAfter, countBefore, 'no inquiry was written by a 400');
    const notifications = await t.c.database.db
      .selectFrom('notifications')
      .select('id')
      .where('company_id', '=', demo.companyId)
      .execute();
    assert.equal(notifications.length, 0, 'no notification was written by a 400');
  });

  test('boundary lengths are accepted: topic of 200 and message of 5000 characters', async () => {
    const demo = await createTenant(t.c);
    const res = await reachOut(
      t.app,
      demo.locations[0]!.apiKey,
      validReachOut({ topic: 't'.repeat(200), message: 'm'.repeat(5000) }),
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().data.topic.length, 200);
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 1);
  });

  test('a photo URL without a host is refused', async () => {
    const demo = await createTenant(t.c);
    for (const url of ['https://', 'https:///images/a.jpg']) {
      const res = await reachOut(t.app, demo.locations[0]!.apiKey, validReachOut({ productPhotoUrl: url }));
      assert.deepEqual(Object.keys(assertProblem(res, 400, 'validation_failed').details), ['productPhotoUrl'], url);
    }
    assert.equal((await listAllInquiries(t.app, demo.adminToken)).length, 0);
  });

  test('messages say what is wrong', async () => {
    const demo = await createTenant(t.c);
    const res = await reachOut(t.app, demo.locations[0]!.apiKey, {
      topic: '  ',
      subject: 'x'.repeat(201),
      email: 'bad',
      phone: '1234',
      message: 'ok',
      productPhotoUrl: 'http://a.example/x.jpg',
      nope: 1,
    });
    const { details } = assertProblem(res, 400, 'validation_failed');
    assert.deepEqual(details.topic, ['Must contain more than white space.']);
    assert.deepEqual(details.subject, ['Must be at most 200 characters.']);
    assert.deepEqual(details.email, ['Must be an e-mail address.']);
    assert.deepEqual(details.productPhotoUrl, ['Must be an https:// URL with a host.']);
    assert.deepEqual(details.nope, ['Is not a known field.']);
  });
});
