import { Agent } from 'undici';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { EInvoiceExchange, ExchangeProvider } from './exchange.ts';
import type { ExchangeRow } from './exchange.repository.ts';
import { createMojERacunExchange } from './moj-eracun.ts';
import { trustedContext } from '../../lib/tls-trust.ts';

/**
 * Opens a company's stored exchange settings into an adapter: the password unsealed once per
 * stored value, every adapter on one HTTPS agent (TLS 1.2 or newer, the system's roots plus
 * EINVOICE_EXCHANGE_CA for a test double; verification is never turned off).
 */
export function createExchangeConnector(opts: { secretBox: SecretBox; extraCaPem: string | null; timeoutMs?: number }) {
  const agent = new Agent({
    connect: {
      secureContext: trustedContext(opts.extraCaPem),
      minVersion: 'TLSv1.2',
      timeout: 5_000,
    },
    keepAliveTimeout: 30_000,
  });
  const opened = new Map<string, EInvoiceExchange>();
  const adapters: Record<ExchangeProvider, typeof createMojERacunExchange> = { 'moj-eracun': createMojERacunExchange };

  return {
    seal: (password: string): string => opts.secretBox.seal(password),
    /** The adapter for these settings (a stored row, or settings about to be stored, for the check). */
    open(row: Omit<ExchangeRow, 'inbox_checked_at' | 'inbox_error' | 'updated_at'>): EInvoiceExchange {
      const key = JSON.stringify([
        row.provider,
        row.base_url,
        row.username,
        row.sealed_password,
        row.exchange_company_id,
        row.software_id,
        row.business_unit,
      ]);
      const known = opened.get(key);
      if (known) return known;
      const create = adapters[row.provider as ExchangeProvider];
      if (!create) throw new Error(`unknown e-invoice exchange provider ${row.provider}`);
      const exchange = create({
        credentials: {
          provider: row.provider as ExchangeProvider,
          baseUrl: row.base_url,
          username: row.username,
          password: opts.secretBox.open(row.sealed_password),
          companyId: row.exchange_company_id,
          softwareId: row.software_id,
          businessUnit: row.business_unit,
        },
        dispatcher: agent,
        ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
      });
      if (opened.size >= 1_000) opened.clear(); // a bound, not a policy
      opened.set(key, exchange);
      return exchange;
    },
    // The worker has stopped by now: nothing is in flight, and idle keep-alive sockets need not linger.
    close: () => agent.destroy(),
  };
}
export type ExchangeConnector = ReturnType<typeof createExchangeConnector>;
