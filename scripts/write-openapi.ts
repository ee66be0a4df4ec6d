// Writes the OpenAPI document the running app serves, for linting in CI and for publishing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.ts';
import { createContainer } from '../src/container.ts';
import { buildApp } from '../src/http/build-app.ts';

const out = process.argv[2] ?? 'openapi.json';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-openapi-'));
const container = await createContainer(
  loadConfig({ DATABASE_URL: 'sqlite::memory:', DATA_DIR: dir, LOG_LEVEL: 'silent' }),
);
const app = await buildApp(container);
await app.ready();
fs.writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await container.close();
fs.rmSync(dir, { recursive: true, force: true });
process.stdout.write(`wrote ${out}\n`);
