import { randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/password-hash.ts';
import type { Store } from '../../db/store.ts';
import type { UserRole } from '../companies/index.ts';
import { resolveLanguage, said, type Language } from '../i18n/index.ts';
import { newId as defaultNewId, type IdGenerator } from '../../lib/ids.ts';
import type { AccountsRepository, SessionView } from './accounts.repository.ts';
import { createTeamService } from './team.service.ts';
import { tokenHash } from './token.ts';

/** The signed-in user as every hub page sees it. */
export interface SessionUser {
  companyId: string;
  userId: string;
  email: string;
  name: string;
  role: UserRole;
  language: Language;
  /** The language the user chose, or null when they follow the company's. */
  chosenLanguage: Language | null;
  /** BCP 47 tag for Intl: the company's locale, or the user's language when that differs. */
  localeTag: string;
  companyName: string;
  /** Where the company is (ISO 3166 alpha-2), for what its country calls things (a tax id is an OIB in HR). */
  companyCountry: string | null;
  currency: string;
  timezone: string;
}

export interface SessionPolicy {
  /** A session unused this long ends. */
  idleMs: number;
  /** A session ends this long after sign-in, used or not. */
  absoluteMs: number;
}

const WRONG = said('error.signIn.wrong');
// Verified when no account has the e-mail, so that case costs what a wrong password costs.
const DECOY = hashPassword(randomBytes(16).toString('hex'));
// last_seen_at is written at most this often: a page view is a read, not a write.
const TOUCH_EVERY_MS = 60_000;

export { tokenHash };
const newToken = (): string => randomBytes(32).toString('base64url');

export function createAccountsService(deps: {
  store: Store<{ accounts: AccountsRepository }>;
  clock: Clock;
  policy: SessionPolicy;
  newId?: IdGenerator;
}) {
  const { store, clock, policy } = deps;
  const repo = store.repos.accounts;

  return {
    ...createTeamService({ store, clock, newId: deps.newId ?? defaultNewId }),
    /**
     * E-mail and password to a new session token (returned once; only its hash is stored).
     * Every refusal reads the same, whichever part was wrong or whether the user is disabled.
     * A password stored with older parameters is re-hashed now, while it is known.
     */
    async signIn(emailInput: string, password: string): Promise<{ token: string; user: SessionUser }> {
      const email = emailInput.trim().toLowerCase();
      const candidates = email && password ? (await repo.findByEmail(email)).filter((u) => u.password_hash) : [];
      if (candidates.length === 0) {
        await verifyPassword(password, await DECOY);
        throw new AppError('unauthenticated', WRONG);
      }
      // An e-mail may (from before sign-in existed) belong to users of two companies: the password picks.
      let account = null;
      for (const candidate of candidates) {
        if (await verifyPassword(password, candidate.password_hash!)) {
          account = candidate;
          break;
        }
      }
      if (!account || account.disabled_at) throw new AppError('unauthenticated', WRONG);
      if (needsRehash(account.password_hash!))
        await repo.setPasswordHash(account.company_id, account.id, await hashPassword(password));

      const token = newToken();
      const now = clock.now();
      await repo.insertSession({
        token_hash: tokenHash(token),
        company_id: account.company_id,
        user_id: account.id,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + policy.absoluteMs).toISOString(),
      });
      const user = await this.authenticate(token);
      if (!user) throw new AppError('internal', 'A new session could not be read back.');
      return { token, user };
    },

    /** The user behind a session token, or null when it is unknown, idle too long, past its end, or its user disabled. */
    /**
     * `touch: false` for requests no person made (the header's polling): they read the session
     * but do not extend it, or an open tab would never reach the idle timeout.
     */
    async authenticate(token: string, options: { touch?: boolean } = {}): Promise<SessionUser | null> {
      if (!token || token.length > 100) return null;
      const hash = tokenHash(token);
      const row = await repo.findSession(hash);
      if (!row) return null;
      const now = clock.now().getTime();
      const lastSeen = Date.parse(row.last_seen_at);
      if (row.disabled_at || now >= Date.parse(row.expires_at) || now - lastSeen >= policy.idleMs) {
        await repo.deleteSession(hash);
        return null;
      }
      if (options.touch !== false && now - lastSeen >= TOUCH_EVERY_MS)
        await repo.touchSession(hash, new Date(now).toISOString());
      return toSessionUser(row);
    },

    /** Deletes the sessions and reset links that can no longer be used; run hourly by the workers. */
    async purgeEnded(): Promise<{ sessions: number; resets: number }> {
      const now = clock.now().getTime();
      return repo.deleteEnded(new Date(now).toISOString(), new Date(now - policy.idleMs).toISOString());
    },

    async signOut(token: string): Promise<void> {
      if (token) await repo.deleteSession(tokenHash(token));
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

function toSessionUser(row: SessionView): SessionUser {
  const companyLanguage = resolveLanguage(row.company_locale);
  const language = row.user_locale ? resolveLanguage(row.user_locale) : companyLanguage;
  return {
    companyId: row.company_id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role as UserRole,
    language,
    chosenLanguage: row.user_locale ? language : null,
    localeTag: language === companyLanguage ? row.company_locale : language,
    companyName: row.company_name,
    companyCountry: row.company_country,
    currency: row.currency,
    timezone: row.timezone,
  };
}
