// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { checkTargetUrl, createGuardedAgent, isForbiddenAddress } from './target-guard.ts';
import { startWebhookReceiver } from '../../../test/support/webhook-receiver.ts';

// Classification tests are PURE: no connection is ever made to these addresses.
test('isForbiddenAddress: forbidden ranges', () => {
  for (const ip of [
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '224.0.0.1',
    '240.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fd00::1',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:192.168.0.1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '64:ff9b::10.0.0.1',
    '2002:c0a8:0001::1', // 6to4 of 192.168.0.1
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:a9fe:a9fe::1', // 6to4 of 169.254.169.254
    '64:ff9b:1::a00:1', // local-use NAT64
    '[::1]',
    'not-an-ip',
    '',
  ]) {
    assert.equal(isForbiddenAddress(ip), true, ip);
  }
});

test('isForbiddenAddress: public addresses allowed', () => {
  for (const ip of [
    '93.184.216.34',
    '1.1.1.1',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:1.1.1.1',
    '2002:0101:0101::1',
  ]) {
    assert.equal(isForbiddenAddress(ip), false, ip);
  }
});

// Teredo (RFC 4380): 2001:0:<server v4>:<flags>:<port ^ ffff>:<client v4 ^ ffff:ffff>.
const teredo = (server: string, client: string) => {
  const hex = (ip: string, invert: boolean) => {
    const n = ip
      .split('.')
      .map(Number)
      .map((b) => (invert ? b ^ 0xff : b));
    return `${((n[0]! << 8) | n[1]!).toString(16)}:${((n[2]! << 8) | n[3]!).toString(16)}`;
  };
  return `2001:0:${hex(server, false)}:8000:63bf:${hex(client, true)}`;
};

test('isForbiddenAddress: IPv4-translated and Teredo addresses are judged by the IPv4 they embed', () => {
  for (const ip of [
    '::ffff:0:127.0.0.1', // IPv4-translated (RFC 2765), dotted
    '::ffff:0:7f00:1', // the same in hex
    '0:0:0:0:ffff:0:10.0.0.1',
    '::ffff:0:192.168.0.1',
    '::ffff:0:a9fe:a9fe', // 169.254.169.254
    '::ffff:0:0.0.0.0',
    teredo('65.54.227.120', '127.0.0.1'), // public server, loopback client
    teredo('65.54.227.120', '169.254.169.254'),
    teredo('65.54.227.120', '192.168.1.1'),
    teredo('10.0.0.1', '1.1.1.1'), // private server
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // client 127.0.0.1 written out
    '2001::', // Teredo with every embedded address 0.0.0.0 / 255.255.255.255
  ]) {
    assert.equal(isForbiddenAddress(ip), true, ip);
  }
  for (const ip of [
    '::ffff:0:1.1.1.1',
    '::ffff:0:5db8:d822',
    teredo('65.54.227.120', '1.1.1.1'),
    teredo('65.54.227.120', '93.184.216.34'),
  ]) {
    assert.equal(isForbiddenAddress(ip), false, ip);
  }
  assert.match(checkTargetUrl('https://[::ffff:0:127.0.0.1]/', false) ?? '', /private|loopback|reserved/);
  assert.match(
    checkTargetUrl(`https://[${teredo('65.54.227.120', '127.0.0.1')}]/`, false) ?? '',
    /private|loopback|reserved/,
  );
});

test('checkTargetUrl', () => {
  assert.equal(checkTargetUrl('https://hooks.example.com/x?y=1', false), null);
  assert.equal(checkTargetUrl('http://127.0.0.1:8080/hook', true), null);
  assert.equal(checkTargetUrl('https://93.184.216.34/hook', false), null);
  assert.match(checkTargetUrl('not a url', false)!, /not a valid URL/);
  assert.match(checkTargetUrl('ftp://example.com/', true)!, /http and https/);
  assert.match(checkTargetUrl('file:///etc/passwd', true)!, /http and https/);
  assert.match(checkTargetUrl('http://example.com/hook', false)!, /https is required/);
  assert.match(checkTargetUrl('https://user:pw@example.com/', false)!, /credentials/);
  assert.match(checkTargetUrl('https://user@example.com/', true)!, /credentials/);
  for (const u of [
    'https://10.0.0.1/',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/',
    'https://[fd00::1]:8443/',
    'https://[::ffff:192.168.0.1]/',
    'https://0x7f.1/', // WHATWG URL normalises to 127.0.0.1
    'https://2130706433/', // = 127.0.0.1
    'https://localhost/',
    'https://app.localhost./',
  ]) {
    assert.match(checkTargetUrl(u, false) ?? '', /private|loopback|reserved/, u);
    assert.equal(checkTargetUrl(u, true), null, u);
  }
});

test('guarded agent refuses loopback before connecting; allowPrivate connects', async (t) => {
  const receiver = await startWebhookReceiver();
  t.after(() => receiver.close());
  const port = new URL(receiver.url).port;

  const guarded = createGuardedAgent({ allowPrivate: false, timeoutMs: 2000 });
  t.after(() => guarded.close());
  // IP literal, and a name resolved through DNS (localhost → 127.0.0.1 via /etc/hosts)
  for (const url of [`${receiver.url}/hook`, `http://localhost:${port}/hook`]) {
    await assert.rejects(
      request(url, { method: 'POST', body: '{}', dispatcher: guarded }),
      (err: { code?: string }) => {
        assert.equal(err.code, 'FORBIDDEN_TARGET');
        return true;
      },
      url,
    );
  }
  assert.equal(receiver.requests.length, 0);

  const open = createGuardedAgent({ allowPrivate: true, timeoutMs: 2000 });
  t.after(() => open.close());
  const res = await request(`${receiver.url}/hook`, { method: 'POST', body: '{}', dispatcher: open });
  assert.equal(res.statusCode, 200);
  assert.equal(await res.body.text(), 'ok');
  assert.equal(receiver.requests.length, 1);
});
