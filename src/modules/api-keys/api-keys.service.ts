import { AppError, type Message } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import { issueCredential, parseCredential, secretMatches, type KeyKind, type KeyMode } from './credential.ts';
import { normaliseOrigin, originLookups } from './browser-origins.ts';
import type { ApiKeysRepository, ApiKeyRow } from './api-keys.repository.ts';
import type { KeyCache } from './revocation-watch.ts';
import { said, saidOf } from '../i18n/index.ts';

/** Who is calling the public API: a location's key, and through it the company. */
export interface ApiCaller {
  companyId: string;
  locationId: string;
  apiKeyId: string;
  /** Which data the key works on; absent: live. */
  mode?: KeyMode;
}

/** A caller as authentication establishes it: what the HTTP shell needs to allow a route and answer CORS. */
export interface KeyCaller extends ApiCaller {
  mode: KeyMode;
  kind: KeyKind;
  /** A publishable key's exact origins (`http://localhost:*` when listed); empty for a secret key. */
  allowedOrigins: readonly string[];
}

/** Who is calling the admin API: a user of the company, through a personal token. */
export interface AdminCaller {
  companyId: string;
  userId: string;
  role: string;
  tokenId: string;
}

export interface ApiKeySummary {
  id: string;
  name: string;
  locationId: string;
  kind: KeyKind;
  mode: KeyMode;
  allowedOrigins: string[];
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

// last_used_at is for humans ("used 3 minutes ago"); a write per request would double the
// cost of every call, so it is refreshed at most once a minute per key and process.
const TOUCH_INTERVAL_MS = 60_000;

export function createApiKeysService(deps: {
  repository: ApiKeysRepository;
  clock: Clock;
  newId: IdGenerator;
  locationExists: (companyId: string, locationId: string) => Promise<boolean>;
  userExists: (companyId: string, userId: string) => Promise<boolean>;
  /** Verified keys kept in memory; without it every request reads its key. */
  cache?: KeyCache;
}) {
  const { repository, clock, newId } = deps;
  const lastTouched = new Map<string, number>();

  async function touch(id: string, write: (id: string, at: string) => Promise<void>): Promise<void> {
    const now = clock.now();
    const previous = lastTouched.get(id);
    if (previous !== undefined && now.getTime() - previous < TOUCH_INTERVAL_MS) return;
    lastTouched.set(id, now.getTime());
    await write(id, now.toISOString());
  }

  return {
    async createApiKey(
      companyId: string,
      input: { locationId: string; name: string; kind?: KeyKind; mode?: KeyMode; allowedOrigins?: readonly string[] },
    ): Promise<ApiKeySummary & { key: string }> {
      const kind = input.kind ?? 'secret';
      const mode = input.mode ?? 'live';
      const origins = checkOrigins(kind, input.allowedOrigins ?? []);
      if (!(await deps.locationExists(companyId, input.locationId))) {
        throw AppError.invalid({ locationId: [said('error.location.unknown')] });
      }
      const id = newId('apiKey');
      const { token, secretHash } = issueCredential('apiKey', id, { kind, mode });
      const row: ApiKeyRow = {
        id,
        company_id: companyId,
        location_id: input.locationId,
        name: input.name,
        secret_hash: secretHash,
        created_at: clock.now().toISOString(),
        last_used_at: null,
        revoked_at: null,
        kind,
        mode,
        allowed_origins: JSON.stringify(origins),
      };
      await repository.insertApiKey(row, origins);
      return { ...toSummary(row), key: token };
    },

    async listApiKeys(companyId: string): Promise<ApiKeySummary[]> {
      return (await repository.listApiKeys(companyId)).map(toSummary);
    },

    async revokeApiKey(companyId: string, id: string): Promise<void> {
      if (!(await repository.revokeApiKey(companyId, id, clock.now().toISOString())))
        throw AppError.notFound('API key');
      deps.cache?.revoked(id);
    },

    /** Whether a browser page at `origin` may use some publishable key: a CORS preflight's question. */
    async browserOriginKnown(origin: string): Promise<boolean> {
      return repository.anyKeyAllowsOrigin(originLookups(origin));
    },

    /** Null for anything that is not a live key: callers answer all such cases with the same 401. */
    async authenticateApiKey(token: string): Promise<KeyCaller | null> {
      const parsed = parseCredential('apiKey', token);
      if (!parsed) return null;
      const nowMs = clock.now().getTime();
      let key = deps.cache?.get(parsed.recordId, nowMs);
      if (!key) {
        const seenVersion = deps.cache?.version() ?? 0;
        const row = await repository.findApiKeyForAuthentication(parsed.recordId);
        if (!row || row.revoked_at !== null) return null;
        key = {
          companyId: row.company_id,
          locationId: row.location_id,
          apiKeyId: row.id,
          secretHash: row.secret_hash,
          kind: row.kind as KeyKind,
          mode: row.mode as KeyMode,
          allowedOrigins: JSON.parse(row.allowed_origins) as string[],
        };
        deps.cache?.set(row.id, key, nowMs, seenVersion);
      }
      // The prefix must say what the key is: a publishable key presented as `ptc_…` is unknown.
      if (parsed.variant.kind !== key.kind || parsed.variant.mode !== key.mode) return null;
      if (!secretMatches(parsed.secret, key.secretHash)) return null;
      await touch(key.apiKeyId, repository.touchApiKey);
      return {
        companyId: key.companyId,
        locationId: key.locationId,
        apiKeyId: key.apiKeyId,
        kind: key.kind,
        mode: key.mode,
        allowedOrigins: key.allowedOrigins,
      };
    },

    async createAdminToken(
      companyId: string,
      input: { userId: string; name: string },
    ): Promise<{ id: string; token: string }> {
      if (!(await deps.userExists(companyId, input.userId)))
        throw AppError.invalid({ userId: [said('error.user.unknown')] });
      const id = newId('adminToken');
      const { token, secretHash } = issueCredential('adminToken', id);
      await repository.insertAdminToken({
        id,
        company_id: companyId,
        user_id: input.userId,
        name: input.name,
        secret_hash: secretHash,
        created_at: clock.now().toISOString(),
        last_used_at: null,
        revoked_at: null,
      });
      return { id, token };
    },

    async authenticateAdminToken(token: string): Promise<AdminCaller | null> {
      const parsed = parseCredential('adminToken', token);
      if (!parsed) return null;
      const row = await repository.findAdminTokenForAuthentication(parsed.recordId);
      if (!row || row.revoked_at !== null || !secretMatches(parsed.secret, row.secret_hash)) return null;
      await touch(row.id, repository.touchAdminToken);
      return { companyId: row.company_id, userId: row.user_id, role: row.role, tokenId: row.id };
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;

/** A publishable key lists at least one origin, each exact; a secret key lists none (it never answers CORS). */
function checkOrigins(kind: KeyKind, given: readonly string[]): string[] {
  if (kind === 'secret') {
    if (given.length > 0)
      throw AppError.invalid({
        allowedOrigins: [said('error.apiKey.secretOrigins')],
      });
    return [];
  }
  if (given.length === 0)
    throw AppError.invalid({
      allowedOrigins: [said('error.apiKey.needsOrigin')],
    });
  const origins: string[] = [];
  const errors: Message[] = [];
  for (const text of given) {
    const result = normaliseOrigin(text);
    if ('error' in result) errors.push(saidOf(result.error));
    else if (!origins.includes(result.origin)) origins.push(result.origin);
  }
  if (errors.length > 0) throw AppError.invalid({ allowedOrigins: errors });
  return origins;
}

function toSummary(row: ApiKeyRow): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    locationId: row.location_id,
    kind: row.kind as KeyKind,
    mode: row.mode as KeyMode,
    allowedOrigins: JSON.parse(row.allowed_origins) as string[],
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
