import type { ProofOfWork } from './proof-of-work.ts';

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

/** Null to accept the inquiry, or why it is held back as spam. */
export async function spamReasonOf(
  proofOfWork: ProofOfWork,
  from: { publishable: boolean },
  altcha: string | undefined,
): Promise<'proof_of_work' | null> {
  if (!from.publishable) return null;
  return (await proofOfWork.verify(altcha)) ? null : 'proof_of_work';
}
