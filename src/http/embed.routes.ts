import fs from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';

// Read once: the file is part of this version, like the hub's assets.
const CONTACT_JS = fs.readFileSync(new URL('./embed/contact.js', import.meta.url));

/**
 * `/embed/contact.js`: the drop-in contact form a shop's page loads with its publishable key.
 * Any page may load it (it is only code; what it may call is decided by the key's origins).
 */
export const embedRoutes: FastifyPluginAsync = async (app) => {
  app.get('/embed/contact.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(CONTACT_JS),
  );
};
