import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';

/**
 * The only reader of process.env. Every variable is declared once here, with its default
 * and its rule; a bad value stops the process at start with a message naming the variable.
 */
export interface Config {
  readonly databaseUrl: string;
  readonly sqliteSynchronous: SqliteSynchronous;
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  readonly httpRequestTimeoutMs: number;
  readonly httpHeadersTimeoutMs: number;
  readonly httpIdleTimeoutMs: number;
  readonly httpMaxConnections: number;
  readonly logLevel: string;
  readonly publicBaseUrl: string | null;
  /** Fastify's trustProxy: false, a hop count, or the trusted proxies' addresses and CIDRs. */
  readonly trustProxy: TrustProxy;
  readonly rateLimitPerMinute: number;
  readonly rateLimitPerIpPerMinute: number;
  readonly proofOfWorkMaxNumber: number;
  readonly productPhotoFetch: boolean;
  readonly productPhotoQuotaBytes: number;
  readonly productPhotoRetentionDays: number;
  readonly captchaVerifyUrl: string | null;
  readonly captchaSecret: string | null;
  readonly redisUrl: string | null;
  readonly smtpUrl: string | null;
  readonly smtpFrom: string;
  readonly secretsKey: string | null;
  readonly worker: boolean;
  readonly webhookTimeoutMs: number;
  readonly webhookRetryDelaysMs: readonly number[] | null;
  readonly webhookAllowPrivateTargets: boolean;
  readonly telegramApiUrl: string;
  readonly datasheetMaxBytes: number;
  readonly quoteDatasheetsMaxBytes: number;
  readonly pdfWorkers: number;
  readonly pdfQueueMax: number;
  readonly hubSessionIdleMinutes: number;
  readonly hubSessionMaxHours: number;
  readonly hubSignInAttempts: number;
  readonly hubSignInHeld: number;
  readonly inquiryDigestSeconds: number;
  readonly inquiryBudgetPerKeyPerHour: number;
  readonly inquiryBudgetPerCompanyPerHour: number;
  readonly emailSendConcurrency: number;
  readonly readyMaxQueueLagSeconds: number;
  readonly readyMaxOutboxAgeSeconds: number;
  readonly metricsToken: string | null;
  readonly fiscalCisUrl: string;
  /** PEM text of FISCAL_CIS_CA (read at start), trusted besides the system's roots. */
  readonly fiscalCisCa: string | null;
  readonly fiscalWaitMs: number;
  /** PEM text of FISCAL_CIS_SIGNER_CA: the CAs CIS's answer-signing certificate must come from. */
  readonly fiscalCisSignerCa: string | null;
  readonly fiscalRetryDelaysMs: readonly number[] | null;
  /** PEM text of TSE_CA (read at start): further CAs trusted for the German cloud TSE (a test double). */
  readonly tseCa: string | null;
  readonly tseTimeoutMs: number;
  /** PEM text of EINVOICE_EXCHANGE_CA (read at start), trusted besides the system's roots. */
  readonly einvoiceExchangeCa: string | null;
  readonly einvoicePollSeconds: number;
  readonly einvoiceRetryDelaysMs: readonly number[] | null;
  /** How long one call to the e-invoice exchange may take; a send's lease is this plus a margin. */
  readonly einvoiceTimeoutSeconds: number;
}

/** `false`: no proxy; a number: that many proxies in front; a list: the proxies' addresses or CIDRs. */
export type TrustProxy = false | number | readonly string[];

/** `full`: every commit is on disk before it is acknowledged; `normal`: a power cut may lose the last ones. */
export type SqliteSynchronous = 'full' | 'normal';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

interface Spec<T> {
  description: string;
  default: string | null;
  parse: (raw: string) => T;
}

const text = (raw: string) => raw;

