import { Agent, request } from 'undici';
import { SOAP_ACTIONS } from './racun-request.ts';
import { trustedContext } from '../../lib/tls-trust.ts';

/** CIS did not answer in time, or not at all (refused, reset, a proxy's error page). */
export class CisUnreachable extends Error {
  override name = 'CisUnreachable';
}

export interface CisClient {
  /** Posts a SOAP envelope; the body of any answer that came back (CIS reports errors with 500s). */
  post(envelope: string, action: keyof typeof SOAP_ACTIONS, timeoutMs: number): Promise<string>;
  close(): Promise<void>;
}

/**
 * HTTPS to CIS (specification 6.1: one-way TLS, port 8449), TLS 1.2 or newer, the server
 * checked against the system's roots plus `extraCaPem` (FISCAL_CIS_CA: a test CIS's CA);
 * verification is never turned off. The connection is kept open while idle for as long as CIS
 * says it keeps it (its Keep-Alive header), otherwise five minutes, so a shop's invoices minutes
 * apart reuse it; a new one resumes the TLS session (undici keeps the tickets) where CIS allows.
 */
export function createCisClient(opts: { url: string; extraCaPem: string | null }): CisClient {
  const agent = new Agent({
    connect: {
      secureContext: trustedContext(opts.extraCaPem),
      minVersion: 'TLSv1.2',
      timeout: 5_000,
    },
    keepAliveTimeout: 300_000,
    keepAliveMaxTimeout: 600_000,
  });
  return {
    async post(envelope, action, timeoutMs) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const res = await request(opts.url, {
          method: 'POST',
          dispatcher: agent,
          signal,
          headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${SOAP_ACTIONS[action]}"` },
          body: envelope,
        });
        const body = await res.body.text();
        if (res.statusCode >= 300 && !body.includes('Envelope'))
          throw new CisUnreachable(`CIS answered HTTP ${res.statusCode}`);
        return body;
      } catch (error) {
        if (error instanceof CisUnreachable) throw error;
        const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message;
        throw new CisUnreachable(`CIS unreachable: ${reason}`);
      }
    },
    close: () => agent.close(),
  };
}
