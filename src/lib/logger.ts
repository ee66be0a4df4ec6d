import { pino, type Logger } from 'pino';

export type { Logger };

/** JSON logs; anything that looks like a credential is replaced before it is written. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization', 'req.headers["x-service-webhook-secret"]', 'req.headers.cookie',
        'headers.authorization', '*.secret', '*.botToken', '*.token', '*.apiKey', '*.adminToken', '*.password',
      ],
      censor: '[redacted]',
    },
  });
}