function integer(min: number, max: number) {
  return (raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

function boolean(raw: string): boolean {
  const v = raw.toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new Error('must be true or false');
}

/**
 * Never Fastify's `true`, which takes the left-most X-Forwarded-For, the one the client writes:
 * `true` is one proxy, and a list trusts only those addresses, so the client address is the one
 * the last trusted proxy saw.
 */
function trustProxy(raw: string): TrustProxy {
  const v = raw.toLowerCase();
  if (['false', '0', 'no', 'off', ''].includes(v)) return false;
  if (['true', 'yes', 'on'].includes(v)) return 1;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10) throw new Error('must be at most 10 hops');
    return hops;
  }
  const list = raw.split(',').map((part) => part.trim());
  for (const entry of list) {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    if (family === 0 || rest.length > 0 || (bits !== undefined && (!/^\d{1,3}$/.test(bits) || Number(bits) > maxBits)))
      throw new Error('must be true, false, a hop count, or a comma list of IP addresses or CIDRs');
  }
  return Object.freeze(list);
}

function url(protocols: string[]) {
  return (raw: string): string | null => {
    if (raw === '') return null;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new Error('must be a URL');
    }
    if (!protocols.includes(parsed.protocol)) throw new Error(`must use ${protocols.join(' or ')}`);
    return raw;
  };
}

function databaseUrl(raw: string): string {
  if (raw.startsWith('sqlite:')) {
    if (raw.length === 'sqlite:'.length) throw new Error('needs a path after sqlite: (or sqlite::memory:)');
    return raw;
  }
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) return raw;
  throw new Error('must start with sqlite: or postgres://');
}

