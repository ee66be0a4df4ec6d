import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  PROCESS_TYPE,
  processData,
  qrCodeData,
  transactionLogToBeSigned,
  tseSerialOf,
  type TseReceiptType,
} from '../../src/modules/fiscal/tse-format.ts';
import type { Issued } from './fiscal-certs.ts';

/**
 * A stand-in for fiskaly SIGN DE v2: a real HTTPS server on 127.0.0.1 (its certificate from the
 * test CA) speaking the API Portico uses: auth, TSS create/initialise, client, transactions by
 * revision (ACTIVE, FINISHED with `standard_v1`, CANCELLED), export. Each TSS signs with an ECDSA
 * key of its own (brainpoolP384r1, `ecdsa-plain-SHA384`), over the TR-03151 log message, so a
 * receipt's QR code verifies against the public key; transaction numbers and signature counters
 * only grow (every start and every finish is a signature, as on a real TSE). `down` stops
 * listening; `slow` answers late.
 */
/**
 * `failFinish`: revision 1 answers, revision 2 is refused (503): a transaction left open at the TSE.
 * `refuse`: every transaction call answers `status` (a TSE failing before it started anything).
 */
export type TseMode =
  | { kind: 'ok' }
  | { kind: 'slow'; ms: number }
  | { kind: 'failFinish' }
  | { kind: 'refuse'; status: number };

export interface FakeTx {
  tssId: string;
  txId: string;
  clientId: string;
  number: number;
  revision: number;
  state: string;
  receiptType: string | null;
  processData: string;
  signatureCounter: number;
  timeStart: number;
  timeEnd: number;
  qr: string | null;
}

interface Tss {
  id: string;
  state: string;
  adminPuk: string;
  adminPin: string | null;
  privateKey: KeyObject;
  publicKey: string;
  serial: string;
  txNumber: number;
  signatureCounter: number;
  clients: Map<string, string>;
  /** Clients switched off at the TSE (fiskaly's DEREGISTERED): their transactions are refused. */
  disabled: Set<string>;
  txs: Map<string, FakeTx>;
}

