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

/** A solution that checks out, to be spent (remembered) when its inquiry is stored. */
export interface SolvedProof {
  signature: string;
  /**
   * The challenge's own expiry (ISO instant), signed into it: the same for every replay of this
   * solution, so it can lead the spent-proofs key (see migration 0021), and the instant after
   * which a replay fails the expiry check anyway and the record can go.
   */
  expiresAt: string;
}

export interface ProofOfWork {
  /** A challenge for one company's forms: signed with that company's key. */
  challenge(companyId: string): Promise<PowChallenge>;
  /**
   * A correctly solved, unexpired challenge of ours for this company, or null for anything else
   * (another company's challenge included). Whether it was used before is answered where it is
   * spent: in the inquiry's own commit (`spendProofs`).
   */
  check(payload: string | undefined, companyId: string): SolvedProof | null;
}

/** Where spent solutions are remembered: shared by every process, kept across restarts. */
export interface SpentProofs {
  pruneProofs(now: string): Promise<void>;
}

/**
 * ALTCHA's proof of work, self-hosted (no third party sees a visitor): the browser finds the
 * number whose SHA-256 with the salt is the challenge, which costs it a fraction of a second and
 * costs a bot that much per message; the server checks the answer with one hash and the HMAC
 * that proves the challenge was ours. A solved challenge is accepted once: it is spent in the
 * database, in the same commit as its inquiry, until it expires, so a replay to another
 * instance, or after a restart, is refused too.
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
  // Each company signs with a key of its own, derived from the deployment's: a challenge solved
  // (cheaply, in bulk) against one company's key is no proof for another's form.
  const keys = new Map<string, string>();
  const keyOf = (companyId: string) => {
    let key = keys.get(companyId);
    if (key === undefined) {
      if (keys.size >= 10_000) keys.clear();
      key = createHmac('sha256', options.hmacKey).update(`company:${companyId}`).digest('hex');
      keys.set(companyId, key);
    }
    return key;
  };
  return {
    challenge: (companyId) =>
      createChallenge({
        hmacKey: keyOf(companyId),
        maxNumber: options.maxNumber,
        expires: new Date(now() + ttlMs),
      }) as Promise<PowChallenge>,

    check(payload, companyId) {
      if (!payload || payload.length > 4000) return null;
      let solution: { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown };
      try {
        solution = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
      } catch {
        return null;
      }
      const at = now();
      const expiresMs = solvedOurs(solution, keyOf(companyId), at);
      if (expiresMs === null) return null;
      // Expired challenges are forgotten at most once a minute, off the visitor's path.
      if (at - prunedAt > 60_000) {
        prunedAt = at;
        void options.spent.pruneProofs(new Date(at).toISOString()).catch(() => {});
      }
      return { signature: solution.signature as string, expiresAt: new Date(expiresMs).toISOString() };
    },
  };
}

/**
 * ALTCHA v1's check (what altcha-lib's verifySolution does), with node:crypto's synchronous
 * hashes: the library's Web Crypto calls each wait for the thread pool, which under load costs
 * more than the hashing. The challenge is SHA-256(salt + number), signed with our HMAC key, and
 * its salt carries `expires=` (seconds; every challenge we make has it). Returns that expiry in
 * ms, or null when the solution is not a live one of ours.
 */
function solvedOurs(
  s: { algorithm?: unknown; challenge?: unknown; number?: unknown; salt?: unknown; signature?: unknown },
  hmacKey: string,
  nowMs: number,
): number | null {
  if (s.algorithm !== 'SHA-256' || typeof s.challenge !== 'string' || typeof s.salt !== 'string') return null;
  if (typeof s.signature !== 'string' || !Number.isSafeInteger(s.number) || (s.number as number) < 0) return null;
  const expiresMs = Number(new URLSearchParams(s.salt.split('?')[1] ?? '').get('expires') ?? Number.NaN) * 1000;
  if (!Number.isSafeInteger(expiresMs) || !(expiresMs > nowMs)) return null;
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  const challenge = createHash('sha256').update(`${s.salt}${s.number}`).digest('hex');
  if (!same(challenge, s.challenge)) return null;
  return same(createHmac('sha256', hmacKey).update(s.challenge).digest('hex'), s.signature) ? expiresMs : null;
}
