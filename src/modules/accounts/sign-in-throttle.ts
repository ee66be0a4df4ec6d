import type { Clock } from '../../lib/clock.ts';

/**
 * Failed sign-ins counted per key in fixed windows: in this process, or in Redis so every
 * instance sees the same counts.
 */
export interface FailureCounts {
  /** Counts one failure; the window starts at a key's first failure. */
  add(key: string, windowMs: number): Promise<void>;
  /** The current counts, 0 for a key with none (or an expired window). */
  get(keys: readonly string[]): Promise<number[]>;
}

export function memoryFailureCounts(clock: Clock): FailureCounts {
  const counts = new Map<string, { n: number; until: number }>();
  const live = (key: string) => {
    const entry = counts.get(key);
    if (entry && entry.until <= clock.now().getTime()) counts.delete(key);
    return counts.get(key);
  };
  return {
    async add(key, windowMs) {
      const entry = live(key);
      if (entry) entry.n++;
      else counts.set(key, { n: 1, until: clock.now().getTime() + windowMs });
      // Bounded: a flood of made-up e-mails must not grow the map for ever.
      if (counts.size > 100_000) for (const k of counts.keys()) if (!live(k)) counts.delete(k);
    },
    async get(keys) {
      return keys.map((key) => live(key)?.n ?? 0);
    },
  };
}

/** What the throttle needs of a Redis client (ioredis). */
export interface RedisLike {
  multi(): {
    incr(key: string): unknown;
    pexpire(key: string, ms: number, mode: 'NX'): unknown;
    exec(): Promise<unknown>;
  };
  mget(keys: string[]): Promise<Array<string | null>>;
}

export function redisFailureCounts(redis: RedisLike, prefix = 'portico:signin:'): FailureCounts {
  return {
    async add(key, windowMs) {
      const tx = redis.multi();
      tx.incr(prefix + key);
      tx.pexpire(prefix + key, windowMs, 'NX');
      await tx.exec();
    },
    async get(keys) {
      if (keys.length === 0) return [];
      const values = await redis.mget(keys.map((k) => prefix + k));
      return values.map((v) => Number(v ?? 0) || 0);
    },
  };
}

export interface SignInThrottleOptions {
  counts: FailureCounts;
  /** Failures per e-mail in a window before attempts are slowed (HUB_SIGN_IN_ATTEMPTS); ten times that per address. */
  limit: number;
  windowMs: number;
  /** The longest an attempt is held back. */
  maxDelayMs?: number;
  /**
   * Attempts of one e-mail held back at once (HUB_SIGN_IN_HELD); one more is told at once to try
   * again shortly, without its password being checked or counted.
   */
  maxHeld?: number;
  sleep?: (ms: number) => Promise<void>;
  onCountsUnavailable?: (error: unknown) => void;
  /** An e-mail has just reached the limit: its attempts are slowed from now on (logged for operators). */
  onLimitReached?: (email: string) => void;
}

/** The answer to an attempt beyond the held-back ones: not checked, not counted; try again after `retryAfterSeconds`. */
export class SignInBusy extends Error {
  override name = 'SignInBusy';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super('too many held-back sign-in attempts for this e-mail');
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/**
 * Sign-in guessing is slowed, never refused: only failures count, and past the limit each
 * attempt waits (1 s, doubling to `maxDelayMs`) before its password is checked. At most
 * `maxHeld` attempts of one e-mail wait at once (each its own delay, side by side, so none waits
 * behind the others); one more is answered at once with SignInBusy, neither checked nor counted.
 * So a guesser gets `maxHeld` tries per delay whatever it sends in parallel, and the owner's right
 * password is answered within one delay: signed in when it found a place, "try again shortly"
 * when not. Counts that cannot be read (Redis away) count as none: sign-in stays open, as rate
 * limits do.
 */
export function createSignInThrottle(options: SignInThrottleOptions) {
  const maxDelayMs = options.maxDelayMs ?? 8_000;
  const maxHeld = options.maxHeld ?? 2;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // Held-back attempts per e-mail in this process; an entry lives only while one waits.
  const held = new Map<string, number>();
  const keysOf = (email: string, address: string) => [`e:${email.trim().toLowerCase()}`, `a:${address}`];

  async function counts(keys: string[]): Promise<number[]> {
    try {
      return await options.counts.get(keys);
    } catch (error) {
      options.onCountsUnavailable?.(error);
      return keys.map(() => 0);
    }
  }

  function delayFor(byEmail: number, byAddress: number): number {
    const over = Math.max(byEmail - options.limit, Math.floor((byAddress - options.limit * 10) / 10));
    return over < 0 ? 0 : Math.min(maxDelayMs, 1000 * 2 ** over);
  }

  return {
    /**
     * Runs one sign-in attempt, held back first when its e-mail or address is past the limit.
     * `attempt` answers whether the password was right; a wrong one is counted. Throws SignInBusy
     * when `maxHeld` attempts of this e-mail are already held back.
     */
    async run<T>(email: string, address: string, attempt: () => Promise<{ ok: boolean; value: T }>): Promise<T> {
      const keys = keysOf(email, address);
      const account = keys[0]!;
      const [byEmail = 0, byAddress = 0] = await counts(keys);
      const delay = delayFor(byEmail, byAddress);
      let holding = false;
      try {
        if (delay > 0) {
          const waiting = held.get(account) ?? 0;
          if (waiting >= maxHeld) throw new SignInBusy(Math.ceil(delay / 1000));
          held.set(account, waiting + 1);
          holding = true;
          await sleep(delay);
        }
        const { ok, value } = await attempt();
        if (!ok) {
          await Promise.all(keys.map((k) => options.counts.add(k, options.windowMs))).catch((error: unknown) =>
            options.onCountsUnavailable?.(error),
          );
          if (byEmail + 1 === options.limit) options.onLimitReached?.(email);
        }
        return value;
      } finally {
        if (holding) {
          const left = (held.get(account) ?? 1) - 1;
          if (left > 0) held.set(account, left);
          else held.delete(account);
        }
      }
    },

    /** Failed sign-ins in the current window for these e-mails (shown to admins); 0 where none. */
    async failures(emails: readonly string[]): Promise<Map<string, number>> {
      const found = await counts(emails.map((e) => keysOf(e, '')[0]!));
      return new Map(emails.map((e, i) => [e, found[i] ?? 0]));
    },

    /** Whether attempts for this many failures are being slowed. */
    isSlowed(failures: number): boolean {
      return failures >= options.limit;
    },
  };
}
export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
