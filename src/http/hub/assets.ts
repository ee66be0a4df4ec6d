import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { HUB } from './paths.ts';

const require = createRequire(import.meta.url);

/**
 * The hub's static files: htmx from its npm package (no CDN), our stylesheet, our small script
 * and the app's icon. Read once at start; their URLs carry a hash of their content, so a browser may
 * keep them for a year and still never run an old one after an upgrade.
 */
const files = {
  htmx: { path: require.resolve('htmx.org/dist/htmx.min.js'), type: 'text/javascript; charset=utf-8' },
  css: { path: new URL('./assets/hub.css', import.meta.url).pathname, type: 'text/css; charset=utf-8' },
  js: { path: new URL('./assets/hub.js', import.meta.url).pathname, type: 'text/javascript; charset=utf-8' },
  icon: { path: new URL('./assets/icon.svg', import.meta.url).pathname, type: 'image/svg+xml' },
};

const loaded = Object.fromEntries(
  Object.entries(files).map(([name, file]) => {
    const body = fs.readFileSync(file.path);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    const ext = name === 'css' ? 'css' : name === 'icon' ? 'svg' : 'js';
    return [name, { url: `${HUB}/assets/${name}.${hash}.${ext}`, body, type: file.type }];
  }),
) as Record<keyof typeof files, { url: string; body: Buffer; type: string }>;

export const ASSETS = { htmx: loaded.htmx.url, css: loaded.css.url, js: loaded.js.url, icon: loaded.icon.url };

/**
 * The web app manifest: the name and icon a phone shows when the hub is added to its home
 * screen. Written once; its icon's URL changes with the icon.
 */
const manifest = JSON.stringify({
  name: 'Portico',
  short_name: 'Portico',
  start_url: HUB,
  scope: `${HUB}/`,
  display: 'standalone',
  background_color: '#ffffff',
  theme_color: '#12263f',
  icons: [{ src: ASSETS.icon, sizes: 'any', type: 'image/svg+xml', purpose: 'any' }],
});
export const MANIFEST_PATH = `${HUB}/manifest.webmanifest`;

export function assetRoutes(app: FastifyInstance): void {
  for (const asset of Object.values(loaded)) {
    app.get(
      asset.url.slice(HUB.length),
      { config: { hub: 'public' }, schema: { hide: true } },
      async (_request, reply) =>
        reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body),
    );
  }
  app.get(
    MANIFEST_PATH.slice(HUB.length),
    { config: { hub: 'public' }, schema: { hide: true } },
    async (_request, reply) =>
      reply
        .type('application/manifest+json; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(manifest),
  );
}
