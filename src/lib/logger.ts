import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

// Paths that carry a secret themselves: a one-time password-reset link's token, and a
// customer's link to their quotation (`/q/{token}`, `/q/{token}/accept`), which the database
// keeps only as a hash.
const SECRET_IN_PATH = /^(\/(?:hub\/reset|q)\/)[^/?#]+/;

/** A request's URL as it may be logged: a secret in its path replaced. */
export function loggableUrl(url: string): string {
  return url.replace(SECRET_IN_PATH, '$1[redacted]');
}

/**
 * JSON logs; anything that looks like a credential is replaced before it is written. To stdout
 * unless told otherwise: a CLI command whose stdout is its answer (`demo --json`) logs to stderr.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    serializers: {
      req: (req: {
        method?: string;
        url?: string;
        host?: string;
        hostname?: string;
        ip?: string;
        socket?: { remoteAddress?: string };
      }) => ({
        method: req.method,
        url: loggableUrl(req.url ?? ''),
        host: req.host ?? req.hostname,
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-service-webhook-secret"]',
        'req.headers.cookie',
        'headers.authorization',
        '*.secret',
        '*.botToken',
        '*.token',
        '*.apiKey',
        '*.adminToken',
        '*.password',
      ],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
