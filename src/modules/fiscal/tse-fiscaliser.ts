import { randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Store } from '../../db/store.ts';
import type { AdminNoticeRepos } from '../notifications/index.ts';
import type { FiscalDocument, FiscalStatus, TseRecord } from './fiscaliser.ts';
import { TseUnavailable, type TseClient, type TseCredentials, type TseTxAnswer } from './tse-client.ts';
import {
  DE_VAT_CLASSES,
  PROCESS_TYPE,
  processData,
  standardV1,
  type TseAmounts,
  type TseReceiptType,
} from './tse-format.ts';
import { AppError, addFieldError, fieldErrors } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { TseAccountRow, TseRepository, TseTransactionRow } from './tse.repository.ts';

/** One counter transaction to sign: its document (if it issues one), the device, what it records. */
export interface TseSale {
  companyId: string;
  locationId: string;
  documentId: string;
  type: TseReceiptType;
  amounts: TseAmounts;
  /** DSFinV-K GV_TYP when the transaction records a drawer movement rather than a sale's lines. */
  businessCase?: DrawerBusinessCase;
}

/** The drawer's business cases (DSFinV-K Anhang C) a German till signs besides sales. */
export type DrawerBusinessCase = 'Anfangsbestand' | 'Einzahlung' | 'Auszahlung' | 'DifferenzSollIst';

type Note = { kind: string; title: string; body: string; params: Record<string, string> };

/**
 * Germany's TSE behind the fiscal interface (KassenSichV; fiskaly SIGN DE v2). The two HTTPS
 * revisions (ACTIVE, then FINISHED with the receipt's amounts) run just before the issuing unit
 * of work, never inside it: a transaction holding the sale's number lock for two round trips
 * would make every sale of the company wait on the TSE. `prepare`, inside the unit of work,
 * writes what the TSE answered with the document, so a receipt is never issued without its TSE
 * record, nor a record without its document. Not reached ("TSE ausgefallen"): the sale goes
 * through, its row says so, and the company's admins are told at the first failure of a device.
 */
