import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { said } from './request-messages.ts';
import { requestFingerprint, type IdempotencyService } from '../modules/idempotency/index.ts';

const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Runs a create under the request's Idempotency-Key, if it has one: the first request creates
 * and records the key in the same unit of work; a retry with the same body gets the same
 * resource again (`Idempotent-Replayed: true`); another body → 422; still running → 409.
 */
export async function idempotentCreate<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  idempotency: IdempotencyService,
  create: () => Promise<T>,
  load: (id: string) => Promise<T>,
): Promise<T> {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return create();
  const key = Array.isArray(raw) ? (raw[0] ?? '') : raw;
  if (!KEY.test(key)) throw AppError.invalid({ 'Idempotency-Key': [said('error.idempotency.keyForm')] });
  // A location API key on the public API, a user on the admin API.
  const caller = (request.caller as typeof request.caller | undefined) ?? {
    companyId: request.admin.companyId,
    apiKeyId: `user:${request.admin.userId}`,
  };
  const companyId = caller.companyId;
  // The key is the company's, but a retry must come from the same API key (or user): another
  // location reusing a key gets a 422, never the first location's resource. A route with path
  // parameters (convert this quotation) counts them in: the same key on another document is a 422 too.
  const params = request.params && Object.keys(request.params).length > 0 ? ` ${JSON.stringify(request.params)}` : '';
  const fingerprint = requestFingerprint(
    request.method,
    `${request.routeOptions.url ?? request.url}${params} ${caller.apiKeyId}`,
    request.body,
  );
  const outcome = await idempotency.begin(companyId, key, fingerprint);
  if (outcome.kind === 'replay') {
    reply.header('idempotent-replayed', 'true');
    return load(outcome.resourceId);
  }
  try {
    return await idempotency.createUnderKey(companyId, key, outcome.claim, create);
  } catch (error) {
    await idempotency
      .release(companyId, key, outcome.claim)
      .catch((releaseError: unknown) =>
        request.log.error({ err: releaseError }, 'releasing an idempotency key failed'),
      );
    throw error;
  }
}
