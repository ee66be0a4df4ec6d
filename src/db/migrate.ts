import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Database } from './database.ts';
import * as m0001 from './migrations/0001-foundation.ts';
import * as m0002 from './migrations/0002-quotations.ts';
import * as m0003 from './migrations/0003-webhooks.ts';
import * as m0004 from './migrations/0004-customers.ts';
import * as m0005 from './migrations/0005-sales.ts';
import * as m0006 from './migrations/0006-company-profile.ts';
import * as m0007 from './migrations/0007-hub-accounts.ts';
import * as m0008 from './migrations/0008-inquiry-handled.ts';
import * as m0009 from './migrations/0009-invoices.ts';
import * as m0010 from './migrations/0010-fiscal.ts';
import * as m0011 from './migrations/0011-websites.ts';
import * as m0012 from './migrations/0012-notification-params.ts';
import * as m0013 from './migrations/0013-einvoice.ts';
import * as m0014 from './migrations/0014-report-indexes.ts';
import * as m0015 from './migrations/0015-hub-quotations.ts';
import * as m0016 from './migrations/0016-document-mail.ts';
import * as m0017 from './migrations/0017-test-sales-and-used-proofs.ts';
import * as m0018 from './migrations/0018-customer-language-and-barcodes.ts';
import * as m0019 from './migrations/0019-einvoice-snapshots.ts';
import * as m0020 from './migrations/0020-sale-totals.ts';
import * as m0021 from './migrations/0021-used-proofs-by-expiry.ts';
import * as m0022 from './migrations/0022-payment-terms.ts';
import * as m0023 from './migrations/0023-einvoice-exchange.ts';
import * as m0024 from './migrations/0024-mail-lanes-and-digests.ts';
import * as m0025 from './migrations/0025-documents-as-issued.ts';
import * as m0026 from './migrations/0026-fiscal-details.ts';
import * as m0027 from './migrations/0027-issued-documents-kept.ts';
import * as m0028 from './migrations/0028-till.ts';
import * as m0029 from './migrations/0029-print-logo.ts';
import * as m0030 from './migrations/0030-einvoice-sends.ts';
import * as m0031 from './migrations/0031-tse.ts';
import * as m0032 from './migrations/0032-photo-blobs.ts';
import * as m0033 from './migrations/0033-tse-business-case.ts';
import * as m0034 from './migrations/0034-inquiry-digested.ts';

// Listed statically (not read from a folder) so the set is fixed at build time and typed.
const MIGRATIONS = {
  '0001-foundation': m0001,
  '0002-quotations': m0002,
  '0003-webhooks': m0003,
  '0004-customers': m0004,
  '0005-sales': m0005,
  '0006-company-profile': m0006,
  '0007-hub-accounts': m0007,
  '0008-inquiry-handled': m0008,
  '0009-invoices': m0009,
  '0010-fiscal': m0010,
  '0011-websites': m0011,
  '0012-notification-params': m0012,
  '0013-einvoice': m0013,
  '0014-report-indexes': m0014,
  '0015-hub-quotations': m0015,
  '0016-document-mail': m0016,
  '0017-test-sales-and-used-proofs': m0017,
  '0018-customer-language-and-barcodes': m0018,
  '0019-einvoice-snapshots': m0019,
  '0020-sale-totals': m0020,
  '0021-used-proofs-by-expiry': m0021,
  '0022-payment-terms': m0022,
  '0023-einvoice-exchange': m0023,
  '0024-mail-lanes-and-digests': m0024,
  '0025-documents-as-issued': m0025,
  '0026-fiscal-details': m0026,
  '0027-issued-documents-kept': m0027,
  '0028-till': m0028,
  '0029-print-logo': m0029,
  '0030-einvoice-sends': m0030,
  '0031-tse': m0031,
  '0032-photo-blobs': m0032,
  '0033-tse-business-case': m0033,
  '0034-inquiry-digested': m0034,
};

/** Applies every pending migration, forward only. Safe to run from several processes at once (Kysely takes a lock). */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, module] of Object.entries(MIGRATIONS)) {
        out[name] = { up: (db) => module.up(db, database.engine) };
      }
      return out;
    },
  };
  const { error, results } = await new Migrator({ db: database.db, provider }).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Migrations this code knows that the database has not applied (readiness: a deploy that skipped `migrate`). */
export async function pendingMigrations(database: Database): Promise<string[]> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const name of Object.keys(MIGRATIONS)) out[name] = { up: async () => {} };
      return out;
    },
  };
  const known = await new Migrator({ db: database.db, provider }).getMigrations();
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name);
}
