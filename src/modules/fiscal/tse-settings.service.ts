import { randomInt, randomUUID } from 'node:crypto';
import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory, CompanyFiscalSwitch } from '../companies/index.ts';
import { said } from '../i18n/index.ts';
import { TseUnavailable, type TseClient } from './tse-client.ts';
import type { TseRepository } from './tse.repository.ts';

/** fiskaly SIGN DE's production address; its sandbox is `https://kassensichv-middleware.fiskaly.com`. */
export const FISKALY_BASE_URL = 'https://kassensichv.fiskaly.com';

export interface TseDeviceView {
  locationId: string;
  tssId: string;
  clientId: string;
  /** The TSE's serial number (the SHA-256 of its public key): for the ELSTER notification. */
  tssSerial: string;
  /** The record system's serial number (the Kasse), as the TSE knows it. */
  clientSerial: string;
  algorithm: string;
  timeFormat: string;
  publicKey: string;
  createdAt: string;
}

export interface TseSettingsView {
  provider: 'fiskaly';
  /** The key's last four characters; the secret is never shown. */
  apiKeyHint: string;
  baseUrl: string;
  devices: TseDeviceView[];
  /** Counter transactions the TSE was not reached for ("TSE ausgefallen"), oldest first. */
  failed: Array<{ id: string; documentId: string | null; at: string; error: string | null }>;
}

/** A German company's TSE: its cloud account and one TSS and client per device (location). */
export function createTseSettingsService(deps: {
  store: Store<{
    tse: TseRepository;
    companies: Pick<CompanyDirectory, 'findCompany' | 'findLocation'> & CompanyFiscalSwitch;
  }>;
  client: TseClient;
  secretBox: SecretBox;
  clock: Clock;
}) {
  const { store, clock } = deps;

  async function credentials(companyId: string) {
    const account = await store.repos.tse.findAccount(companyId);
    if (!account) throw new AppError('conflict', said('error.tse.noAccount'));
    return {
      baseUrl: account.base_url,
      apiKey: account.api_key,
      apiSecret: deps.secretBox.open(account.sealed_secret),
    };
  }

  return {
    async get(companyId: string): Promise<TseSettingsView | null> {
      const account = await store.repos.tse.findAccount(companyId);
      if (!account) return null;
      const [devices, failed] = await Promise.all([
        store.repos.tse.listDevices(companyId),
        store.repos.tse.listFailed(companyId, 20),
      ]);
      return {
        provider: 'fiskaly',
        apiKeyHint: account.api_key.slice(-4),
        baseUrl: account.base_url,
        devices: devices.map((d) => ({
          locationId: d.location_id,
          tssId: d.tss_id,
          clientId: d.client_id,
          tssSerial: d.tss_serial,
          clientSerial: d.client_serial,
          algorithm: d.algorithm,
          timeFormat: d.time_format,
          publicKey: d.public_key,
          createdAt: new Date(d.created_at).toISOString(),
        })),
        failed: failed.map((f) => ({
          id: f.id,
          documentId: f.document_id,
          at: new Date(f.created_at).toISOString(),
          error: f.error,
        })),
      };
    },

    /** Checks the key and secret with the TSE's auth, then stores them (the secret sealed); switches fiscalisation on. */
    async saveAccount(
      companyId: string,
      input: { provider: string; apiKey: string; apiSecret: string; baseUrl?: string | null },
    ): Promise<TseSettingsView> {
      const errors = fieldErrors();
      const company = await store.repos.companies.findCompany(companyId);
      if (!company) throw AppError.notFound('Company');
      if (company.country !== 'DE')
        addFieldError(errors, 'provider', said('error.tse.notGermany', { country: company.country ?? '—' }));
      if (input.provider !== 'fiskaly') addFieldError(errors, 'provider', said('error.tse.provider'));
      if (!input.apiKey.trim()) addFieldError(errors, 'apiKey', said('error.tse.required'));
      if (!input.apiSecret.trim()) addFieldError(errors, 'apiSecret', said('error.tse.required'));
      const baseUrl = input.baseUrl?.trim() || FISKALY_BASE_URL;
      if (!/^https:\/\/[^\s/]+/.test(baseUrl)) addFieldError(errors, 'baseUrl', said('error.tse.baseUrl'));
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);
      const creds = { baseUrl, apiKey: input.apiKey.trim(), apiSecret: input.apiSecret };
      try {
        await deps.client.check(creds);
      } catch (error) {
        if (!(error instanceof TseUnavailable)) throw error;
        addFieldError(errors, 'apiSecret', said('error.tse.refused', { reason: error.message }));
        throw AppError.invalid(errors);
      }
      await store.transaction(async (repos) => {
        await repos.tse.saveAccount({
          company_id: companyId,
          provider: 'fiskaly',
          api_key: creds.apiKey,
          sealed_secret: deps.secretBox.seal(creds.apiSecret),
          base_url: baseUrl,
          updated_at: clock.now().toISOString(),
        });
        await repos.companies.updateCompany(companyId, { fiscal_enabled: true });
      });
      return (await this.get(companyId))!;
    },

    /** Creates and initialises a TSS for the location's device and registers its client. */
    async setUpDevice(companyId: string, locationId: string): Promise<TseDeviceView> {
      const location = await store.repos.companies.findLocation(companyId, locationId);
      if (!location) throw AppError.notFound('Location');
      const creds = await credentials(companyId);
      const ids = {
        tssId: randomUUID(),
        clientId: randomUUID(),
        // The record system's serial number the receipt and the ELSTER notification name.
        clientSerial: `PORTICO-${location.id}`,
        adminPin: String(randomInt(10_000_000, 99_999_999)),
      };
      let tss: Awaited<ReturnType<TseClient['setUpDevice']>>;
      try {
        tss = await deps.client.setUpDevice(creds, ids);
      } catch (error) {
        if (!(error instanceof TseUnavailable)) throw error;
        throw new AppError('conflict', said('error.tse.unreachable', { reason: error.message }));
      }
      const row = {
        company_id: companyId,
        location_id: location.id,
        tss_id: ids.tssId,
        client_id: ids.clientId,
        tss_serial: tss.serial_number,
        client_serial: ids.clientSerial,
        public_key: tss.public_key,
        algorithm: tss.signature_algorithm,
        time_format: tss.signature_timestamp_format,
        sealed_admin_pin: deps.secretBox.seal(ids.adminPin),
        created_at: clock.now().toISOString(),
      };
      await store.repos.tse.saveDevice(row);
      return {
        locationId: row.location_id,
        tssId: row.tss_id,
        clientId: row.client_id,
        tssSerial: row.tss_serial,
        clientSerial: row.client_serial,
        algorithm: row.algorithm,
        timeFormat: row.time_format,
        publicKey: row.public_key,
        createdAt: row.created_at,
      };
    },

    credentials,
  };
}
export type TseSettingsService = ReturnType<typeof createTseSettingsService>;
