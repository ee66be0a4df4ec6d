import { createChallenge, verifySolution } from 'altcha-lib/v1';

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

/**
 * ALTCHA's proof of work, self-hosted (no third party sees a visitor): the browser finds the
 * number whose SHA-256 with the salt is the challenge, which costs it a fraction of a second and
 * costs a bot that much per message; the server checks the answer with one hash and the HMAC
 * that proves the challenge was ours. A solved challenge is accepted once per process until it
 * expires (a replay within the same minutes is refused); several instances each accept it once.
 */
export function createProofOfWork(options: { hmacKey: string; maxNumber: number; ttlMs?: number }): ProofOfWork {
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const used = new Map<string, number>(); // signature → when it may be forgotten
  return {
    challenge: () =>
      createChallenge({
        hmacKey: options.hmacKey,
        maxNumber: options.maxNumber,
        expires: new Date(Date.now() + ttlMs),
      }) as Promise<PowChallenge>,

    async verify(payload) {
      if (!payload || payload.length > 4000) return false;
      let signature: unknown;
      try {
        signature = (JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { signature?: unknown }).signature;
        if (typeof signature !== 'string' || !(await verifySolution(payload, options.hmacKey, true))) return false;
      } catch {
        return false;
      }
      const now = Date.now();
      // Oldest first (one lifetime for all), so pruning stops at the first one still valid.
      for (const [key, until] of used) {
        if (until > now) break;
        used.delete(key);
      }
      if (used.has(signature)) return false;
      used.set(signature, now + ttlMs);
      return true;
    },
  };
}
