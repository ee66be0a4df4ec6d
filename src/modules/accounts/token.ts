import { createHash } from 'node:crypto';

/** Session and reset-link secrets are stored as this hash only: a leaked table opens nothing. */
export const tokenHash = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');
