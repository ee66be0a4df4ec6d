import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Store } from '../../db/store.ts';
import { said } from '../i18n/index.ts';
import { EXCHANGE_PROVIDERS, ExchangeRefused, ExchangeUnreachable, type ExchangeProvider } from './exchange.ts';
import type { ExchangeConnector } from './exchange-connector.ts';
import type { ExchangeRepository } from './exchange.repository.ts';
import { MOJ_ERACUN_PRODUCTION } from './moj-eracun.ts';

/** Each provider's production address, the default when none is given. */
const PRODUCTION: Record<ExchangeProvider, string> = { 'moj-eracun': MOJ_ERACUN_PRODUCTION };

export interface ExchangeSettingsInput {
  provider: string;
  username: string;
  password?: string;
  companyId: string;
  softwareId: string;
  businessUnit?: string | null;
  baseUrl?: string | null;
}

/** What the settings show: never the password. */
export interface ExchangeSettingsView {
  configured: boolean;
  provider: ExchangeProvider | null;
  username: string | null;
  companyId: string | null;
  softwareId: string | null;
  businessUnit: string | null;
  baseUrl: string | null;
  inbox: { checkedAt: string | null; error: string | null };
  updatedAt: string | null;
}

const NONE: ExchangeSettingsView = {
  configured: false,
  provider: null,
  username: null,
  companyId: null,
  softwareId: null,
  businessUnit: null,
  baseUrl: null,
  inbox: { checkedAt: null, error: null },
  updatedAt: null,
};

const trimmed = (value: string | null | undefined): string => (value ?? '').trim();

/** A company's e-invoice exchange: its intermediary's credentials, stored sealed, and the test of the way there. */
export function createExchangeSettingsService(deps: {
  store: Store<{ exchange: Pick<ExchangeRepository, 'find' | 'save' | 'remove'> }>;
  connector: ExchangeConnector;
  clock: Clock;
}) {
  const { store, connector, clock } = deps;

  return {
    async get(companyId: string): Promise<ExchangeSettingsView> {
      const row = await store.repos.exchange.find(companyId);
      if (!row) return NONE;
      return {
        configured: true,
        provider: row.provider as ExchangeProvider,
        username: row.username,
        companyId: row.exchange_company_id,
        softwareId: row.software_id,
        businessUnit: row.business_unit,
        baseUrl: row.base_url,
        inbox: { checkedAt: row.inbox_checked_at, error: row.inbox_error },
        updatedAt: row.updated_at,
      };
    },

    /** Stores the settings, the password sealed; a missing password keeps the stored one. */
    async save(companyId: string, input: ExchangeSettingsInput): Promise<ExchangeSettingsView> {
      const errors = fieldErrors();
      const provider = input.provider as ExchangeProvider;
      if (!EXCHANGE_PROVIDERS.includes(provider))
        addFieldError(errors, 'provider', said('error.mustBeOneOf', { values: EXCHANGE_PROVIDERS.join(', ') }));
      const username = trimmed(input.username);
      if (username === '' || username.length > 200)
        addFieldError(errors, 'username', said('error.length', { max: 200 }));
      const exchangeCompanyId = trimmed(input.companyId).replace(/^HR/i, '');
      if (!/^\d{11}$/.test(exchangeCompanyId)) addFieldError(errors, 'companyId', said('error.exchange.companyId'));
      const softwareId = trimmed(input.softwareId);
      if (softwareId === '' || softwareId.length > 100)
        addFieldError(errors, 'softwareId', said('error.length', { max: 100 }));
      const businessUnit = trimmed(input.businessUnit) || null;
      if (businessUnit && businessUnit.length > 100)
        addFieldError(errors, 'businessUnit', said('error.length', { max: 100 }));
      let baseUrl = trimmed(input.baseUrl) || PRODUCTION[provider] || '';
      try {
        const url = new URL(baseUrl);
        if (url.protocol !== 'https:' || url.username || url.password) throw new Error('not https');
        baseUrl = url.origin + url.pathname.replace(/\/$/, '');
      } catch {
        addFieldError(errors, 'baseUrl', said('error.exchange.https'));
      }
      const password = input.password ?? '';
      if (password.length > 500) addFieldError(errors, 'password', said('error.atMostCharacters', { max: 500 }));
      const existing = await store.repos.exchange.find(companyId);
      if (password === '' && !existing) addFieldError(errors, 'password', said('error.exchange.passwordFirst'));
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);

      await store.repos.exchange.save({
        company_id: companyId,
        provider,
        username,
        sealed_password: password === '' ? existing!.sealed_password : connector.seal(password),
        exchange_company_id: exchangeCompanyId,
        software_id: softwareId,
        business_unit: businessUnit,
        base_url: baseUrl,
        inbox_checked_at: existing?.inbox_checked_at ?? null,
        inbox_error: existing?.inbox_error ?? null,
        updated_at: clock.now().toISOString(),
      });
      return this.get(companyId);
    },

    /** Forgets the settings (and the sealed password): nothing more is sent or polled. */
    async remove(companyId: string): Promise<void> {
      if (!(await store.repos.exchange.remove(companyId)))
        throw new AppError('not_found', said('error.exchange.notConfigured'));
    },

    /** One authenticated call to the intermediary: the address, TLS and the credentials in one answer. */
    async check(companyId: string): Promise<{ ok: boolean; baseUrl: string; millis: number; message: string }> {
      const row = await store.repos.exchange.find(companyId);
      if (!row) throw new AppError('conflict', said('error.exchange.notConfigured'));
      const started = performance.now();
      const took = () => Math.round(performance.now() - started);
      try {
        await connector.open(row).check();
        return {
          ok: true,
          baseUrl: row.base_url,
          millis: took(),
          message: 'The intermediary accepted the credentials.',
        };
      } catch (error) {
        if (!(error instanceof ExchangeUnreachable) && !(error instanceof ExchangeRefused)) throw error;
        return { ok: false, baseUrl: row.base_url, millis: took(), message: error.message };
      }
    },
  };
}
