import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One sendMessage call as received by the fake Bot API. */
export interface TelegramCall {
  token: string;
  chatId: string;
  text: string;
  parseMode: string | null;
  body: Record<string, unknown>; // the whole JSON request body
}

export type Scripted =
  | { kind: 'ok' }
  | { kind: 'retry-after'; seconds: number }
  | { kind: 'migrate'; toChatId: string | number }
  | { kind: 'chat-not-found' }
  | { kind: 'unauthorized' };

export interface FakeTelegram {
  apiBaseUrl: string; // http://127.0.0.1:<port>; the client posts to `${apiBaseUrl}/bot<token>/sendMessage`
  messages: TelegramCall[]; // accepted calls with a known token (whatever the scripted answer)
  waitFor(count: number, timeoutMs?: number): Promise<TelegramCall[]>;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * A real local HTTP server speaking the subset of the Telegram Bot API used by
 * the notifier: `POST /bot<token>/sendMessage` with a JSON body.
 *
 * `tokens`: tokens it accepts (default: any token matching /^\d+:[\w-]+$/);
 * an unknown token gets 401 {"ok":false,"error_code":401,"description":"Unauthorized"}
 * and is not recorded. `script(call, n)` chooses the answer per call
 * (n = 1-based index in `messages`); default `{ kind: 'ok' }`.
 */
export async function startFakeTelegram(opts?: {
  tokens?: string[];
  script?: (call: TelegramCall, n: number) => Scripted;
}): Promise<FakeTelegram> {
  const messages: TelegramCall[] = [];
  let waiters: Array<{ count: number; resolve: () => void }> = [];
  let nextMessageId = 1;
  const known = (token: string): boolean => (opts?.tokens ? opts.tokens.includes(token) : /^\d+:[\w-]+$/.test(token));

  const server = createServer({ keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec((req.url ?? '').split('?')[0] ?? '');
      if (!m || req.method !== 'POST') {
        sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
        return;
      }
      const token = decodeURIComponent(m[1] ?? '');
      if (!known(token)) {
        sendJson(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
        return;
      }
      if (m[2] !== 'sendMessage') {
        sendJson(res, 404, { ok: false, error_code: 404, description: 'Not Found: method not found' });
        return;
      }
      let body: Record<string, unknown>;
      try {
        const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        body = parsed as Record<string, unknown>;
      } catch {
        sendJson(res, 400, { ok: false, error_code: 400, description: 'Bad Request: invalid JSON' });
        return;
      }
      if (body.chat_id === undefined || typeof body.text !== 'string' || body.text === '') {
        sendJson(res, 400, { ok: false, error_code: 400, description: 'Bad Request: message text is empty' });
        return;
      }
      const call: TelegramCall = {
        token,
        chatId: String(body.chat_id),
        text: body.text,
        parseMode: typeof body.parse_mode === 'string' ? body.parse_mode : null,
        body,
      };
      messages.push(call);
      const n = messages.length;
      waiters = waiters.filter((w) => {
        if (messages.length >= w.count) {
          w.resolve();
          return false;
        }
        return true;
      });
      const scripted: Scripted = opts?.script ? opts.script(call, n) : { kind: 'ok' };
      switch (scripted.kind) {
        case 'ok': {
          const chatIdNum = Number(call.chatId);
          sendJson(res, 200, {
            ok: true,
            result: {
              message_id: nextMessageId++,
              chat: { id: Number.isSafeInteger(chatIdNum) ? chatIdNum : call.chatId },
              date: Math.floor(Date.now() / 1000),
              text: call.text,
            },
          });
          return;
        }
        case 'retry-after':
          res.setHeader('retry-after', String(scripted.seconds));
          sendJson(res, 429, {
            ok: false,
            error_code: 429,
            description: `Too Many Requests: retry after ${scripted.seconds}`,
            parameters: { retry_after: scripted.seconds },
          });
          return;
        case 'migrate': {
          const to = Number(scripted.toChatId);
          sendJson(res, 400, {
            ok: false,
            error_code: 400,
            description: 'Bad Request: group chat was upgraded to a supergroup chat',
            parameters: { migrate_to_chat_id: Number.isSafeInteger(to) ? to : scripted.toChatId },
          });
          return;
        }
        case 'chat-not-found':
          sendJson(res, 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
          return;
        case 'unauthorized':
          sendJson(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
          return;
      }
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    apiBaseUrl: `http://127.0.0.1:${port}`,
    messages,
    waitFor(count: number, timeoutMs = 5_000): Promise<TelegramCall[]> {
      if (messages.length >= count) return Promise.resolve(messages.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          reject(new Error(`fake telegram: expected ${count} messages, got ${messages.length} within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(messages.slice());
          },
        };
        waiters.push(waiter);
      });
    },
    close(): Promise<void> {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
