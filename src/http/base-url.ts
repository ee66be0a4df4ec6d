import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/config.ts';

/** Absolute links in responses: the configured public URL, else what the client called. */
export function baseUrl(config: Config, request: FastifyRequest): string {
  return config.publicBaseUrl ?? `${request.protocol}://${request.host}`;
}
