import type { Config } from '../config/config.ts';
import { createContainer, type Container } from '../container.ts';
import { buildApp } from '../http/build-app.ts';
import { createDemoCompany } from '../modules/demo/index.ts';
import { holdInstanceLock } from './backup.ts';

/** `portico serve`: the API (and, unless WORKER=off, the webhook and e-mail senders) in one process. */
export async function serve(config: Config, opts: { demoIfEmpty: boolean }): Promise<void> {
  const container = await createContainer(config);
  holdInstanceLock(config); // restore refuses a database a running instance holds
  const app = await buildApp(container);
  container.startPrintPool(); // its threads parse the fonts now, not during the first customer's quote
  container.startBackgroundCheckpoints();

  let welcome: (() => void) | null = null;
  if (opts.demoIfEmpty) {
    if ((await container.companies.countCompanies()) === 0) {
      const demo = await createDemoCompany(container, { passwords: true });
      const admin = demo.users.find((u) => u.role === 'admin')!;
      welcome = () => printWelcome(container, demo.locations[0]!.apiKey, demo.adminToken, demo.products[0]!, admin);
    } else {
      // Keys are stored hashed, so the first run's key cannot be shown again.
      welcome = () =>
        process.stdout.write(
          'Portico: the database already has data. Need a key? `npx portico demo` makes a new demo company and prints its keys.\n',
        );
    }
  }
  if (config.worker) await container.startWorkers();
  await app.listen({ host: config.host, port: config.port });
  welcome?.(); // only once the API really answers
  onShutdown(async () => {
    await app.close(); // stop taking requests, finish those in flight
    await container.close(); // then let the senders finish and close the database
  }, container);
}

/** `portico worker`: only the senders, for scaling delivery apart from the API. */
export async function work(config: Config): Promise<void> {
  const container = await createContainer(config);
  holdInstanceLock(config);
  container.startBackgroundCheckpoints();
  await container.startWorkers();
  // The senders' idle timers do not hold the event loop (by design, so tests and `serve` can
  // exit); a worker process has nothing else, so it holds itself open until told to stop.
  const hold = setInterval(() => {}, 60_000);
  container.logger.info({ engine: container.database.engine }, 'worker started');
  onShutdown(async () => {
    clearInterval(hold);
    await container.close();
  }, container);
}

function onShutdown(close: () => Promise<void>, container: Container): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    container.logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        container.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}

function printWelcome(
  c: Container,
  apiKey: string,
  adminToken: string,
  product: { id: string; units: Array<{ id: string }> },
  admin: { email: string; password?: string },
): void {
  const base =
    c.config.publicBaseUrl ?? `http://${c.config.host === '0.0.0.0' ? 'localhost' : c.config.host}:${c.config.port}`;
  const body = JSON.stringify({
    format: 'json',
    customer: { name: 'Ana Kovač' },
    lines: [{ productId: product.id, unitId: product.units[0]!.id, quantity: 2, note: 'Colour: RAL 9010 - Reinweiß' }],
  });
  process.stdout.write(
    [
      '',
      'Portico is running on an embedded SQLite database with a demo company.',
      '',
      `  Demo API key (location ZG1): ${apiKey}`,
      `  Demo admin token:            ${adminToken}`,
      `  API reference:               ${base}/docs`,
      '',
      `  Hub (back office):           ${base}/hub`,
      `    sign in as ${admin.email}`,
      `    password   ${admin.password}`,
      "    (every demo user's password: npx portico demo --json makes another demo company with them)",
      '',
      'Try it:',
      '',
      `  curl -s ${base}/api/v1/public/quotes \\`,
      `    -H 'Authorization: Bearer ${apiKey}' \\`,
      `    -H 'Content-Type: application/json' \\`,
      `    -d '${body}'`,
      '',
      `  (use "format":"pdf" and -o quote.pdf for the printable quotation)`,
      '',
    ].join('\n') + '\n',
  );
}