export function createGermanTse(deps: {
  store: Store<{ tse: TseRepository } & AdminNoticeRepos>;
  client: TseClient;
  secretBox: SecretBox;
  clock: Clock;
  newId: IdGenerator;
  notifyAdmins: (repos: AdminNoticeRepos, companyId: string, note: Note) => Promise<void>;
}) {
  const { store, clock } = deps;
  const held = new Map<string, TseTransactionRow>();
  const opened = new Map<string, string>();
  // Devices whose last transaction failed: admins are told once per outage, not once per sale.
  const down = new Set<string>();
  // Devices with a transaction started at the TSE whose finish failed: cancelled once the TSE answers again.
  const unfinished = new Set<string>();

  /**
   * The outbox's second half: a transaction the TSE started but never finished (the finishing
   * call failed) is still open there; once the device's TSE answers again, each is finished as
   * CANCELLED (revision 2), after the sale that found the TSE back, never inside its request's
   * unit of work. Its row stays `failed` (the sale was not signed) and says it was closed.
   */
  function closeUnfinished(
    companyId: string,
    locationId: string,
    creds: TseCredentials,
    device: { tss_id: string; client_id: string },
  ): void {
    unfinished.delete(`${companyId}:${locationId}`);
    void (async () => {
      const rows = await store.repos.tse.listUnfinished(companyId, locationId, 50);
      for (const row of rows) {
        try {
          await deps.client.finishTx(creds, device.tss_id, row.tx_id, device.client_id, 2, { state: 'CANCELLED' });
          await store.repos.tse.markClosed(companyId, row.id, `${row.error ?? ''} (cancelled at the TSE later)`);
        } catch (error) {
          if (!(error instanceof TseUnavailable)) throw error;
          unfinished.add(`${companyId}:${locationId}`);
          return;
        }
      }
    })().catch(() => unfinished.add(`${companyId}:${locationId}`));
  }

  function credentialsOf(account: TseAccountRow): TseCredentials {
    let secret = opened.get(account.sealed_secret);
    if (secret === undefined) {
      secret = deps.secretBox.open(account.sealed_secret);
      if (opened.size >= 1_000) opened.clear();
      opened.set(account.sealed_secret, secret);
    }
    return { baseUrl: account.base_url, apiKey: account.api_key, apiSecret: secret };
  }

  /** Signs one transaction at the TSE; null when the company has no TSE. Never throws for the TSE's sake. */
  async function run(sale: Omit<TseSale, 'documentId'>, documentId: string | null): Promise<TseTransactionRow | null> {
    const account = await store.repos.tse.findAccount(sale.companyId);
    if (!account) return null;
    // A rate outside the five DSFinV-K classes (a misconfigured catalog) is the seller's to fix: 400.
    const foreign = sale.amounts.grossByRateBp.find((g) => !DE_VAT_CLASSES.some((c) => c.rateBp === g.rateBp));
    if (foreign) {
      const details = fieldErrors();
      addFieldError(details, 'lines', said('error.tse.rate', { rate: foreign.rateBp / 100 }));
      throw AppError.invalid(details);
    }
    const device = await store.repos.tse.findDevice(sale.companyId, sale.locationId);
    const txId = randomUUID();
    const row: TseTransactionRow = {
      id: deps.newId('tseTx'),
      company_id: sale.companyId,
      location_id: sale.locationId,
      document_id: documentId,
      tx_id: txId,
      receipt_type: sale.type,
      status: 'failed',
      process_type: PROCESS_TYPE,
      process_data: processData(sale.type, sale.amounts),
      number: null,
      signature_counter: null,
      time_start: null,
      time_end: null,
      signature: null,
      algorithm: null,
      time_format: null,
      public_key: null,
      tss_serial: device?.tss_serial ?? null,
      client_serial: device?.client_serial ?? null,
      qr_code: null,
      error: null,
      attempts: 0,
      created_at: clock.now().toISOString(),
      business_case: sale.businessCase ?? null,
    };
    if (!device) return { ...row, error: 'Für diese Kasse ist keine TSE eingerichtet.' };
    const creds = credentialsOf(account);
    try {
      await deps.client.startTx(creds, device.tss_id, txId, device.client_id);
      row.attempts = 1;
      const done =
        sale.type === 'ABORT'
          ? await deps.client.finishTx(creds, device.tss_id, txId, device.client_id, 2, {
              state: 'CANCELLED',
              schema: standardV1(sale.type, sale.amounts),
            })
          : await deps.client.finishTx(creds, device.tss_id, txId, device.client_id, 2, {
              state: 'FINISHED',
              schema: standardV1(sale.type, sale.amounts),
            });
      row.attempts = 2;
      if (down.delete(`${sale.companyId}:${sale.locationId}`) || unfinished.has(`${sale.companyId}:${sale.locationId}`))
        closeUnfinished(sale.companyId, sale.locationId, creds, device);
      return signedRow(row, done, sale.type === 'ABORT' ? 'cancelled' : 'signed');
    } catch (error) {
      if (!(error instanceof TseUnavailable)) throw error;
      if (row.attempts === 1) unfinished.add(`${sale.companyId}:${sale.locationId}`);
      return { ...row, error: error.message };
    }
  }

  function remember(documentId: string, row: TseTransactionRow) {
    if (held.size >= 10_000) held.clear();
    held.set(documentId, row);
  }

  async function record(
    repos: { tse: Pick<TseRepository, 'insertTransaction'> } & AdminNoticeRepos,
    row: TseTransactionRow,
  ) {
    await repos.tse.insertTransaction(row);
    if (row.status !== 'failed') return;
    const key = `${row.company_id}:${row.location_id}`;
    if (down.has(key)) return;
    down.add(key);
    await deps.notifyAdmins(repos, row.company_id, {
      kind: 'fiscal.tseDown',
      title: 'TSE ausgefallen',
      body: `The technical security device (TSE) could not sign a counter transaction at ${row.created_at}: ${row.error}. Sales go on and their receipts say "TSE ausgefallen"; if the outage lasts, document it (AEAO zu § 146a) and check the TSE account.`,
      params: { at: row.created_at, reason: row.error ?? '' },
    });
  }

  return {
    /** Before the issuing unit of work: signs the sale's transaction, held for `prepare`. */
    async sign(sale: TseSale): Promise<void> {
      const row = await run(sale, sale.documentId);
      if (row) remember(sale.documentId, row);
    },

    /** Whether `sign` holds an answer for this document (the composite fiscaliser routes by it). */
    holds: (documentId: string) => held.has(documentId),

    /** In the issuing unit of work: the TSE's answers written with the document. */
    async prepare(
      repos: { tse: Pick<TseRepository, 'insertTransaction'> } & AdminNoticeRepos,
      doc: FiscalDocument,
    ): Promise<FiscalStatus> {
      const row = held.get(doc.documentId)!;
      held.delete(doc.documentId);
      await record(repos, row);
      return toStatus(row);
    },

    /** An abandoned basket at the counter: its own transaction, finished as CANCELLED (AVBelegabbruch). */
    async abort(companyId: string, locationId: string, amounts: TseAmounts): Promise<TseRecord | null> {
      const row = await run({ companyId, locationId, type: 'ABORT', amounts }, null);
      if (!row) return null;
      await store.transaction((repos) => record(repos, row));
      return toRecord(row);
    },

    /**
     * A drawer movement of a German till (the opening float, cash put in or taken out, the counted
     * difference at closing): a Vorgang the TSE signs as a `Beleg` whose cash moves outside any VAT
     * rate (process data `Beleg^0.00_0.00_0.00_0.00_<amount>^<amount>:Bar`), before the drawer's
     * unit of work. `recordDrawer` writes the answer in that unit of work, with the movement; the
     * TSE down leaves a `failed` row and tells the admins, as for a sale. Null: no TSE account.
     */
    async signDrawer(
      companyId: string,
      locationId: string,
      entry: { id: string; businessCase: DrawerBusinessCase; amountMinor: number },
    ): Promise<TseTransactionRow | null> {
      const amounts: TseAmounts = {
        grossByRateBp: [{ rateBp: 0, grossMinor: entry.amountMinor }],
        cashMinor: entry.amountMinor,
        nonCashMinor: 0,
      };
      return run({ companyId, locationId, type: 'RECEIPT', amounts, businessCase: entry.businessCase }, entry.id);
    },

    /** Whether the company signs at its counter at all (it has a TSE account). */
    signs: async (companyId: string) => (await store.repos.tse.findAccount(companyId)) !== undefined,

    recordDrawer: (
      repos: { tse: Pick<TseRepository, 'insertTransaction'> } & AdminNoticeRepos,
      row: TseTransactionRow,
    ) => record(repos, row),

    async statusOf(companyId: string, documentIds: readonly string[]): Promise<Map<string, FiscalStatus>> {
      const rows = await store.repos.tse.listForDocuments(companyId, documentIds);
      return new Map(rows.map((row) => [row.document_id!, toStatus(row)]));
    },
  };
}
export type GermanTse = ReturnType<typeof createGermanTse>;

