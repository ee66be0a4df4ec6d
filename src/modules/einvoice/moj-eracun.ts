import { request, type Dispatcher } from 'undici';
import {
  ExchangeRefused,
  ExchangeUnreachable,
  type BusinessStatus,
  type DeliveryStatus,
  type DocumentStatus,
  type EInvoiceExchange,
  type ExchangeCredentials,
  type FiscalisationStatus,
  type InboxEntry,
  rejectionTypeOf,
} from './exchange.ts';

/** moj-eRačun's production address (its API v2 manual); the demo service is https://demo.moj-eracun.hr. */
export const MOJ_ERACUN_PRODUCTION = 'https://www.moj-eracun.hr';

const PATHS = {
  send: '/apis/v2/send',
  queryOutbox: '/apis/v2/queryDocumentProcessStatusOutbox',
  queryInbox: '/apis/v2/queryInbox',
  receive: '/apis/v2/receive',
  markPaid: '/api/fiscalization/markPaid',
  reject: '/api/fiscalization/reject',
  statusOutbox: '/api/fiscalization/statusOutbox',
  statusInbox: '/api/fiscalization/statusInbox',
} as const;

/**
 * The transport status (`StatusId`): 10 in processing, 20 processed/sent, 30 sent, 40 downloaded
 * by the receiver, 45 download withdrawn, 50 failed. Unknown codes read as still on the way.
 */
export function deliveryStatusOf(statusId: unknown): DeliveryStatus {
  const id = Number(statusId);
  if (id === 40) return 'delivered';
  if (id === 50) return 'failed';
  if (id === 10) return 'processing';
  return 'sent';
}

/**
 * The business process status (`DocumentProcessStatusId`): 0 accepted, 1 rejected, 2 paid in
 * full, 3 partly paid, 4 receipt confirmed, 99 received.
 */
export function businessStatusOf(id: unknown): BusinessStatus {
  switch (id === null || id === undefined ? null : Number(id)) {
    case 0:
      return 'accepted';
    case 1:
      return 'rejected';
    case 2:
      return 'paid';
    case 3:
      return 'partly_paid';
    case 4:
    case 99:
      return 'received';
    default:
      return null;
  }
}

const text = (value: unknown): string | null =>
  value === null || value === undefined || value === '' ? null : String(value);

/**
 * moj-eRačun's API v2: every call a JSON POST carrying the five identifying fields (Username,
 * Password, CompanyId, CompanyBu when registered, SoftwareId). Answers: JSON, except `receive`,
 * which answers the document's XML. A refusal of the credentials comes back as an object keyed
 * `Username`; a 5xx or no answer is a reason to try again, a 4xx is not.
 */
