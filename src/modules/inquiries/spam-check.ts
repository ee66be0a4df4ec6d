import type { HostedCaptcha } from './hosted-captcha.ts';
import type { ProofOfWork, SolvedProof } from './proof-of-work.ts';

/**
 * A web page's contact form carries two checks against bots. The honeypot is a field people
 * never see: filled, the sender still gets a 201 (a bot learns nothing) and nothing is stored
 * or told. The proof of work (ALTCHA) is required of publishable keys: missing or wrong, the
 * inquiry is stored in the spam folder, nobody is told, and staff may release it. An inquiry
 * from a server (a secret key) is that server's business: only the honeypot applies to it.
 */
export function honeypotFilled(website: string | undefined): boolean {
  return website !== undefined && website.trim() !== '';
}

/**
 * Whether the inquiry is held back as spam (why), or accepted; an accepted proof of work comes
 * with the solution to spend in the inquiry's commit (a replay is found there, and held back
 * then). With a hosted captcha configured, its token is checked instead of the proof of work.
 */
export async function spamCheckOf(
  checks: { proofOfWork: ProofOfWork; captcha?: HostedCaptcha | undefined },
  from: { publishable: boolean; companyId: string; altcha?: string; captchaToken?: string; remoteIp?: string },
): Promise<{ spamReason: 'proof_of_work' | 'captcha' } | { spamReason: null; proof?: SolvedProof }> {
  if (!from.publishable) return { spamReason: null };
  if (checks.captcha)
    return (await checks.captcha.verify(from.captchaToken, from.remoteIp ?? ''))
      ? { spamReason: null }
      : { spamReason: 'captcha' };
  const proof = checks.proofOfWork.check(from.altcha, from.companyId);
  return proof ? { spamReason: null, proof } : { spamReason: 'proof_of_work' };
}