export interface FakeTse {
  url: string;
  mode: TseMode;
  apiKey: string;
  apiSecret: string;
  /** Every transaction by its id, in the order started. */
  txs: FakeTx[];
  tss: Map<string, Tss>;
  /** Calls received, by method and path (without the query). */
  calls: string[];
  /** Ends every access token issued so far (as a TSE does when they expire): the next call gets a 401. */
  expireTokens(): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

const RECEIPT_TYPES: Record<string, TseReceiptType> = {
  RECEIPT: 'RECEIPT',
  CANCELLATION: 'CANCELLATION',
  ABORT: 'ABORT',
};
const CLASS_BP: Record<string, number> = {
  NORMAL: 1900,
  REDUCED_1: 700,
  SPECIAL_RATE_1: 1070,
  SPECIAL_RATE_2: 550,
  NULL: 0,
};

function ecPoint(key: KeyObject): string {
  // The SubjectPublicKeyInfo ends with the uncompressed point (04 || x || y, 97 bytes on a 384-bit curve).
  const der = key.export({ format: 'der', type: 'spki' });
  return der.subarray(der.length - 97).toString('base64');
}
const cents = (amount: string) => Math.round(Number(amount) * 100);

export async function startFakeTse(opts: { server: Issued; port?: number }): Promise<FakeTse> {
  const tssById = new Map<string, Tss>();
  const tokens = new Set<string>();
  const sockets = new Set<Duplex>();
  const state: FakeTse = {
    url: '',
    mode: { kind: 'ok' },
    apiKey: `key_${randomUUID().slice(0, 8)}`,
    apiSecret: `secret_${randomUUID()}`,
    txs: [],
    tss: tssById,
    calls: [],
    expireTokens: () => tokens.clear(),
    down: async () => {},
    up: async () => {},
    close: async () => {},
  };

  function reply(res: import('node:http').ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  function txAnswer(tss: Tss, tx: FakeTx) {
    return {
      _id: tx.txId,
      number: tx.number,
      state: tx.state,
      revision: tx.revision,
      latest_revision: tx.revision,
      client_id: tx.clientId,
      client_serial_number: tss.clients.get(tx.clientId),
      tss_id: tss.id,
      tss_serial_number: tss.serial,
      time_start: tx.timeStart,
      time_end: tx.timeEnd || undefined,
      signature: {
        value: '',
        algorithm: 'ecdsa-plain-SHA384',
        counter: tx.signatureCounter,
        public_key: tss.publicKey,
      },
      log: { operation: 'FinishTransaction', timestamp: tx.timeEnd, timestamp_format: 'unixTime' },
      qr_code_data: tx.qr ?? undefined,
    };
  }

  async function handle(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const path = url.pathname;
    state.calls.push(`${req.method} ${path}`);
    if (state.mode.kind === 'slow') await new Promise((r) => setTimeout(r, (state.mode as { ms: number }).ms));

    if (req.method === 'POST' && path === '/api/v2/auth') {
      if (body.api_key !== state.apiKey || body.api_secret !== state.apiSecret)
        return reply(res, 401, { code: 'E_UNAUTHORIZED', message: 'invalid api key or secret' });
      const token = randomUUID();
      tokens.add(token);
      return reply(res, 200, { access_token: token, access_token_expires_in: 86_400, refresh_token: randomUUID() });
    }
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!tokens.has(token)) return reply(res, 401, { code: 'E_UNAUTHORIZED', message: 'no token' });

    const m = /^\/api\/v2\/tss\/([^/]+)(?:\/(admin|client|tx|export)(?:\/([^/]+))?(?:\/(auth|logout|file))?)?$/.exec(
      path,
    );
    if (!m) return reply(res, 404, { code: 'E_NOT_FOUND', message: path });
    const [, tssId, area, id, sub] = m as unknown as [string, string, string?, string?, string?];
    let tss = tssById.get(tssId);
    if (!area) {
      if (req.method === 'PUT') {
        const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'brainpoolP384r1' });
        const point = ecPoint(publicKey);
        tss = {
          id: tssId,
          state: 'CREATED',
          adminPuk: randomUUID().slice(0, 10),
          adminPin: null,
          privateKey,
          publicKey: point,
          serial: tseSerialOf(point),
          txNumber: 0,
          signatureCounter: 0,
          clients: new Map(),
          disabled: new Set(),
          txs: new Map(),
        };
        tssById.set(tssId, tss);
        return reply(res, 200, { ...tssView(tss), admin_puk: tss.adminPuk });
      }
      if (!tss) return reply(res, 404, { code: 'E_TSS_NOT_FOUND', message: tssId });
      if (req.method === 'PATCH') {
        if (body.state === 'INITIALIZED' && tss.state !== 'UNINITIALIZED')
          return reply(res, 409, { code: 'E_TSS_STATE', message: tss.state });
        tss.state = body.state;
        return reply(res, 200, tssView(tss));
      }
      return reply(res, 200, tssView(tss));
    }
    if (!tss) return reply(res, 404, { code: 'E_TSS_NOT_FOUND', message: tssId });
    if (area === 'admin') {
      if (id === 'auth') {
        if (body.admin_pin !== tss.adminPin) return reply(res, 401, { code: 'E_PIN', message: 'wrong pin' });
        return reply(res, 200, {});
      }
      if (id === 'logout') return reply(res, 200, {});
      if (body.admin_puk !== tss.adminPuk) return reply(res, 401, { code: 'E_PUK', message: 'wrong puk' });
      tss.adminPin = body.new_admin_pin;
      return reply(res, 200, {});
    }
    if (area === 'client') {
      if (tss.state !== 'INITIALIZED') return reply(res, 409, { code: 'E_TSS_STATE', message: tss.state });
      tss.clients.set(id!, body.serial_number);
      return reply(res, 200, { _id: id, serial_number: body.serial_number, state: 'REGISTERED' });
    }
    if (area === 'export') {
      if (sub === 'file') {
        res.writeHead(200, { 'content-type': 'application/x-tar' });
        return res.end(tarOf(tss));
      }
      return reply(res, 200, { _id: id, state: 'COMPLETED' });
    }
    // area === 'tx'
    const revision = Number(url.searchParams.get('tx_revision'));
    if (state.mode.kind === 'refuse')
      return reply(res, state.mode.status, { code: 'E_INTERNAL', message: 'the TSE failed' });
    if (tss.state !== 'INITIALIZED') return reply(res, 409, { code: 'E_TSS_STATE', message: tss.state });
    if (!tss.clients.has(body.client_id)) return reply(res, 400, { code: 'E_CLIENT', message: 'unknown client' });
    if (tss.disabled.has(body.client_id))
      return reply(res, 400, { code: 'E_CLIENT_NOT_REGISTERED', message: 'client is DEREGISTERED' });
    const now = Math.floor(Date.now() / 1000);
    let tx = tss.txs.get(id!);
    if (revision === 1) {
      if (tx) return reply(res, 409, { code: 'E_TX_EXISTS', message: id });
      tss.signatureCounter += 1;
      tx = {
        tssId,
        txId: id!,
        clientId: body.client_id,
        number: ++tss.txNumber,
        revision: 1,
        state: 'ACTIVE',
        receiptType: null,
        processData: '',
        signatureCounter: tss.signatureCounter,
        timeStart: now,
        timeEnd: 0,
        qr: null,
      };
      tss.txs.set(id!, tx);
      state.txs.push(tx);
      return reply(res, 200, txAnswer(tss, tx));
    }
    if (!tx) return reply(res, 404, { code: 'E_TX_NOT_FOUND', message: id });
    if (state.mode.kind === 'failFinish') return reply(res, 503, { code: 'E_UNAVAILABLE', message: 'try again' });
    if (tx.state !== 'ACTIVE' || revision !== tx.revision + 1)
      return reply(res, 409, { code: 'E_TX_REVISION', message: `${tx.state} revision ${tx.revision}` });
    const receipt = body.schema?.standard_v1?.receipt;
    const type = RECEIPT_TYPES[receipt?.receipt_type ?? (body.state === 'CANCELLED' ? 'ABORT' : 'RECEIPT')];
    if (!type) return reply(res, 400, { code: 'E_SCHEMA', message: 'receipt_type' });
    const pay = (kind: string) =>
      (receipt?.amounts_per_payment_type ?? [])
        .filter((p: { payment_type: string }) => p.payment_type === kind)
        .reduce((s: number, p: { amount: string }) => s + cents(p.amount), 0);
    const amounts = {
      grossByRateBp: (receipt?.amounts_per_vat_rate ?? []).map((v: { vat_rate: string; amount: string }) => ({
        rateBp: CLASS_BP[v.vat_rate]!,
        grossMinor: cents(v.amount),
      })),
      cashMinor: pay('CASH'),
      nonCashMinor: pay('NON_CASH'),
    };
    tss.signatureCounter += 1;
    tx.revision = revision;
    tx.state = body.state;
    tx.receiptType = type;
    tx.processData = processData(type, amounts);
    tx.signatureCounter = tss.signatureCounter;
    tx.timeEnd = now;
    const fields = {
      clientSerial: tss.clients.get(tx.clientId)!,
      processType: PROCESS_TYPE,
      processData: tx.processData,
      transactionNumber: tx.number,
      signatureCounter: tx.signatureCounter,
      start: new Date(tx.timeStart * 1000).toISOString(),
      end: new Date(tx.timeEnd * 1000).toISOString(),
      algorithm: 'ecdsa-plain-SHA384',
      timeFormat: 'unixTime',
      signature: '',
      publicKey: tss.publicKey,
    };
    fields.signature = sign('sha384', transactionLogToBeSigned(fields, tss.serial), {
      key: tss.privateKey,
      dsaEncoding: 'ieee-p1363',
    }).toString('base64');
    tx.qr = qrCodeData(fields);
    const answer = txAnswer(tss, tx);
    answer.signature.value = fields.signature;
    return reply(res, 200, answer);
  }

  const server = https.createServer({ key: opts.server.keyPem, cert: opts.server.certPem }, (req, res) => {
    handle(req, res).catch((error: Error) => reply(res, 500, { code: 'E_FAKE', message: error.message }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(opts.port ?? 0);
  state.url = `https://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  state.down = stop;
  state.up = async () => {
    await listen(port);
  };
  state.close = async () => {
    if (server.listening) await stop();
  };
  return state;
}

function tssView(tss: Tss) {
  return {
    _id: tss.id,
    state: tss.state,
    serial_number: tss.serial,
    public_key: tss.publicKey,
    signature_algorithm: 'ecdsa-plain-SHA384',
    signature_timestamp_format: 'unixTime',
  };
}

/** The TSE's export as a TAR (ustar): one log file per finished transaction, as TR-03153 names them. */
function tarOf(tss: Tss): Buffer {
  const parts: Buffer[] = [];
  for (const tx of tss.txs.values()) {
    if (!tx.qr) continue;
    const name = `Unixt_${tx.timeEnd}_Sig-${tx.signatureCounter}_Log-Tra_No-${tx.number}_Finish_Client-${tx.clientId.slice(0, 8)}.log`;
    const content = Buffer.from(tx.qr, 'utf8');
    const header = Buffer.alloc(512);
    header.write(name.slice(0, 99), 0, 'ascii');
    header.write('0000644\0', 100, 'ascii');
    header.write('0000000\0', 108, 'ascii');
    header.write('0000000\0', 116, 'ascii');
    header.write(`${content.length.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    header.write(`${tx.timeEnd.toString(8).padStart(11, '0')}\0`, 136, 'ascii');
    header.write('        ', 148, 'ascii');
    header.write('0', 156, 'ascii');
    header.write('ustar\0', 257, 'ascii');
    header.write('00', 263, 'ascii');
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    parts.push(header, content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
