import { randomUUID } from 'node:crypto';
import { said, saidOf } from '../i18n/index.ts';
import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Store } from '../../db/store.ts';
import type { CompanyDirectory, CompanyFiscalSwitch } from '../companies/index.ts';
import { Pkcs12Error, readPkcs12 } from './certificate.ts';
import { oibOf } from './cis-format.ts';
import { CisUnreachable, type CisClient } from './cis-client.ts';
import { parseEchoAnswer } from './cis-response.ts';
import type { FiscalCredentials } from './fiscal-credentials.ts';
import type { FiscalRepository } from './fiscal.repository.ts';
import { echoEnvelope } from './racun-request.ts';

/** What the settings show of a stored certificate: never the key, never the file. */
export interface FiscalCertificateInfo {
  subject: string;
  oib: string;
  expiresAt: string;
}

export interface FiscalSettingsView {
  /** Fiscalising: a certificate is stored. */
  configured: boolean;
  certificate: FiscalCertificateInfo | null;
  /** Set within 30 days of the certificate's expiry, and after it. */
  warning: string | null;
  endpoint: string;
}

const WARN_BEFORE_MS = 30 * 24 * 3_600_000;
const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}\s*$/;

/** A company's fiscal settings: its FINA certificate, and the test of the way to CIS. */
export function createFiscalSettingsService(deps: {
  store: Store<{ fiscal: FiscalRepository; companies: Pick<CompanyDirectory, 'findCompany'> & CompanyFiscalSwitch }>;
  credentials: FiscalCredentials;
  client: CisClient;
  endpoint: string;
  clock: Clock;
}) {
  const { store, clock } = deps;

  const warningFor = (expiresAt: string): string | null => {
    const left = Date.parse(expiresAt) - clock.now().getTime();
    if (left <= 0) return `The fiscal certificate expired on ${expiresAt.slice(0, 10)}: invoices are not fiscalised.`;
    if (left <= WARN_BEFORE_MS)
      return `The fiscal certificate expires on ${expiresAt.slice(0, 10)}: order a new one from FINA and upload it.`;
    return null;
  };

  return {
    async get(companyId: string): Promise<FiscalSettingsView> {
      const row = await store.repos.fiscal.findCertificate(companyId);
      return {
        configured: row !== undefined,
        certificate: row ? { subject: row.subject, oib: row.oib, expiresAt: row.expires_at } : null,
        warning: row ? warningFor(row.expires_at) : null,
        endpoint: deps.endpoint,
      };
    },

    /** Checks the file, its password, its OIB against the company's and its dates; then stores it sealed. */
    async uploadCertificate(
      companyId: string,
      input: { p12: string; password: string },
    ): Promise<FiscalCertificateInfo> {
      const errors = fieldErrors();
      const compact = input.p12.replace(/\s+/g, '');
      if (!BASE64.test(input.p12) || compact.length === 0) {
        addFieldError(errors, 'p12', said('error.fiscal.p12Base64'));
        throw AppError.invalid(errors);
      }
      let certificate: Awaited<ReturnType<typeof readPkcs12>>;
      try {
        certificate = await readPkcs12(Buffer.from(compact, 'base64'), input.password);
      } catch (error) {
        if (!(error instanceof Pkcs12Error)) throw error;
        addFieldError(errors, error.problem === 'wrong_password' ? 'password' : 'p12', saidOf(error.message));
        throw AppError.invalid(errors);
      }
      const company = await store.repos.companies.findCompany(companyId);
      if (!company) throw AppError.notFound('Company');
      const companyOib = oibOf(company.tax_id);
      const now = clock.now();
      if (companyOib === null) addFieldError(errors, 'p12', said('error.fiscal.noOib'));
      else if (certificate.oib !== companyOib)
        addFieldError(
          errors,
          'p12',
          said('error.fiscal.oibMismatch', { certificateOib: certificate.oib ?? '—', companyOib }),
        );
      if (certificate.expiresAt.getTime() <= now.getTime())
        addFieldError(
          errors,
          'p12',
          said('error.fiscal.expired', { date: certificate.expiresAt.toISOString().slice(0, 10) }),
        );
      else if (certificate.notBefore.getTime() > now.getTime())
        addFieldError(
          errors,
          'p12',
          said('error.fiscal.notYetValid', { date: certificate.notBefore.toISOString().slice(0, 10) }),
        );
      if (Object.keys(errors).length > 0) throw AppError.invalid(errors);

      const info = { subject: certificate.subject, oib: companyOib!, expiresAt: certificate.expiresAt.toISOString() };
      const sealed = deps.credentials.seal(certificate);
      // Storing the certificate is what configuring fiscalisation means: it switches it on
      // (an admin may switch it off again in the settings; the certificate stays).
      await store.transaction(async (repos) => {
        await repos.fiscal.saveCertificate({
          company_id: companyId,
          sealed,
          subject: info.subject,
          oib: info.oib,
          not_before: certificate.notBefore.toISOString(),
          expires_at: info.expiresAt,
          uploaded_at: now.toISOString(),
        });
        await repos.companies.updateCompany(companyId, { fiscal_enabled: true });
      });
      return info;
    },

    /** Documents still without a JIR, oldest first (the hub's Today): waiting, or refused by CIS. */
    async unfiscalised(companyId: string, limit = 20) {
      const rows = await store.repos.fiscal.listUnfiscalised(companyId, limit);
      return rows.map((row) => ({
        documentId: row.document_id,
        issuedAt: row.issued_at,
        status: row.status as 'pending' | 'rejected',
        attempts: row.attempts,
        error: row.status === 'rejected' ? `${row.error_code}: ${row.error_message}` : row.last_error,
      }));
    },

    /** The specification's echo (2.5): proves TLS and the way to CIS; no certificate involved. */
    async check(): Promise<{ ok: boolean; endpoint: string; millis: number; message: string }> {
      const text = `portico ${randomUUID()}`;
      const started = performance.now();
      try {
        const body = await deps.client.post(echoEnvelope(text), 'echo', 10_000);
        const millis = Math.round(performance.now() - started);
        const echoed = parseEchoAnswer(body);
        return echoed?.trim() === text
          ? { ok: true, endpoint: deps.endpoint, millis, message: 'CIS answered the echo.' }
          : { ok: false, endpoint: deps.endpoint, millis, message: 'CIS answered, but not with the echo.' };
      } catch (error) {
        if (!(error instanceof CisUnreachable)) throw error;
        return {
          ok: false,
          endpoint: deps.endpoint,
          millis: Math.round(performance.now() - started),
          message: error.message,
        };
      }
    },
  };
}
export type FiscalSettingsService = ReturnType<typeof createFiscalSettingsService>;
