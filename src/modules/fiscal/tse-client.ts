import { Agent, request } from 'undici';
import { trustedContext } from '../../lib/tls-trust.ts';

/** The TSE could not be reached, did not answer in time, or refused (its message kept). */
export class TseUnavailable extends Error {
  override name = 'TseUnavailable';
  /** The TSE's HTTP status when it answered (a refusal), null when it did not. */
  readonly status: number | null;
  constructor(message: string, status: number | null = null) {
    super(message);
    this.status = status;
  }
}

export interface TseCredentials {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

/** A finished (or cancelled) transaction as fiskaly SIGN DE v2 answers it. */
export interface TseTxAnswer {
  number: number;
  state: string;
  time_start: number;
  time_end: number;
  client_serial_number: string;
  tss_serial_number: string;
  signature: { value: string; algorithm: string; counter: number; public_key: string };
  log: { timestamp_format: string; timestamp: number; operation: string };
  qr_code_data: string;
}

export interface TseTssAnswer {
  _id: string;
  state: string;
  serial_number: string;
  public_key: string;
  signature_algorithm: string;
  signature_timestamp_format: string;
  admin_puk?: string;
}

/**
 * fiskaly SIGN DE v2 over HTTPS (TLS verified against the system's roots plus `TSE_CA`, a test
 * double's CA). The access token from `POST /auth` is kept per account until shortly before it
 * expires, so a sale costs the two transaction revisions only; every call is bounded.
 */
export function createTseClient(opts: { extraCaPem: string | null; timeoutMs: number }) {
  const agent = new Agent({
    connect: { secureContext: trustedContext(opts.extraCaPem), minVersion: 'TLSv1.2', timeout: opts.timeoutMs },
    keepAliveTimeout: 300_000,
    keepAliveMaxTimeout: 600_000,
  });
  const tokens = new Map<string, { token: string; until: number }>();

  async function call<T>(
    creds: Pick<TseCredentials, 'baseUrl'>,
    method: 'GET' | 'PUT' | 'PATCH' | 'POST',
    path: string,
    body: unknown,
    token: string | null,
    raw = false,
  ): Promise<T> {
    const signal = AbortSignal.timeout(opts.timeoutMs);
    let status: number;
    let bytes: Buffer;
    try {
      const res = await request(`${creds.baseUrl.replace(/\/$/, '')}${path}`, {
        method,
        dispatcher: agent,
        signal,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      status = res.statusCode;
      bytes = Buffer.from(await res.body.arrayBuffer());
    } catch (error) {
      const reason = signal.aborted ? `no answer within ${opts.timeoutMs} ms` : (error as Error).message;
      throw new TseUnavailable(`TSE unreachable: ${reason}`);
    }
    if (status >= 300) {
      let message = `HTTP ${status}`;
      try {
        const problem = JSON.parse(bytes.toString('utf8')) as { message?: string; code?: string };
        message = `${message} ${problem.code ?? ''} ${problem.message ?? ''}`.trim();
      } catch {}
      throw new TseUnavailable(`TSE refused: ${message}`, status);
    }
    return (raw ? bytes : JSON.parse(bytes.toString('utf8'))) as T;
  }

  async function token(creds: TseCredentials): Promise<string> {
    const key = `${creds.baseUrl}\u0000${creds.apiKey}`;
    const known = tokens.get(key);
    if (known && known.until > Date.now()) return known.token;
    const answer = await call<{ access_token: string; access_token_expires_in: number }>(
      creds,
      'POST',
      '/api/v2/auth',
      { api_key: creds.apiKey, api_secret: creds.apiSecret },
      null,
    );
    if (tokens.size >= 1_000) tokens.clear();
    // Renewed a minute early, so a token never expires between two revisions of one sale.
    tokens.set(key, { token: answer.access_token, until: Date.now() + (answer.access_token_expires_in - 60) * 1000 });
    return answer.access_token;
  }

  /**
   * A call with the account's token. A 401 to a kept token means the TSE ended it early (revoked,
   * or its clock ahead of ours): the token is dropped and the call made once more after a fresh
   * `POST /auth`, so an expired token costs a round trip, not an unsigned sale. The retry is safe:
   * a refused call changed nothing at the TSE.
   */
  async function authed<T>(
    creds: TseCredentials,
    method: 'GET' | 'PUT' | 'PATCH' | 'POST',
    path: string,
    body?: unknown,
    raw = false,
  ): Promise<T> {
    try {
      return await call<T>(creds, method, path, body, await token(creds), raw);
    } catch (error) {
      if (!(error instanceof TseUnavailable) || error.status !== 401) throw error;
      tokens.delete(`${creds.baseUrl}\u0000${creds.apiKey}`);
      return call<T>(creds, method, path, body, await token(creds), raw);
    }
  }

  return {
    /** Checks the key and secret (the auth call), for the settings. */
    async check(creds: TseCredentials): Promise<void> {
      tokens.delete(`${creds.baseUrl}\u0000${creds.apiKey}`);
      await token(creds);
    },

    /**
     * Creates a TSS and initialises it (create, UNINITIALIZED, admin PIN from the PUK, admin
     * login, INITIALIZED), registers the device's client, logs the admin out.
     */
    async setUpDevice(
      creds: TseCredentials,
      ids: { tssId: string; clientId: string; clientSerial: string; adminPin: string },
    ): Promise<TseTssAnswer> {
      const tss = `/api/v2/tss/${ids.tssId}`;
      const created = await authed<TseTssAnswer>(creds, 'PUT', tss, { metadata: { by: 'portico' } });
      await authed(creds, 'PATCH', tss, { state: 'UNINITIALIZED' });
      await authed(creds, 'PATCH', `${tss}/admin`, { admin_puk: created.admin_puk, new_admin_pin: ids.adminPin });
      await authed(creds, 'POST', `${tss}/admin/auth`, { admin_pin: ids.adminPin });
      const initialised = await authed<TseTssAnswer>(creds, 'PATCH', tss, { state: 'INITIALIZED' });
      await authed(creds, 'PUT', `${tss}/client/${ids.clientId}`, { serial_number: ids.clientSerial });
      await authed(creds, 'POST', `${tss}/admin/logout`, {});
      return initialised;
    },

    /** Revision 1: the transaction starts (ACTIVE); the TSE fixes its start time and number. */
    startTx: (creds: TseCredentials, tssId: string, txId: string, clientId: string) =>
      authed<TseTxAnswer>(creds, 'PUT', `/api/v2/tss/${tssId}/tx/${txId}?tx_revision=1`, {
        state: 'ACTIVE',
        client_id: clientId,
      }),

    /** Revision 2: FINISHED with the receipt (standard_v1), or CANCELLED (an aborted basket). */
    finishTx: (
      creds: TseCredentials,
      tssId: string,
      txId: string,
      clientId: string,
      revision: number,
      body: { state: 'FINISHED' | 'CANCELLED'; schema?: unknown },
    ) =>
      authed<TseTxAnswer>(creds, 'PUT', `/api/v2/tss/${tssId}/tx/${txId}?tx_revision=${revision}`, {
        ...body,
        client_id: clientId,
      }),

    /** The TSE's own export (TAR, BSI TR-03153) of one TSS for a period: triggered, then fetched. */
    async exportTar(
      creds: TseCredentials,
      tssId: string,
      exportId: string,
      range: { startUnix: number; endUnix: number },
    ): Promise<Buffer> {
      const path = `/api/v2/tss/${tssId}/export/${exportId}`;
      await authed(creds, 'PUT', `${path}?start_date=${range.startUnix}&end_date=${range.endUnix}`, {});
      for (let i = 0; i < 50; i++) {
        const state = await authed<{ state: string }>(creds, 'GET', path);
        if (state.state === 'COMPLETED') return authed<Buffer>(creds, 'GET', `${path}/file`, undefined, true);
        if (state.state !== 'PENDING' && state.state !== 'WORKING')
          throw new TseUnavailable(`TSE export ${state.state}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new TseUnavailable('TSE export not ready');
    },

    close: () => agent.close(),
  };
}
export type TseClient = ReturnType<typeof createTseClient>;