function delays(raw: string): readonly number[] | null {
  if (raw === '') return null;
  const list = raw.split(',').map((part) => Number(part.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('must be a comma list of milliseconds');
  return Object.freeze(list);
}

function synchronous(raw: string): SqliteSynchronous {
  const v = raw.toLowerCase();
  if (v !== 'full' && v !== 'normal') throw new Error('must be full or normal');
  return v;
}

function secretsKey(raw: string): string | null {
  if (raw === '') return null;
  if (Buffer.from(raw, 'base64').length !== 32)
    throw new Error('must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return raw;
}

export const CONFIG_SPEC = {
  DATABASE_URL: {
    description: '`sqlite:<path>` or `postgres://…`',
    default: 'sqlite:./data/portico.sqlite',
    parse: databaseUrl,
  },
  SQLITE_SYNCHRONOUS: {
    description:
      '`full`: a commit is on disk before the client hears of it (one fsync per group-committed batch); `normal`: faster, but a power cut can lose the last acknowledged writes',
    default: 'full',
    parse: synchronous,
  },
  DATA_DIR: { description: 'Where datasheets and the generated secrets key live', default: './data', parse: text },
  HOST: { description: 'Interface to listen on', default: '127.0.0.1', parse: text },
  PORT: { description: 'HTTP port', default: '3000', parse: integer(0, 65535) },
  HTTP_REQUEST_TIMEOUT_MS: {
    description: 'Longest time to receive one whole request (headers and body); a slower client is cut',
    default: '30000',
    parse: integer(100, 3_600_000),
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    description: "Longest time to receive a request's headers (at most HTTP_REQUEST_TIMEOUT_MS)",
    default: '10000',
    parse: integer(100, 3_600_000),
  },
  HTTP_IDLE_TIMEOUT_MS: {
    description: 'A connection with no traffic for this long is closed, kept-alive or mid-request',
    default: '72000',
    parse: integer(100, 3_600_000),
  },
  HTTP_MAX_CONNECTIONS: {
    description: 'Open connections per process; more are refused until some close',
    default: '1000',
    parse: integer(1, 1_000_000),
  },
  LOG_LEVEL: {
    description: 'pino level: fatal, error, warn, info, debug, trace, silent',
    default: 'info',
    parse: logLevel,
  },
  PUBLIC_BASE_URL: {
    description: 'External base URL for links (datasheets, Location); by default taken from the request',
    default: '',
    parse: url(['http:', 'https:']),
  },
  TRUST_PROXY: {
    description:
      'Reverse proxies in front whose X-Forwarded-* headers are trusted: false, true (one proxy, as 1), a hop count, or a comma list of proxy addresses/CIDRs',
    default: 'false',
    parse: trustProxy,
  },
  RATE_LIMIT_PER_MINUTE: {
    description: 'Requests per minute per API key',
    default: '600',
    parse: integer(1, 1_000_000),
  },
  RATE_LIMIT_PER_IP_PER_MINUTE: {
    description:
      'Requests per minute per client address with a publishable key, beside the per-key limit (behind TRUST_PROXY the address from X-Forwarded-For)',
    default: '30',
    parse: integer(1, 1_000_000),
  },
  PROOF_OF_WORK_MAX_NUMBER: {
    description:
      'Difficulty of the ALTCHA proof-of-work a publishable-key inquiry carries: the largest number a browser may have to try (about half on average)',
    default: '100000',
    parse: integer(10, 10_000_000),
  },
  REDIS_URL: {
    description: 'Share rate limits across instances through Redis',
    default: '',
    parse: url(['redis:', 'rediss:']),
  },
  SMTP_URL: {
    description: 'E-mail new inquiries to admin and support users (`smtp://user:pass@host:port`)',
    default: '',
    parse: url(['smtp:', 'smtps:']),
  },
  SMTP_FROM: { description: 'Sender of those e-mails', default: 'Portico <no-reply@portico.localhost>', parse: text },
  SECRETS_KEY: {
    description: 'base64 32-byte key encrypting webhook secrets and bot tokens; generated under DATA_DIR when unset',
    default: '',
    parse: secretsKey,
  },
  WORKER: {
    description: '`on`: `serve` also runs the webhook and e-mail dispatcher; `off`: run `portico worker` separately',
    default: 'on',
    parse: boolean,
  },
  WEBHOOK_TIMEOUT_MS: {
    description: "Timeout of one webhook attempt (at most 25 s, so two fit in a worker's lease)",
    default: '15000',
    parse: integer(100, 25_000),
  },
  WEBHOOK_RETRY_DELAYS_MS: {
    description: 'Comma list overriding the retry schedule (tests)',
    default: '',
    parse: delays,
  },
  CAPTCHA_VERIFY_URL: {
    description:
      "A hosted captcha's verify endpoint (Turnstile: https://challenges.cloudflare.com/turnstile/v0/siteverify, hCaptcha: https://api.hcaptcha.com/siteverify), checked instead of the proof of work; needs CAPTCHA_SECRET",
    default: '',
    parse: url(['https:', 'http:']),
  },
  CAPTCHA_SECRET: {
    description: "The hosted captcha's secret key",
    default: '',
    parse: (raw: string): string | null => (raw === '' ? null : raw),
  },
  PRODUCT_PHOTO_FETCH: {
    description:
      "Fetch an inquiry's productPhotoUrl once on the server (through the webhook SSRF guard) so staff see it from Portico; off: staff see the link only",
    default: 'true',
    parse: boolean,
  },
  PRODUCT_PHOTO_QUOTA_BYTES: {
    description:
      'The bytes of fetched product photos one company may keep (256 MiB); past it a photo is not stored and shows as its link',
    default: String(256 * 1024 * 1024),
    parse: integer(0, 1_000_000_000_000),
  },
  PRODUCT_PHOTO_RETENTION_DAYS: {
    description:
      "Days an inquiry's fetched product photo is kept after the inquiry arrived (365); then staff see its link and that it was removed. 0 keeps photos as long as their inquiry",
    default: '365',
    parse: integer(0, 36_500),
  },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: {
    description: 'Allow webhook targets on loopback/private networks and plain http',
    default: 'false',
    parse: boolean,
  },
  TELEGRAM_API_URL: {
    description: 'Telegram Bot API base URL',
    default: 'https://api.telegram.org',
    parse: (raw: string) => url(['http:', 'https:'])(raw) ?? 'https://api.telegram.org',
  },
  DATASHEET_MAX_BYTES: {
    description: 'Largest datasheet upload',
    default: '10485760',
    parse: integer(1024, 100 * 1024 * 1024),
  },
  // Quotation PDFs: print memory and CPU are bounded by these three.
  QUOTE_DATASHEETS_MAX_BYTES: {
    description: 'Largest total of the datasheets one quotation PDF appends (`includeDatasheets`); more is a 400',
    default: '20971520',
    parse: integer(0, 256 * 1024 * 1024),
  },
  PDF_WORKERS: {
    description: 'Worker threads printing quotation PDFs (at a lower CPU priority than the API)',
    default: '2',
    parse: integer(1, 64),
  },
  HUB_SESSION_IDLE_MINUTES: {
    description: 'A hub session unused this long ends',
    default: '120',
    parse: integer(1, 24 * 60),
  },
  HUB_SESSION_MAX_HOURS: {
    description: 'A hub session ends this long after sign-in, however busy (a working day)',
    default: '12',
    parse: integer(1, 24 * 30),
  },
  HUB_SIGN_IN_ATTEMPTS: {
    description:
      'Failed hub sign-ins per e-mail per 15 minutes (per IP address: ten times as many) before further attempts are slowed',
    default: '10',
    parse: integer(1, 10_000),
  },
  HUB_SIGN_IN_HELD: {
    description:
      'Sign-in attempts of one e-mail held back at once past the limit (per process); one more is answered 429 "try again shortly" at once, neither checked nor counted',
    default: '2',
    parse: integer(1, 100),
  },
  INQUIRY_DIGEST_SECONDS: {
    description:
      'Staff are e-mailed a digest of new inquiries at most once per this many seconds per company (the first a few seconds after a quiet spell)',
    default: '300',
    parse: integer(1, 24 * 3600),
  },
  INQUIRY_BUDGET_PER_KEY_PER_HOUR: {
    description: 'Live inquiries one API key may send per hour (per process) before the rest go to the spam folder',
    default: '200',
    parse: integer(1, 1_000_000),
  },
  INQUIRY_BUDGET_PER_COMPANY_PER_HOUR: {
    description: 'Live inquiries one company may receive per hour (per process) before the rest go to the spam folder',
    default: '500',
    parse: integer(1, 1_000_000),
  },
  EMAIL_SEND_CONCURRENCY: {
    description:
      'E-mails to customers sent at once per process; staff digests have a lane of their own with half as many (at least 1)',
    default: '4',
    parse: integer(1, 64),
  },
  READY_MAX_QUEUE_LAG_SECONDS: {
    description:
      'Retired (ignored, a warning at start): queues are shared by every instance, so their lag is a metric and an alert, not readiness',
    default: '0',
    parse: integer(0, 7 * 24 * 3600),
  },
  READY_MAX_OUTBOX_AGE_SECONDS: {
    description: 'Retired (ignored, a warning at start): the e-mail outbox age is a metric and an alert, not readiness',
    default: '0',
    parse: integer(0, 7 * 24 * 3600),
  },
  METRICS_TOKEN: {
    description: '/metrics (Prometheus) is served only when set, to requests with `Authorization: Bearer <token>`',
    default: '',
    parse: metricsToken,
  },
  PDF_QUEUE_MAX: {
    description:
      'PDF requests that may wait beyond those printing (each holds its place until its PDF is sent); past that a 503 with Retry-After',
    default: '32',
    parse: integer(0, 100_000),
  },
  FISCAL_CIS_URL: {
    description:
      "Croatia's fiscalisation service (CIS). Production `https://cis.porezna-uprava.hr:8449/FiskalizacijaService`; APIS IT's test service `https://cistest.apis-it.hr:8449/FiskalizacijaServiceTest` (takes FINA DEMO certificates only)",
    default: 'https://cis.porezna-uprava.hr:8449/FiskalizacijaService',
    parse: (raw: string) => {
      const value = url(['https:'])(raw);
      if (value === null) throw new Error('must be an https URL');
      return value;
    },
  },
  FISCAL_CIS_CA: {
    description:
      'A PEM file of further CAs to trust for CIS besides the system roots (a test CIS); TLS is always verified',
    default: '',
    parse: pemFile,
  },
  FISCAL_CIS_SIGNER_CA: {
    description:
      "A PEM file of the CAs that issue CIS's answer-signing certificate (fiskalcis; FINA's): an answer not signed under them is refused. Empty: the FISCAL_CIS_CA file",
    default: '',
    parse: pemFile,
  },
  FISCAL_WAIT_MS: {
    description:
      'How long issuing an invoice waits for its JIR before handing it over with the ZKI only (the worker delivers it later)',
    default: '2000',
    parse: integer(0, 30_000),
  },
  FISCAL_RETRY_DELAYS_MS: {
    description: 'Comma list overriding the re-send schedule of unanswered fiscal requests; the last repeats (tests)',
    default: '',
    parse: delays,
  },
  TSE_CA: {
    description:
      'A PEM file of further CAs to trust for the German cloud TSE (fiskaly SIGN DE) besides the system roots (a test TSE); TLS is always verified',
    default: '',
    parse: pemFile,
  },
  TSE_TIMEOUT_MS: {
    description:
      'How long one call to the German cloud TSE may take before the sale goes through marked "TSE ausgefallen"',
    default: '3000',
    parse: integer(100, 30_000),
  },
  EINVOICE_EXCHANGE_CA: {
    description:
      'A PEM file of further CAs to trust for the e-invoice exchange (information intermediary) besides the system roots (a test intermediary); TLS is always verified',
    default: '',
    parse: pemFile,
  },
  EINVOICE_POLL_SECONDS: {
    description:
      "How often the worker asks each company's e-invoice exchange for received invoices (and at once after a start)",
    default: '60',
    parse: integer(1, 24 * 3600),
  },
  EINVOICE_RETRY_DELAYS_MS: {
    description:
      'Comma list overriding the retry schedule of calls the e-invoice exchange did not answer; the last repeats (tests)',
    default: '',
    parse: delays,
  },
  EINVOICE_TIMEOUT_SECONDS: {
    description:
      'How long one call to the e-invoice exchange may take; a call left by a crashed process is taken up again this plus 5 seconds later',
    default: '30',
    parse: integer(1, 300),
  },
} satisfies Record<string, Spec<unknown>>;

function pemFile(raw: string): string | null {
  if (raw === '') return null;
  let text: string;
  try {
    text = fs.readFileSync(raw, 'utf8');
  } catch {
    throw new Error('must name a readable file');
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error('must hold PEM certificates');
  try {
    new X509Certificate(text);
  } catch {
    throw new Error('holds a certificate that cannot be read');
  }
  return text;
}

function metricsToken(raw: string): string | null {
  if (raw === '') return null;
  if (!/^[\x21-\x7e]{32,512}$/.test(raw))
    throw new Error('must be 32 to 512 visible ASCII characters (openssl rand -hex 32)');
  return raw;
}

function logLevel(raw: string): string {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
  if (!levels.includes(raw)) throw new Error(`must be one of ${levels.join(', ')}`);
  return raw;
}

type SpecValue<K extends keyof typeof CONFIG_SPEC> = ReturnType<(typeof CONFIG_SPEC)[K]['parse']>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = <K extends keyof typeof CONFIG_SPEC>(name: K): SpecValue<K> => {
    const spec = CONFIG_SPEC[name] as Spec<SpecValue<K>>;
    const raw = env[name] ?? spec.default ?? '';
    try {
      return spec.parse(raw.trim());
    } catch (error) {
      problems.push(`${name} ${(error as Error).message} (got "${raw}")`);
      return undefined as SpecValue<K>;
    }
  };
  const dataDir = path.resolve(read('DATA_DIR'));
  const config: Config = {
    databaseUrl: read('DATABASE_URL'),
    sqliteSynchronous: read('SQLITE_SYNCHRONOUS'),
    dataDir,
    host: read('HOST'),
    port: read('PORT'),
    httpRequestTimeoutMs: read('HTTP_REQUEST_TIMEOUT_MS'),
    httpHeadersTimeoutMs: read('HTTP_HEADERS_TIMEOUT_MS'),
    httpIdleTimeoutMs: read('HTTP_IDLE_TIMEOUT_MS'),
    httpMaxConnections: read('HTTP_MAX_CONNECTIONS'),
    logLevel: read('LOG_LEVEL'),
    publicBaseUrl: read('PUBLIC_BASE_URL')?.replace(/\/$/, '') ?? null,
    trustProxy: read('TRUST_PROXY'),
    rateLimitPerMinute: read('RATE_LIMIT_PER_MINUTE'),
    rateLimitPerIpPerMinute: read('RATE_LIMIT_PER_IP_PER_MINUTE'),
    proofOfWorkMaxNumber: read('PROOF_OF_WORK_MAX_NUMBER'),
    productPhotoFetch: read('PRODUCT_PHOTO_FETCH'),
    productPhotoQuotaBytes: read('PRODUCT_PHOTO_QUOTA_BYTES'),
    productPhotoRetentionDays: read('PRODUCT_PHOTO_RETENTION_DAYS'),
    captchaVerifyUrl: read('CAPTCHA_VERIFY_URL'),
    captchaSecret: read('CAPTCHA_SECRET'),
    redisUrl: read('REDIS_URL'),
    smtpUrl: read('SMTP_URL'),
    smtpFrom: read('SMTP_FROM'),
    secretsKey: read('SECRETS_KEY'),
    worker: read('WORKER'),
    webhookTimeoutMs: read('WEBHOOK_TIMEOUT_MS'),
    webhookRetryDelaysMs: read('WEBHOOK_RETRY_DELAYS_MS'),
    webhookAllowPrivateTargets: read('WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    telegramApiUrl: read('TELEGRAM_API_URL').replace(/\/$/, ''),
    datasheetMaxBytes: read('DATASHEET_MAX_BYTES'),
    quoteDatasheetsMaxBytes: read('QUOTE_DATASHEETS_MAX_BYTES'),
    pdfWorkers: read('PDF_WORKERS'),
    pdfQueueMax: read('PDF_QUEUE_MAX'),
    hubSessionIdleMinutes: read('HUB_SESSION_IDLE_MINUTES'),
    hubSessionMaxHours: read('HUB_SESSION_MAX_HOURS'),
    hubSignInAttempts: read('HUB_SIGN_IN_ATTEMPTS'),
    hubSignInHeld: read('HUB_SIGN_IN_HELD'),
    inquiryDigestSeconds: read('INQUIRY_DIGEST_SECONDS'),
    inquiryBudgetPerKeyPerHour: read('INQUIRY_BUDGET_PER_KEY_PER_HOUR'),
    inquiryBudgetPerCompanyPerHour: read('INQUIRY_BUDGET_PER_COMPANY_PER_HOUR'),
    emailSendConcurrency: read('EMAIL_SEND_CONCURRENCY'),
    readyMaxQueueLagSeconds: read('READY_MAX_QUEUE_LAG_SECONDS'),
    readyMaxOutboxAgeSeconds: read('READY_MAX_OUTBOX_AGE_SECONDS'),
    metricsToken: read('METRICS_TOKEN'),
    fiscalCisUrl: read('FISCAL_CIS_URL'),
    fiscalCisCa: read('FISCAL_CIS_CA'),
    fiscalCisSignerCa: read('FISCAL_CIS_SIGNER_CA'),
    fiscalWaitMs: read('FISCAL_WAIT_MS'),
    fiscalRetryDelaysMs: read('FISCAL_RETRY_DELAYS_MS'),
    tseCa: read('TSE_CA'),
    tseTimeoutMs: read('TSE_TIMEOUT_MS'),
    einvoiceExchangeCa: read('EINVOICE_EXCHANGE_CA'),
    einvoicePollSeconds: read('EINVOICE_POLL_SECONDS'),
    einvoiceRetryDelaysMs: read('EINVOICE_RETRY_DELAYS_MS'),
    einvoiceTimeoutSeconds: read('EINVOICE_TIMEOUT_SECONDS'),
  };
  // Node refuses a headers timeout longer than the request timeout that contains it.
  if (config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS (got ${config.httpHeadersTimeoutMs} > ${config.httpRequestTimeoutMs})`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return Object.freeze(config);
}
