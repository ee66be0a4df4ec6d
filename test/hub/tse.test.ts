// test-engines: sqlite
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { germanShop, tseRig } from '../support/tse-helpers.ts';
import type { FakeTse } from '../support/fake-tse.ts';

/** The hub's TSE page for a German company: the devices with the serials ELSTER asks for, set up with one button. */
describe('hub: the TSE (Germany)', () => {
  let t: TestApp;
  let tse: FakeTse;
  let dir: string;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hub-tse-'));
    const rig = await tseRig(dir);
    tse = rig.tse;
    t = await createTestApp(rig.env);
  });
  after(async () => {
    await t.close();
    await tse.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('the page lists each Kasse with its serial numbers; "TSE einrichten" sets up the second one', async () => {
    const d = await germanShop(t.c, t.app, tse, { passwords: true });
    const admin = d.users.find((u) => u.role === 'admin')!;
    const cookie = `portico_session=${(await t.c.accounts.signIn(admin.email, admin.password!)).token}`;
    const page = await t.app.inject({ method: 'GET', url: '/hub/developer/fiscal', headers: { cookie } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /TSE \(KassenSichV\)/);
    // Its Help link: the Germany guide's section (the anchor is checked against the guide in help.test.ts).
    assert.ok(page.body.includes('href="/hub/help/germany#germany-counter-sales-signed-by-a-cloud-tse-dsfinv-k"'));
    assert.ok(!page.body.includes(tse.apiSecret), 'the secret is never shown');
    const devices = (await t.c.tseSettings.get(d.companyId))!.devices;
    assert.equal(devices.length, 1);
    assert.ok(page.body.includes(devices[0]!.tssSerial), 'the TSE serial for ELSTER');
    assert.ok(page.body.includes(devices[0]!.clientSerial), 'the Kasse serial for ELSTER');
    assert.match(page.body, /ELSTER/);

    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
    const csrfCookie = ([page.headers['set-cookie'] ?? []].flat() as string[])
      .map((c) => c.split(';')[0]!.trim())
      .find((c) => c.startsWith('portico_csrf='));
    const second = d.locations[1]!.id;
    assert.match(page.body, new RegExp(`/hub/developer/fiscal/tse/${second}`));
    const setUp = await t.app.inject({
      method: 'POST',
      url: `/hub/developer/fiscal/tse/${second}`,
      headers: {
        cookie: [cookie, csrfCookie].filter(Boolean).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost:80',
      },
      payload: `_csrf=${encodeURIComponent(csrf!)}`,
    });
    assert.equal(setUp.statusCode, 303, setUp.body);
    const after = (await t.c.tseSettings.get(d.companyId))!.devices;
    assert.equal(after.length, 2);
    assert.ok(after.some((x) => x.locationId === second));

    // The DSFinV-K export from the same page.
    assert.match(page.body, /id="tse-export"/);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zagreb' }).format(new Date());
    const zip = await t.app.inject({
      method: 'GET',
      url: `/hub/developer/fiscal/dsfinvk?from=${today}&to=${today}&locationId=${d.locations[0]!.id}`,
      headers: { cookie },
    });
    assert.equal(zip.statusCode, 200, zip.body.slice(0, 300));
    assert.equal(zip.headers['content-type'], 'application/zip');
    assert.equal(zip.rawPayload.subarray(0, 2).toString('latin1'), 'PK');
  });
});
