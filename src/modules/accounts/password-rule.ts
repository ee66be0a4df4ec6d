/** NIST SP 800-63B: length is what counts; no composition rules, and any character may be used. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

/** Why a new password is refused, or null when it is fine. Counted in characters, not bytes. */
export function checkPassword(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Must be at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `Must be at most ${PASSWORD_MAX} characters.`;
  return null;
}
