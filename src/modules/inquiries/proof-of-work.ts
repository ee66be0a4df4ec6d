import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createChallenge } from 'altcha-lib/v1';

/** An ALTCHA challenge as the widget (or our embed) takes it. */
export interface PowChallenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

export interface ProofOfWork {
  challenge(): Promise<PowChallenge>;
  /** True once for each correctly solved, unexpired challenge of ours; false for anything else. */
  verify(payload: string | undefined): Promise<boolean>;
}

/** Where spent solutions are remembered: shared by every process, kept across restarts. */
export interface SpentProofs {
  /** True the first time; false when the signature was spent before. */
  spendProof(signature: string, expiresAt: string): Promise<boolean>;
  pruneProofs(now: string): Promise<void>;
}

/**
 * ALTCHA's proof of work, self-hosted (no third party sees a visitor): the browser finds the
 * number whose SHA-256 with the salt is the challenge, which costs it a fraction of a second and
 * costs a bot that much per message; the server checks the answer with one hash and the HMAC
 * that proves the challenge was ours. A solved challenge is accepted once: it is spent in the
 * database until it expires, so a replay to another instance, or after a restart, is refused too.
 */
export function createProofOfWork(options: {
  hmacKey: string;
  maxNumber: number;
  spent: SpentProofs;
  ttlMs?: number;
  now?: () => number;
}): ProofOfWork {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  let prunedAt = 0;
  return {
    challenge: () =>
      createChallenge({
        hmacKey: options.hmacKey,
        maxNumber: options.maxNumber,
        expires: new Date(now() + ttlMs),
      }) as Promise<PowChallenge>,

    async verify(payload) {
      if (!payload || payload.length > 4000) return false;
      let solution: { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown };
      try {
        solution = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
      } catch {
        return false;
      }
      const at = now();
      if (!solvedOurs(solution, options.hmacKey, at)) return false;
      // Expired challenges are forgotten at most once a minute, off the visitor's path.
      if (at - prunedAt > 60_000) {
        prunedAt = at;
        void options.spent.pruneProofs(new Date(at).toISOString()).catch(() => {});
      }
      // Remembered for as long as any challenge of ours lives: a replay is refused until its salt expires.
      return options.spent.spendProof(solution.signature as string, new Date(at + ttlMs).toISOString());
    },
  };
}

/**
 * ALTCHA v1's check (what altcha-lib's verifySolution does), with node:crypto's synchronous
 * hashes: the library's Web Crypto calls each wait for the thread pool, which under load costs
 * more than the hashing. The challenge is SHA-256(salt + number), signed with our HMAC key; a
 * salt carrying `expires=` (seconds) is refused after it.
 */
function solvedOurs(
  s: { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown },
  hmacKey: string,
  nowMs: number,
): boolean {
  if (s.algorithm !== 'SHA-256' || typeof s.challenge !== 'string' || typeof s.salt !== 'string') return false;
  if (typeof s.signature !== 'string' || !Number.isSafeInteger(s.number) || (s.number as number) < 0) return false;
  const expires = new URLSearchParams(s.salt.split('?')[1] ?? '').get('expires');
  if (expires !== null && !(Number(expires) * 1000 > nowMs)) return false;
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  const challenge = createHash('sha256').update(`${s.salt}${s.number}`).digest('hex');
  if (!same(challenge, s.challenge)) return false;
  return same(createHmac('sha256', hmacKey).update(s.challenge).digest('hex'), s.signature);
}