export function createMojERacunExchange(opts: {
  credentials: ExchangeCredentials;
  dispatcher: Dispatcher;
  timeoutMs?: number;
}): EInvoiceExchange {
  const { credentials } = opts;
  const base = credentials.baseUrl.replace(/\/$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;

  async function post(path: string, params: Record<string, unknown>): Promise<{ status: number; body: Buffer }> {
    const payload: Record<string, unknown> = {
      Username: credentials.username,
      Password: credentials.password,
      CompanyId: credentials.companyId,
      SoftwareId: credentials.softwareId,
    };
    if (credentials.businessUnit) payload.CompanyBu = credentials.businessUnit;
    for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) payload[key] = value;
    const signal = AbortSignal.timeout(timeoutMs);
    let res: Dispatcher.ResponseData;
    let body: Buffer;
    try {
      res = await request(`${base}${path}`, {
        method: 'POST',
        dispatcher: opts.dispatcher,
        signal,
        headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json, application/xml' },
        body: JSON.stringify(payload),
      });
      body = Buffer.from(await res.body.arrayBuffer());
    } catch (error) {
      const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
      throw new ExchangeUnreachable(`moj-eRačun unreachable: ${reason}`);
    }
    if (res.statusCode >= 500 || res.statusCode === 429 || res.statusCode === 408)
      throw new ExchangeUnreachable(`moj-eRačun answered HTTP ${res.statusCode}`);
    if (res.statusCode >= 400)
      throw new ExchangeRefused(`moj-eRačun refused (HTTP ${res.statusCode}): ${errorText(body)}`);
    return { status: res.statusCode, body };
  }

  async function json(path: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const { body } = await post(path, params);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new ExchangeUnreachable(`moj-eRačun answered something that is not JSON on ${path}`);
    }
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const o = parsed as Record<string, unknown>;
      if ('Username' in o && typeof o.Username === 'object')
        throw new ExchangeRefused(`moj-eRačun refused the credentials: ${errorText(body)}`);
      if ('error' in o && o.error) throw new ExchangeRefused(`moj-eRačun refused: ${errorText(body)}`);
    }
    return parsed;
  }

  const list = (value: unknown): Record<string, unknown>[] =>
    Array.isArray(value)
      ? (value as Record<string, unknown>[])
      : value && typeof value === 'object'
        ? [value as Record<string, unknown>]
        : [];

  return {
    provider: 'moj-eracun',
    async send(xml) {
      const answer = (await json(PATHS.send, { File: xml })) as Record<string, unknown>;
      const documentId = text(answer.ElectronicId);
      if (!documentId) throw new ExchangeUnreachable('moj-eRačun accepted the document but named no ElectronicId');
      return { documentId, status: deliveryStatusOf(answer.StatusId) };
    },
    async status(query) {
      const rows = list(
        await json(PATHS.queryOutbox, {
          ElectronicId: query.documentId ? Number(query.documentId) : undefined,
          DateFrom: query.since,
          ByUpdateDate: query.since ? true : undefined,
        }),
      );
      return rows.map(
        (r): DocumentStatus => ({
          documentId: String(r.ElectronicId),
          number: text(r.DocumentNr),
          status: deliveryStatusOf(r.StatusId),
          businessStatus: businessStatusOf(r.DocumentProcessStatusId),
          rejectReason: text(r.RejectReason),
          // The name moj-eRačun's own `reject` call gives the N / U / O value; that the outbox answers
          // it under this name is not verified against the manual (README "Fiskalizacija 2.0").
          rejectType: rejectionTypeOf(r.RejectionReasonType),
          updatedAt: text(r.Updated),
        }),
      );
    },
    async fiscalisation(direction, documentId) {
      const rows = list(
        await json(direction === 'outbox' ? PATHS.statusOutbox : PATHS.statusInbox, {
          ElectronicId: Number(documentId),
        }),
      );
      const messages = (rows[0]?.messages ?? []) as Array<Record<string, unknown>>;
      const last = messages.at(-1);
      if (!last) return { documentId, status: 'unknown', code: null, message: null } satisfies FiscalisationStatus;
      const ok = String(last.status) === '0';
      return {
        documentId,
        status: ok ? 'fiscalised' : 'failed',
        code: text(last.errorCode),
        message: text(last.errorCodeDescription),
      };
    },
    async inbox() {
      return list(await json(PATHS.queryInbox, { Filter: 'Undelivered' })).map(
        (r): InboxEntry => ({
          documentId: String(r.ElectronicId),
          number: text(r.DocumentNr),
          senderId: text(r.SenderBusinessNumber),
          senderName: text(r.SenderBusinessName),
          sentAt: text(r.Sent),
        }),
      );
    },
    async receive(documentId) {
      const { body } = await post(PATHS.receive, { ElectronicId: Number(documentId) });
      // The document itself, or a JSON refusal in its place.
      if (!/^\s*(\uFEFF)?</.test(body.subarray(0, 64).toString('utf8')))
        throw new ExchangeRefused(`moj-eRačun answered no XML for document ${documentId}: ${errorText(body)}`);
      return body;
    },
    markPaid(payment) {
      return json(PATHS.markPaid, {
        ElectronicId: Number(payment.documentId),
        PaymentDate: payment.paidOn,
        PaymentAmount: payment.amount,
        PaymentMethod: payment.method,
      });
    },
    reject(rejection) {
      return json(PATHS.reject, {
        ElectronicId: Number(rejection.documentId),
        RejectionDate: rejection.rejectedOn,
        RejectionReasonType: rejection.type,
        RejectionReasonDescription: rejection.reason,
      });
    },
    async check() {
      // The inbox query is the lightest call that needs the credentials.
      await json(PATHS.queryInbox, { Filter: 'Undelivered' });
    },
  };
}

function errorText(body: Buffer): string {
  return body.toString('utf8').slice(0, 300).replace(/\s+/g, ' ');
}
