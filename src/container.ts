import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { AppError } from './lib/errors.ts';
import { hkdfSync, randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { Agent } from 'undici';
import type { Config } from './config/config.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { newId as defaultNewId, type IdGenerator } from './lib/ids.ts';
import { createLogger, type Logger } from './lib/logger.ts';
import { createSecretBox } from './lib/secret-box.ts';
import { loadSecretsKey } from './lib/secrets-key.ts';
import { createDatabase, type Database } from './db/database.ts';
import { migrateToLatest, pendingMigrations } from './db/migrate.ts';
import { startSqliteCheckpointer, type Checkpointer } from './db/sqlite-checkpointer.ts';
import { createStore } from './db/store.ts';
import { createRepositories, type Store } from './repositories.ts';
import { createCompaniesService } from './modules/companies/index.ts';
import { Redis } from 'ioredis';
import {
  createAccountsService,
  createSignInThrottle,
  memoryFailureCounts,
  redisFailureCounts,
} from './modules/accounts/index.ts';
import { createApiKeysService, createPgKeyCache, createSqliteKeyCache } from './modules/api-keys/index.ts';
import {
  createHostedCaptcha,
  createInquiriesService,
  createInquiryBudget,
  createInquiryDigests,
  createInquiryReplies,
  createProofOfWork,
  type HubLinks,
} from './modules/inquiries/index.ts';
import { paths } from './http/hub/paths.ts';
import { noticeMails } from './http/hub/notice-mail.ts';
import { createNotificationsService, createEmailSender } from './modules/notifications/index.ts';
import { createIdempotencyService } from './modules/idempotency/index.ts';
import {
  createCatalogAdminService,
  createCatalogImport,
  createCatalogScopeService,
  createCatalogService,
  createDatasheetFiles,
} from './modules/catalog/index.ts';
import { createPrintPool, type PrintSlot } from './modules/printing/index.ts';
import { createQuotationAnswers, createQuotationsService } from './modules/quotations/index.ts';
import { createDocumentAttachments, createDocumentMail } from './modules/mailing/index.ts';
import { createOrdersService } from './modules/orders/index.ts';
import { createSalesService } from './modules/sales/index.ts';
import { createInvoicingService } from './modules/invoicing/index.ts';
import { createTillService } from './modules/till/index.ts';
import { createMonthArchives, createReportsService } from './modules/reports/index.ts';
import { createCustomerAssignmentService, createCustomersService } from './modules/customers/index.ts';
import {
  applyEndpointWork,
  createDispatcher,
  createEndpointsService,
  createGuardedAgent,
  createPostgresQueue,
  createSqliteQueue,
  createTargets,
  DEFAULT_RETRY_DELAYS_MS,
  type ApplyEndpointWork,
  type DeliveryQueue,
} from './modules/webhooks/index.ts';
import { createReadiness, type QueueFigures } from './modules/operations/index.ts';
// The composition root builds the queues' read-only repository; /metrics sees it as a port.
import { createOperationsRepository } from './modules/operations/operations.repository.ts';
import {
  createCisClient,
  createCroatianFiscaliser,
  createFiscalCredentials,
  createFiscalNotices,
  createFiscalSender,
  createFiscalSettingsService,
  createFiscalWorker,
  createCountryFiscaliser,
  createGermanTse,
  createTseClient,
  createTseSettingsService,
  createDsfinvkExport,
  closingsFromDrawer,
  DEFAULT_FISCAL_RETRY_DELAYS_MS,
  createAnswerVerifier,
} from './modules/fiscal/index.ts';
import type { Poller } from './lib/poller.ts';
import {
  createExchangeConnector,
  createExchangeSends,
  createExchangeSettingsService,
  createExchangeStatusReader,
  createOutboundOverview,
  createExchangeWorker,
  createPurchaseInvoicesService,
  DEFAULT_EXCHANGE_RETRY_DELAYS_MS,
} from './modules/einvoice/index.ts';

/**
 * The composition root: the one place that builds the database, clock, ids and services.
 * HTTP, the CLI and the worker all start from here.
 */
export async function createContainer(
  config: Config,
  overrides: {
    clock?: Clock;
    newId?: IdGenerator;
    logger?: Logger;
    migrate?: boolean;
    /** Tests: a certificate authority the photo fetch trusts (a loopback https image server). */
    photoCa?: string;
  } = {},
) {
  const clock = overrides.clock ?? systemClock;
  const newId = overrides.newId ?? defaultNewId;
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const database: Database = createDatabase(config.databaseUrl, { sqliteSynchronous: config.sqliteSynchronous });
  if (overrides.migrate !== false) await migrateToLatest(database);
  const store: Store = createStore(database, createRepositories);
  const datasheets = createDatasheetFiles(config.dataDir);
  const secretsKey = loadSecretsKey(config.secretsKey, config.dataDir);
  const secretBox = createSecretBox(secretsKey);
  // Keys the hub's CSRF tokens to this deployment; derived, so the secrets key itself is used for one thing.
  const csrfKey = Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'portico hub csrf', 32));
  const agent = createGuardedAgent({
    allowPrivate: config.webhookAllowPrivateTargets,
    timeoutMs: config.webhookTimeoutMs,
  });
  const telegramAgent = new Agent({ connect: { timeout: config.webhookTimeoutMs }, keepAliveTimeout: 30_000 });

  // Late-bound so services can wake the background senders that are built after them.
  let emailSender: Poller | null = null;
  let dispatcher: ReturnType<typeof createDispatcher> | null = null;
  let exchangeWorker: ReturnType<typeof createExchangeWorker> | null = null;

  const companies = createCompaniesService({ repository: store.repos.companies, clock, newId });
  const accounts = createAccountsService({
    store,
    clock,
    newId,
    policy: { idleMs: config.hubSessionIdleMinutes * 60_000, absoluteMs: config.hubSessionMaxHours * 3_600_000 },
  });
  // Sign-in failures are counted where every instance sees them when Redis is configured. No
  // offline queue: while Redis is away a count fails at once and sign-in stays open (logged).
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { connectTimeout: 1_000, maxRetriesPerRequest: 1, enableOfflineQueue: false })
    : null;
  redis?.on('error', (error) => logger.warn({ err: error }, 'sign-in counts: redis error'));
  const signInThrottle = createSignInThrottle({
    counts: redis ? redisFailureCounts(redis) : memoryFailureCounts(clock),
    limit: config.hubSignInAttempts,
    maxHeld: config.hubSignInHeld,
    windowMs: 15 * 60_000,
    onCountsUnavailable: (error) => logger.warn({ err: error }, 'sign-in counts unavailable; not slowing sign-in'),
    onLimitReached: (email) =>
      logger.warn({ email }, 'hub sign-in: too many failed attempts for one e-mail; further attempts are slowed'),
  });
  // Verified keys are cached: on PostgreSQL a key read is a round trip, on SQLite a query per
  // request. Revocations reach other processes by NOTIFY, or through a file beside the SQLite
  // database.
  const sqliteFile =
    database.engine === 'sqlite' && !database.url.endsWith(':memory:') ? database.url.slice('sqlite:'.length) : null;
  const keyCache = database.pool
    ? createPgKeyCache(database.pool, logger)
    : sqliteFile
      ? createSqliteKeyCache(sqliteFile)
      : null;
  const apiKeys = createApiKeysService({
    repository: store.repos.apiKeys,
    clock,
    newId,
    locationExists: (c, l) => companies.locationExists(c, l),
    userExists: (c, u) => companies.userExists(c, u),
    ...(keyCache ? { cache: keyCache } : {}),
  });
  // Links in staff e-mails are clicked in a mail client: absolute, from PUBLIC_BASE_URL (never
  // from a request's Host, which a caller writes), else this server's own address.
  const ownBase =
    config.publicBaseUrl ?? `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  // Notices the shop must act on (an answered quotation, a fiscal or exchange failure) are mailed too.
  const notifications = createNotificationsService({
    store,
    clock,
    newId,
    mailer: config.smtpUrl !== null ? noticeMails(ownBase) : null,
    onEmailQueued: () => emailSender?.wake(),
  });
  const hubLinks: HubLinks = { inquiry: (id) => ownBase + paths.inquiry(id), inbox: ownBase + paths.inquiries };
  const inquiries = createInquiriesService({
    store,
    clock,
    newId,
    emailEnabled: config.smtpUrl !== null,
    digest: { windowMs: config.inquiryDigestSeconds * 1000, links: hubLinks },
    budget: createInquiryBudget({
      perKey: config.inquiryBudgetPerKeyPerHour,
      perCompany: config.inquiryBudgetPerCompanyPerHour,
      windowMs: 3_600_000,
      now: () => clock.now().getTime(),
    }),
    onEmailQueued: () => emailSender?.wake(),
    onEventQueued: () => dispatcher?.wake(),
    // Keyed to this deployment (so every instance checks the others' challenges), derived like the CSRF key.
    ...(config.productPhotoFetch
      ? {
          photos: {
            agent: overrides.photoCa
              ? createGuardedAgent({
                  allowPrivate: config.webhookAllowPrivateTargets,
                  timeoutMs: 10_000,
                  ca: overrides.photoCa,
                })
              : agent,
            allowPrivate: config.webhookAllowPrivateTargets,
            timeoutMs: 10_000,
            quotaBytes: config.productPhotoQuotaBytes,
          },
        }
      : {}),
    photoRetentionDays: config.productPhotoRetentionDays,
    ...(config.captchaVerifyUrl && config.captchaSecret
      ? { captcha: createHostedCaptcha({ verifyUrl: config.captchaVerifyUrl, secret: config.captchaSecret }) }
      : {}),
    proofOfWork: createProofOfWork({
      hmacKey: Buffer.from(hkdfSync('sha256', secretsKey, Buffer.alloc(0), 'portico altcha', 32)).toString('hex'),
      maxNumber: config.proofOfWorkMaxNumber,
      spent: store.repos.inquiries,
    }),
  });
  const idempotency = createIdempotencyService({ store, clock });
  const catalog = createCatalogService({ store, datasheets });
  const catalogAdmin = createCatalogAdminService({ store, clock, newId, datasheets });
  const catalogScope = createCatalogScopeService({ store, companies });
  const catalogImport = createCatalogImport({ store, clock, newId });
  // Orchestrators ask whether this process can serve: the database answers, its schema is
  // current. The shared queues' figures feed /metrics.
  const operations: QueueFigures = createOperationsRepository(database.db);
  const readiness = createReadiness({
    ping: () => store.ping(),
    pendingMigrations: () => pendingMigrations(database),
  });
  if (config.readyMaxQueueLagSeconds > 0 || config.readyMaxOutboxAgeSeconds > 0)
    logger.warn(
      'READY_MAX_QUEUE_LAG_SECONDS and READY_MAX_OUTBOX_AGE_SECONDS are retired and ignored: the queues are shared by every instance, so their lag is a metric and an alert (docs/operating.md, Metrics), not readiness',
    );
  // An issue or a payment may have queued an e-invoice call too (a send, a payment report): the
  // exchange worker looks at once (one indexed read when there is nothing).
  const onEventQueued = () => {
    dispatcher?.wake();
    exchangeWorker?.wake();
  };
  // Croatian fiscalisation: the issuing transaction writes the outbox row (prepare); the bounded
  // send after commit (deliver) and the worker send it to CIS.
  const fiscalLogger = logger.child({ component: 'fiscal' });
  const cisClient = createCisClient({ url: config.fiscalCisUrl, extraCaPem: config.fiscalCisCa });
  const fiscalCredentials = createFiscalCredentials(secretBox);
  const fiscalNotices = createFiscalNotices({
    store,
    clock,
    notifyAdmins: (repos, companyId, note) => notifications.notifyAdmins(repos, companyId, note),
  });
  const fiscalSend = createFiscalSender({
    repository: store.repos.fiscal,
    credentials: fiscalCredentials,
    client: cisClient,
    clock,
    logger: fiscalLogger,
    waitMs: config.fiscalWaitMs,
    retryDelaysMs: config.fiscalRetryDelaysMs ?? DEFAULT_FISCAL_RETRY_DELAYS_MS,
    afterSend: fiscalNotices,
    verifyAnswer: createAnswerVerifier({
      onUnanchored: () =>
        logger.warn(
          'FISCAL_CIS_SIGNER_CA is not set: CIS answers are checked for a whole fiskalcis signature, not for its issuer',
        ),
      trustedCaPem: config.fiscalCisSignerCa ?? config.fiscalCisCa,
      now: () => clock.now(),
    }),
  });
  const cisFiscaliser = createCroatianFiscaliser({
    repository: store.repos.fiscal,
    credentials: fiscalCredentials,
    send: fiscalSend,
    clock,
    waitMs: config.fiscalWaitMs,
  });
  const fiscalSettings = createFiscalSettingsService({
    store,
    credentials: fiscalCredentials,
    client: cisClient,
    endpoint: config.fiscalCisUrl,
    clock,
  });
  // Germany's cloud TSE (KassenSichV): signs counter transactions before their unit of work.
  const tseClient = createTseClient({ extraCaPem: config.tseCa, timeoutMs: config.tseTimeoutMs });
  const tse = createGermanTse({
    store,
    client: tseClient,
    secretBox,
    clock,
    newId,
    notifyAdmins: (repos, companyId, note) => notifications.notifyAdmins(repos, companyId, note),
  });
  const tseSettings = createTseSettingsService({ store, client: tseClient, secretBox, clock });
  const fiscaliser = createCountryFiscaliser(cisFiscaliser, tse);
  // The DSFinV-K export: its Kassenabschlüsse are the days closed at the drawer (`till`, below;
  // read only when an export is made).
  const dsfinvk = createDsfinvkExport({
    store,
    client: tseClient,
    credentials: (companyId) => tseSettings.credentials(companyId),
    closings: closingsFromDrawer(async (companyId, locationId, upTo) =>
      (await till.closedDays(companyId, '0001-01-01', upTo, locationId)).map((d) => ({
        date: d.date,
        closedAt: d.closedAt,
      })),
    ),
    software: { name: 'Portico', version: '1.0.0' },
  });
  const fiscalWorker = createFiscalWorker({ store, clock, send: fiscalSend, logger: fiscalLogger });
  // The CIS adapter answers both sides of the contract: prepare at issue, status when read.
  const fiscalStatus = fiscaliser;
  // The e-invoice exchange (an information intermediary): settings sealed like the certificate,
  // received invoices filed from its inbox, its calls sent from an outbox by the worker.
  const exchangeConnector = createExchangeConnector({
    secretBox,
    extraCaPem: config.einvoiceExchangeCa,
    timeoutMs: config.einvoiceTimeoutSeconds * 1000,
  });
  const exchangeSettings = createExchangeSettingsService({ store, connector: exchangeConnector, clock });
  const purchaseInvoices = createPurchaseInvoicesService({
    store,
    clock,
    newId,
    onEventQueued: () => dispatcher?.wake(),
    onExchangeQueued: () => exchangeWorker?.wake(),
  });
  const exchangeSends = createExchangeSends({
    store,
    clock,
    newId,
    pollMs: config.einvoicePollSeconds * 1000,
    saleFacts: async (companyId, saleId) => {
      const sale = await store.repos.sales.find(companyId, saleId);
      return sale
        ? {
            locationId: sale.location_id,
            invoiceNumber: sale.invoice_number ?? sale.number,
            customerName: sale.customer_name,
          }
        : null;
    },
    notifyAdmins: (repos, companyId, note) => notifications.notifyAdmins(repos, companyId, note),
    onEventQueued: () => dispatcher?.wake(),
  });
  const exchangeStatus = createExchangeStatusReader({ store });
  const einvoiceOverview = createOutboundOverview({ store, clock });
  exchangeWorker = createExchangeWorker({
    store,
    connector: exchangeConnector,
    purchases: purchaseInvoices,
    sends: exchangeSends,
    // The issued document's UBL as issued: rendered from its snapshot on the first read, then stored.
    issuedUbl: async (companyId, saleId) => (await invoicing.file(companyId, saleId, 'ubl')).bytes.toString('utf8'),
    clock,
    logger: logger.child({ component: 'einvoice-exchange' }),
    pollMs: config.einvoicePollSeconds * 1000,
    retryDelaysMs: config.einvoiceRetryDelaysMs ?? DEFAULT_EXCHANGE_RETRY_DELAYS_MS,
    leaseMs: config.einvoiceTimeoutSeconds * 1000 + 5_000,
  });
  const prints = createPrintPool({ threads: config.pdfWorkers, queueMax: config.pdfQueueMax });
  const customers = createCustomersService({ store, clock, newId });
  const customerAssignment = createCustomerAssignmentService({ store, clock, newId });
  const quotations = createQuotationsService({
    store,
    clock,
    newId,
    catalog,
    datasheets,
    logger,
    onEventQueued,
    datasheetsMaxBytes: config.quoteDatasheetsMaxBytes,
    customers,
    fiscaliser,
  });
  const orders = createOrdersService({ store, clock, newId, catalog, onEventQueued, customers, fiscaliser });
  const sales = createSalesService({
    store,
    clock,
    newId,
    fiscalStatus,
    exchangeStatus,
    fiscalChanges: fiscaliser,
    onEventQueued,
  });
  const invoicing = createInvoicingService({
    store,
    clock,
    newId,
    fiscaliser,
    onEventQueued,
    catalog,
    customers,
    sales,
    tse,
  });
  const documentMail = createDocumentMail({
    store,
    clock,
    newId,
    quotations,
    sales,
    issuedHash: async (companyId, id, file, locale) =>
      (
        await invoicing.file(companyId, id, file === 'pdf' ? 'a4' : 'ubl', {
          locale,
          slot: () => prints.reserve(),
        })
      ).sha256,
    emailEnabled: config.smtpUrl !== null,
    onEmailQueued: () => emailSender?.wake(),
  });
  const inquiryReplies = createInquiryReplies({ inquiries, companies, customers, mail: documentMail });
  const quotationAnswers = createQuotationAnswers({
    store,
    clock,
    newId,
    get: (companyId, id) => quotations.get(companyId, id),
    notify: (repos, companyId, note, roles) => notifications.notifyRoles(repos, companyId, note, roles),
    onEventQueued,
  });
  const reports = createReportsService({ store, clock });
  // A German till's float, cash in/out and counted difference are Vorgänge its TSE signs (KassenSichV).
  const till = createTillService({
    store,
    clock,
    newId,
    onEventQueued,
    signer: {
      signs: (companyId) => tse.signs(companyId),
      sign: (companyId, locationId, entry) => tse.signDrawer(companyId, locationId, entry),
      record: (repos, row) => tse.recordDrawer(repos, row),
    },
  });
  /** A place in the print pool for background work: a full pool is waited for, not failed. */
  const waitingSlot = async () => {
    for (;;) {
      try {
        return prints.reserve();
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'unavailable') throw error;
        await delay((error.retryAfterSeconds ?? 1) * 1000);
      }
    }
  };
  const monthArchives = createMonthArchives({
    reports,
    // One document at a time through the print pool; a full pool is waited for, not failed:
    // the archive is background work and yields to the counter's prints.
    // As issued: the stored PDF and XML (the first read stores them), the bytes every copy carries.
    renderPdf: async (companyId, id) => {
      const file = await invoicing.file(companyId, id, 'a4', { slot: waitingSlot });
      return { number: file.number, pdf: file.bytes };
    },
    drawerDays: (companyId, from, to, locale) => till.archive(companyId, from, to, locale, waitingSlot),
    eInvoiceXml: async (companyId, id) => {
      try {
        return (await invoicing.file(companyId, id, 'ubl')).bytes;
      } catch (error) {
        // Not a valid e-invoice as issued: the archive carries its PDF alone.
        if (error instanceof AppError && error.code === 'conflict') return null;
        throw error;
      }
    },
    receivedXml: (companyId, from, to) => purchaseInvoices.originals(companyId, from, to),
    dir: path.join(config.dataDir, 'exports'),
    now: () => clock.now(),
    onCrash: (error) => logger.error({ err: error }, 'month archive failed'),
  });
  const endpoints = createEndpointsService({
    store,
    clock,
    newId,
    secretBox,
    allowPrivateTargets: config.webhookAllowPrivateTargets,
  });

  const webhooksLogger = logger.child({ component: 'webhooks' });
  const worker = `${process.pid}-${randomUUID().slice(0, 8)}`;
  // Failures' consequences (endpoints disabled, admins told) commit with the outcomes behind them.
  const endpointWork: ApplyEndpointWork = (tx, work) =>
    applyEndpointWork(createRepositories(tx, database.engine), work, { notifications, clock, logger: webhooksLogger });
  // The queue's engine-specific tricks live in its implementation, picked here once.
  const queue: DeliveryQueue =
    database.engine === 'postgres' && database.pool
      ? createPostgresQueue({
          db: database.db,
          pool: database.pool,
          worker,
          applyEndpointWork: endpointWork,
          logger: webhooksLogger,
        })
      : createSqliteQueue({ db: database.db, worker, applyEndpointWork: endpointWork });
  dispatcher = createDispatcher({
    queue,
    clock,
    newId,
    logger: webhooksLogger,
    sender: createTargets({
      store,
      clock,
      newId,
      secretBox,
      agent,
      telegramAgent,
      logger: webhooksLogger,
      timeoutMs: config.webhookTimeoutMs,
      telegramApiUrl: config.telegramApiUrl,
    }),
    options: {
      timeoutMs: config.webhookTimeoutMs,
      retryDelaysMs: config.webhookRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    },
  });
  const mailTransport = config.smtpUrl
    ? nodemailer.createTransport({
        url: config.smtpUrl,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      } as SMTPTransport.Options)
    : null;
  emailSender = mailTransport
    ? createEmailSender({
        store,
        clock,
        transport: mailTransport,
        from: config.smtpFrom,
        logger: logger.child({ component: 'email' }),
        lanes: {
          customer: config.emailSendConcurrency,
          staff: Math.max(1, Math.ceil(config.emailSendConcurrency / 2)),
        },
        // Printed when the e-mail goes out, through the same print pool; what it carries is the
        // mailing module's decision (document-attachments.ts).
        renderAttachment: createDocumentAttachments({
          issuedFile: (companyId, id, format, opts) => invoicing.file(companyId, id, format, opts),
          quotations,
          reserve: () => prints.reserve(),
        }),
      })
    : null;

  const inquiryDigests = mailTransport
    ? createInquiryDigests({
        store,
        clock,
        newId,
        windowMs: config.inquiryDigestSeconds * 1000,
        links: hubLinks,
        onEmailQueued: () => emailSender?.wake(),
        onError: (error) => logger.error({ err: error }, 'inquiry digest failed'),
      })
    : null;

  let workersRunning = false;
  let purgeTimer: NodeJS.Timeout | null = null;
  let checkpointer: Checkpointer | null = null;
  const container = {
    config,
    clock,
    newId,
    logger,
    database,
    store,
    companies,
    accounts,
    signInThrottle,
    apiKeys,
    notifications,
    inquiries,
    inquiryReplies,
    idempotency,
    catalog,
    catalogAdmin,
    catalogScope,
    catalogImport,
    quotations,
    quotationAnswers,
    documentMail,
    orders,
    sales,
    invoicing,
    till,
    reports,
    monthArchives,
    customers,
    customerAssignment,
    endpoints,
    readiness,
    operations,
    prints,
    csrfKey,
    dispatcher,
    emailSender,
    fiscaliser,
    fiscalSettings,
    fiscalWorker,
    tse,
    tseSettings,
    dsfinvk,
    exchangeSettings,
    einvoiceOverview,
    purchaseInvoices,
    exchangeWorker,

    /**
     * Long-running processes (serve, worker) on a SQLite file checkpoint its WAL on a thread of
     * their own; one-shot CLI commands leave it to SQLite. (A second connection needs a file.)
     */
    startBackgroundCheckpoints(): void {
      if (sqliteFile && !checkpointer) checkpointer = startSqliteCheckpointer(sqliteFile, logger);
    },

    /** Starts the PDF print threads now, in a server, rather than on the first print. */
    startPrintPool(): void {
      prints.start();
    },

    /**
     * A place in the print pool for one document's PDF (a quotation, a sale: one printer). Taken
     * before anything is stored, so a full pool refuses with nothing stored; the caller releases
     * it once the PDF is sent.
     */
    reservePrint(): PrintSlot {
      return prints.reserve();
    },

    /** Starts the background senders (webhooks, e-mail) in this process. */
    async startWorkers(): Promise<void> {
      workersRunning = true;
      await dispatcher!.start();
      emailSender?.start();
      inquiryDigests?.start();
      fiscalWorker.start();
      exchangeWorker.start();
      // Idempotency keys are kept 24 h, hub sessions and reset links until they end, product photos their retention; sweeping hourly keeps the tables small.
      purgeTimer = setInterval(() => {
        idempotency
          .purgeExpired()
          .catch((error: unknown) => logger.warn({ err: error }, 'purging idempotency keys failed'));
        accounts
          .purgeEnded()
          .catch((error: unknown) => logger.warn({ err: error }, 'purging ended hub sessions failed'));
        inquiries
          .expirePhotos()
          .catch((error: unknown) => logger.warn({ err: error }, 'expiring product photos failed'));
      }, 3_600_000);
      purgeTimer.unref();
    },

    /** Finishes in-flight sends, then closes connections. Order matters: senders use the database. */
    async close(): Promise<void> {
      if (purgeTimer) clearInterval(purgeTimer);
      if (workersRunning) {
        await dispatcher!.stop();
        await inquiryDigests?.stop();
        await emailSender?.stop();
        await fiscalWorker.stop();
        await exchangeWorker.stop();
      }
      mailTransport?.close();
      await prints.close();
      await inquiries.close();
      await keyCache?.stop();
      await checkpointer?.stop();
      await agent.close();
      await telegramAgent.close();
      await cisClient.close();
      await tseClient.close();
      await exchangeConnector.close();
      redis?.disconnect();
      await database.close();
    },
  };
  return container;
}
export type Container = Awaited<ReturnType<typeof createContainer>>;