function signedRow(row: TseTransactionRow, done: TseTxAnswer, status: 'signed' | 'cancelled'): TseTransactionRow {
  return {
    ...row,
    status,
    number: done.number,
    signature_counter: done.signature.counter,
    time_start: new Date(done.time_start * 1000).toISOString(),
    time_end: new Date(done.time_end * 1000).toISOString(),
    signature: done.signature.value,
    algorithm: done.signature.algorithm,
    time_format: done.log.timestamp_format,
    public_key: done.signature.public_key,
    tss_serial: done.tss_serial_number,
    client_serial: done.client_serial_number,
    qr_code: done.qr_code_data,
    // What the TSE signed is what the export says: its process data, read back from the QR code.
    process_data: done.qr_code_data.split(';')[3] ?? row.process_data,
  };
}

export function toRecord(row: TseTransactionRow): TseRecord {
  return {
    status: row.status === 'failed' ? 'failed' : 'signed',
    transactionNumber: row.number === null ? null : Number(row.number),
    signatureCounter: row.signature_counter === null ? null : Number(row.signature_counter),
    start: row.time_start === null ? null : new Date(row.time_start).toISOString(),
    end: row.time_end === null ? null : new Date(row.time_end).toISOString(),
    signature: row.signature,
    algorithm: row.algorithm,
    timeFormat: row.time_format,
    publicKey: row.public_key,
    serialNumber: row.tss_serial,
    clientSerial: row.client_serial,
    processType: row.process_type,
    processData: row.process_data,
    qrCode: row.qr_code,
    error: row.error,
  };
}

function toStatus(row: TseTransactionRow): FiscalStatus {
  const failed = row.status === 'failed';
  return {
    status: failed ? 'pending' : 'fiscalised',
    protectionCode: null,
    receipt: null,
    verifyUrl: row.qr_code,
    error: failed ? { code: 'tse_unavailable', message: `TSE ausgefallen: ${row.error ?? ''}` } : null,
    tse: toRecord(row),
  };
}
