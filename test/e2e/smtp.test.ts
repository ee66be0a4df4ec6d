// test-engines: both
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, createTenant, type TestApp } from '../support/test-app.ts';
import { reachOut, userOfRole, validReachOut, waitFor } from '../support/http-helpers.ts';

interface Mail {
  to: string[];
  from: string;
  subject: string;
  raw: string;
  text: string;
}

/** The body as text; nodemailer sends non-ASCII text quoted-printable. */
function bodyText(raw: string): string {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(head)) return body;
  const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => `%${hex}`);
  return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/g, '%25'));
}

/** A real SMTP server on loopback that keeps what it receives; `hold` delays every DATA answer. */
async function startSmtp(opts: { port?: number; hold?: Promise<void> } = {}) {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/im.exec(raw)?.[1]?.replace(/\r\n[ \t]/g, ' ') ?? '';
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          subject,
          raw,
          text: bodyText(raw),
        });
        void (opts.hold ?? Promise.resolve()).then(() => callback());
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('e-mail to admin and support users over real SMTP', () => {
  test('a reach-out answers 201 at once; then the admin and the support user each get one digest e-mail, the staff user none', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const smtp = await startSmtp({ hold });
    let t: TestApp | undefined;
    try {
      t = await createTestApp(
        {
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          SMTP_FROM: 'Portico <no-reply@portico.test>',
          INQUIRY_DIGEST_SECONDS: '1',
        },
        { startWorkers: true },
      );
      const demo = await createTenant(t.c);
      const subject = `Colour chart request ${Date.now()}`;
      // A header injection attempt rides along: it must not add a recipient.
      const injected = `${subject}\r\nBcc: attacker@evil.example`;

      // The SMTP server does not answer DATA until released: a 201 now proves the request never waits for mail.
      const res = await reachOut(
        t.app,
        demo.locations[0]!.apiKey,
        validReachOut({ subject: injected, name: 'Ana Kovač' }),
      );
      assert.equal(res.statusCode, 201, res.body);
      const inquiryId = res.json().data.id;
      release();

      const admin = userOfRole(demo, 'admin').email;
      const support = userOfRole(demo, 'support').email;
      const staff = userOfRole(demo, 'staff').email;
      const about = () => smtp.mails.filter((m) => m.subject.includes(subject));
      await waitFor('two e-mails', () => (about().length >= 2 ? true : undefined));
      await waitFor('rows marked sent', async () => {
        const rows = await t!.c.store.repos.notifications.listEmails(demo.companyId);
        return rows.length === 2 && rows.every((r) => r.status === 'sent') ? rows : undefined;
      });

      const mails = about();
      assert.equal(mails.length, 2, 'exactly two e-mails');
      assert.deepEqual(mails.flatMap((m) => m.to).sort(), [admin, support].sort());
      assert.ok(!smtp.mails.some((m) => m.to.includes(staff)), 'the staff user gets no e-mail');
      assert.ok(!smtp.mails.some((m) => m.to.some((to) => to.includes('evil'))), 'no injected recipient');
      assert.ok(
        mails.every((m) => !/^Bcc:/im.test(m.raw.split('\r\n\r\n')[0]!)),
        'no injected header',
      );
      for (const mail of mails) {
        assert.equal(mail.from, 'no-reply@portico.test');
        // A digest in plain text and HTML (quoted-printable: soft line breaks joined).
        const body = mail.raw.replace(/=\r\n/g, '');
        assert.match(body, /Content-Type: text\/html/);
        assert.ok(body.includes(`/hub/inquiries/${inquiryId}`), 'the link to the inquiry in the hub');
        assert.match(body, /Ana Kova=C4=8D <ana\.kovac@example\.com>/);
        assert.match(body, /whether the walnut stain comes in 5 L cans/);
      }
      const rows = await t.c.store.repos.notifications.listEmails(demo.companyId);
      assert.ok(rows.every((r) => r.attempts === 1 && r.sent_at !== null && r.last_error === null));
    } finally {
      release();
      await t?.close();
      await smtp.close();
    }
  });

  test('while the mail server is down the e-mail stays pending with the error, and is sent once it is back', async () => {
    const probe = await startSmtp();
    const port = probe.port;
    await probe.close(); // nothing listens there now: connections are refused
    let t: TestApp | undefined;
    let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      t = await createTestApp(
        { SMTP_URL: `smtp://127.0.0.1:${port}`, INQUIRY_DIGEST_SECONDS: '1' },
        { startWorkers: true },
      );
      const demo = await createTenant(t.c);
      const subject = `While down ${Date.now()}`;
      const res = await reachOut(t.app, demo.locations[1]!.apiKey, validReachOut({ subject }));
      assert.equal(res.statusCode, 201, res.body);

      const failed = await waitFor('both attempts to fail', async () => {
        const rows = await t!.c.store.repos.notifications.listEmails(demo.companyId);
        return rows.length === 2 && rows.every((r) => r.attempts >= 1) ? rows : undefined;
      });
      for (const row of failed) {
        assert.equal(row.status, 'pending', 'kept for a retry, not dropped');
        assert.ok(row.last_error && row.last_error.length > 0, 'the error is recorded');
        assert.equal(row.sent_at, null);
        assert.ok(row.next_attempt_at > new Date().toISOString(), 'the retry is scheduled later, not in a tight loop');
      }

      smtp = await startSmtp({ port });
      // The retry delay is long; bring the retry forward instead of waiting for it.
      await t.c.database.db
        .updateTable('email_messages')
        .set({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .where('company_id', '=', demo.companyId)
        .execute();
      t.c.emailSender!.wake();

      const sent = await waitFor('the retry to succeed', async () => {
        const rows = await t!.c.store.repos.notifications.listEmails(demo.companyId);
        return rows.every((r) => r.status === 'sent') ? rows : undefined;
      });
      assert.ok(sent.every((r) => r.attempts >= 2 && r.last_error === null && r.sent_at !== null));
      const mails = smtp.mails.filter((m) => m.subject.includes(subject));
      assert.deepEqual(
        mails.flatMap((m) => m.to).sort(),
        [userOfRole(demo, 'admin').email, userOfRole(demo, 'support').email].sort(),
      );
    } finally {
      await t?.close();
      await smtp?.close();
    }
  });
});
