import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { EINVOICE_FIXTURES as EINVOICE_DIR, failuresOf, validateEInvoice } from './einvoice-validation.ts';
import { serverCertificate, testCa, type Issued } from './fiscal-certs.ts';

/**
 * A stand-in for moj-eRačun: a real HTTPS server on 127.0.0.1 with a CA of its own, speaking its
 * API v2 as the integrators' manual describes it (JSON POSTs carrying Username, Password,
 * CompanyId, CompanyBu, SoftwareId). It checks the credentials on every call, validates every
 * sent document against the UBL 2.1 schema (xmllint) and, when asked, the EN 16931 rules; keeps
 * an inbox the test fills; and can be slow, down, or refuse.
 */
export type EracunMode =
  | { kind: 'ok' }
  | { kind: 'slow'; ms: number }
  | { kind: 'refuse'; status: number; message: string };

export interface EracunDocument {
  electronicId: number;
  xml: Buffer;
  number: string;
  senderOib: string;
  senderName: string;
  /** 20 sent, 40 downloaded by the receiver. */
  statusId: number;
  sent: string;
}

export interface EracunCall {
  path: string;
  /** The body without the password. */
  body: Record<string, unknown>;
}

export interface FakeEracun {
  url: string;
  ca: Issued;
  /** A PEM file of the fake's CA, for EINVOICE_EXCHANGE_CA. */
  caFile: string;
  credentials: { username: string; password: string; companyId: string; softwareId: string };
  mode: EracunMode;
  calls: EracunCall[];
  /** Documents sent through /apis/v2/send, in order. */
  sent: EracunDocument[];
  /** Documents addressed to the company, fed by the test. */
  inbox: EracunDocument[];
  rejections: Array<{ electronicId: number; date: string; type: string; reason: string }>;
  payments: Array<{ electronicId: number; date: string; amount: string; method: string }>;
  /** Puts a document in the company's inbox; answers its ElectronicId. */
  deliver(xml: string | Buffer, from?: { oib?: string; name?: string; number?: string }): number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const run = promisify(execFile);
const UBL_XSD = path.join(EINVOICE_DIR, 'ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd');
const UBL_CN_XSD = path.join(EINVOICE_DIR, 'ubl-2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd');

/** xmllint's verdict on a UBL document against the official schema: null, or its first complaints. */
async function schemaErrors(xml: string, dir: string): Promise<string | null> {
  const file = path.join(dir, `${randomUUID()}.xml`);
  fs.writeFileSync(file, xml);
  try {
    const xsd = /<(\w+:)?CreditNote[\s>]/.test(xml.slice(0, 2000)) ? UBL_CN_XSD : UBL_XSD;
    await run('xmllint', ['--noout', '--schema', xsd, file]);
    return null;
  } catch (error) {
    return String((error as { stderr?: string }).stderr ?? error)
      .trim()
      .split('\n')
      .slice(0, 3)
      .join(' | ');
  } finally {
    fs.rmSync(file, { force: true });
  }
}

export async function startFakeEracun(opts: {
  dir: string;
  credentials?: Partial<FakeEracun['credentials']>;
  /** Also run the EN 16931 Schematron on each sent document (a few seconds each). */
  rules?: boolean;
  /** `false`: take documents without the XML Schema check (a bench's fake answering at once). */
  schema?: boolean;
  port?: number;
}): Promise<FakeEracun> {
  const ca = testCa();
  const server: Issued = serverCertificate(ca);
  const caFile = path.join(opts.dir, `eracun-ca-${randomUUID().slice(0, 8)}.pem`);
  fs.writeFileSync(caFile, ca.certPem);
  let nextId = 3_100_000;
  const fake: FakeEracun = {
    url: '',
    ca,
    caFile,
    credentials: {
      username: '12513',
      password: 'lozinka-123',
      companyId: '12345678903',
      softwareId: 'Portico-001',
      ...opts.credentials,
    },
    mode: { kind: 'ok' },
    calls: [],
    sent: [],
    inbox: [],
    rejections: [],
    payments: [],
    deliver(xml, from = {}) {
      const bytes = Buffer.isBuffer(xml) ? xml : Buffer.from(xml, 'utf8');
      const electronicId = ++nextId;
      fake.inbox.push({
        electronicId,
        xml: bytes,
        number: from.number ?? `R-${electronicId}`,
        senderOib: from.oib ?? '11111111119',
        senderName: from.name ?? 'Dobavljač d.o.o.',
        statusId: 30,
        sent: new Date().toISOString(),
      });
      return electronicId;
    },
    down: async () => {},
    up: async () => {},
    close: async () => {},
  };

  const json = (status: number, body: unknown) => ({
    status,
    type: 'application/json; charset=utf-8',
    body: JSON.stringify(body),
  });
  const fiscalAnswer = (id: number) => [
    {
      ElectronicId: id,
      channelType: 0,
      messages: [
        { status: '0', errorCode: null, errorCodeDescription: 'Nema greške', fiscalizationRequestId: randomUUID() },
      ],
    },
  ];
  const statusRow = (d: EracunDocument) => ({
    ElectronicId: d.electronicId,
    DocumentNr: d.number,
    DocumentTypeId: 1,
    DocumentTypeName: 'Račun',
    StatusId: d.statusId,
    StatusName: d.statusId === 40 ? 'Preuzet' : 'Poslan',
    DocumentProcessStatusId: fake.rejections.some((r) => r.electronicId === d.electronicId) ? 1 : null,
    RejectReason: fake.rejections.find((r) => r.electronicId === d.electronicId)?.reason ?? null,
    RejectionReasonType: fake.rejections.find((r) => r.electronicId === d.electronicId)?.type ?? null,
    Created: d.sent,
    Updated: d.sent,
    Sent: d.sent,
    Delivered: d.statusId === 40 ? d.sent : null,
  });

  async function handle(
    urlPath: string,
    raw: string,
  ): Promise<{ status: number; type: string; body: string | Buffer }> {
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return json(400, { error: { code: 400, message: 'The request body is not JSON.' } });
    }
    const { Password: _password, ...logged } = body;
    fake.calls.push({ path: urlPath, body: logged });
    if (fake.mode.kind === 'slow') {
      const ms = fake.mode.ms;
      await new Promise((r) => setTimeout(r, ms).unref());
    }
    if (fake.mode.kind === 'refuse')
      return json(fake.mode.status, { error: { code: fake.mode.status, message: fake.mode.message } });
    const c = fake.credentials;
    if (
      String(body.Username) !== c.username ||
      body.Password !== c.password ||
      body.CompanyId !== c.companyId ||
      body.SoftwareId !== c.softwareId
    )
      return json(401, {
        Username: { Value: String(body.Username ?? ''), Messages: ['Korisničko ime i lozinka nisu ispravni.'] },
      });
    const id = Number(body.ElectronicId);
    const inboxDoc = fake.inbox.find((d) => d.electronicId === id);
    switch (urlPath) {
      case '/apis/v2/send': {
        const xml = typeof body.File === 'string' ? body.File : '';
        const invalid = opts.schema === false ? null : await schemaErrors(xml, opts.dir);
        if (invalid) return json(400, { Errors: [`XSD: ${invalid}`] });
        if (opts.rules) {
          const report = await validateEInvoice('sent', xml);
          if (!report.ok) return json(400, { Errors: failuresOf(report).split('\n') });
        }
        const doc: EracunDocument = {
          electronicId: ++nextId,
          xml: Buffer.from(xml, 'utf8'),
          number: /<cbc:ID>([^<]+)<\/cbc:ID>/.exec(xml)?.[1] ?? '',
          senderOib: c.companyId,
          senderName: '',
          statusId: 20,
          sent: new Date().toISOString(),
        };
        fake.sent.push(doc);
        const {
          Delivered: _d,
          Updated: _u,
          DocumentProcessStatusId: _p,
          RejectReason: _r,
          RejectionReasonType: _t,
          ...answer
        } = statusRow(doc);
        return json(200, { ...answer, RecipientBusinessNumber: null, RecipientBusinessName: null });
      }
      case '/apis/v2/queryDocumentProcessStatusOutbox':
        return json(200, fake.sent.filter((d) => !id || d.electronicId === id).map(statusRow));
      case '/apis/v2/queryInbox':
        return json(
          200,
          fake.inbox
            .filter((d) => body.Filter !== 'Undelivered' || d.statusId !== 40)
            .map((d) => ({ ...statusRow(d), SenderBusinessNumber: d.senderOib, SenderBusinessName: d.senderName })),
        );
      case '/apis/v2/receive': {
        const doc = inboxDoc ?? fake.sent.find((d) => d.electronicId === id);
        if (!doc) return json(404, { error: { code: 404, message: `No document ${id}.` } });
        if (inboxDoc) inboxDoc.statusId = 40;
        return { status: 200, type: 'application/xml', body: doc.xml };
      }
      case '/api/fiscalization/reject':
        if (!inboxDoc) return json(404, { error: { code: 404, message: `No received document ${id}.` } });
        if (!['N', 'U', 'O'].includes(String(body.RejectionReasonType)) || !body.RejectionReasonDescription)
          return json(400, {
            error: { code: 400, message: 'RejectionReasonType must be N, U or O, with a description.' },
          });
        fake.rejections.push({
          electronicId: id,
          date: String(body.RejectionDate),
          type: String(body.RejectionReasonType),
          reason: String(body.RejectionReasonDescription),
        });
        return json(200, { ElectronicId: id, fiscalizationRequestId: randomUUID(), status: '0' });
      case '/api/fiscalization/markPaid':
        if (!fake.sent.some((d) => d.electronicId === id))
          return json(404, { error: { code: 404, message: `No sent document ${id}.` } });
        fake.payments.push({
          electronicId: id,
          date: String(body.PaymentDate),
          amount: String(body.PaymentAmount),
          method: String(body.PaymentMethod),
        });
        return json(200, { ElectronicId: id, fiscalizationRequestId: randomUUID(), status: '0' });
      case '/api/fiscalization/statusOutbox':
        return json(200, fake.sent.some((d) => d.electronicId === id) ? fiscalAnswer(id) : []);
      case '/api/fiscalization/statusInbox':
        return json(200, inboxDoc ? fiscalAnswer(id) : []);
      default:
        return json(404, { error: { code: 404, message: `Unknown path ${urlPath}.` } });
    }
  }

  const httpsServer = https.createServer({ key: server.keyPem, cert: server.certPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      handle(new URL(req.url ?? '/', 'https://127.0.0.1').pathname, Buffer.concat(chunks).toString('utf8')).then(
        (answer) => {
          if (res.destroyed) return;
          res.writeHead(answer.status, { 'content-type': answer.type });
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(500);
          res.end(String(error));
        },
      );
    });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      httpsServer.once('error', reject);
      httpsServer.listen(port, '127.0.0.1', () => {
        httpsServer.off('error', reject);
        resolve((httpsServer.address() as AddressInfo).port);
      });
    });
  const port = await listen(opts.port ?? 0);
  let listening = true;
  const stop = async () => {
    if (!listening) return;
    listening = false;
    httpsServer.closeAllConnections();
    await new Promise((r) => httpsServer.close(r));
  };
  fake.url = `https://127.0.0.1:${port}`;
  fake.down = stop;
  fake.up = async () => {
    if (listening) return;
    await listen(port);
    listening = true;
  };
  fake.close = stop;
  return fake;
}

/** The admin API body that points a company at this fake. */
export function exchangeSettings(fake: FakeEracun, over: Record<string, unknown> = {}) {
  return {
    provider: 'moj-eracun',
    username: fake.credentials.username,
    password: fake.credentials.password,
    companyId: fake.credentials.companyId,
    softwareId: fake.credentials.softwareId,
    baseUrl: fake.url,
    ...over,
  };
}
