import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, loadConfig } from '../config/config.ts';
import { createContainer, type Container } from '../container.ts';
import { createDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { AppError } from '../lib/errors.ts';
import { createLogger } from '../lib/logger.ts';
import type { SettingsPatch } from '../modules/companies/index.ts';
import { createDemoCompany } from '../modules/demo/index.ts';
import { serve, work } from './server.ts';
import { backup, BackupError, restore } from './backup.ts';

const HELP = `portico — the Portico API server and its administration

Usage: portico <command> [options]        (DATABASE_URL chooses the database for every command)

  serve [--demo-if-empty]                 run the API (and the senders unless WORKER=off); migrates first
  worker                                  run only the webhook and e-mail senders
  migrate                                 apply pending database migrations
  demo [--json]                           create a new demo company and print its keys
  company create --name N [--currency EUR] [--locale hr-HR] [--timezone Europe/Zagreb] [--prices-include-tax]
                 [profile options as in company update]
  company list                            every company: id, name, country, locale (to find an id)
  company update --company ID [--name N] [--street S --postal-code P --city C] [--country HR]
                 [--tax-id T] [--locale hr-HR] [--iban I --holder H [--bic B]] [--no-bank-account]
                 [--payment-instructions T]   (the print template may use {number}, {total}, {dueDate}, {customerName}, {reference})
  location create --company ID --name N --code ZG1 [--address A]
  user create --company ID --email E --name N --role admin|support|staff [--password P]
  user set-password --email E [--company ID]   new password read from stdin (never an argument); ends the user's sessions
  admin-token create --company ID --user ID [--name N]
  api-key create --company ID --location ID [--name N]
  api-key list --company ID
  api-key revoke --company ID --id KEY_ID
  catalog import <file.csv> --company ID  bulk products; all rows or none
  backup <dir>                            consistent copy of the SQLite database and DATA_DIR's files, while serving
  restore <dir> [--force]                 put a backup in place (server stopped); refuses a non-empty target unless --force

Run \`portico <command> --help\` for the same text. Environment variables: see README.md.
`;

class UsageError extends Error {}

type Options = ParseArgsConfig['options'];
const PROFILE = {
  street: { type: 'string' },
  'postal-code': { type: 'string' },
  city: { type: 'string' },
  country: { type: 'string' },
  'tax-id': { type: 'string' },
  locale: { type: 'string' },
  iban: { type: 'string' },
  bic: { type: 'string' },
  holder: { type: 'string' },
} as const;
const ARGS: Record<string, { options: Options; positionals?: boolean }> = {
  serve: { options: { 'demo-if-empty': { type: 'boolean' } } },
  worker: { options: {} },
  migrate: { options: {} },
  demo: { options: { json: { type: 'boolean' } } },
  'company create': {
    options: {
      name: { type: 'string' },
      currency: { type: 'string' },
      timezone: { type: 'string' },
      'prices-include-tax': { type: 'boolean' },
      ...PROFILE,
    },
  },
  'company list': { options: {} },
  'company update': {
    options: {
      company: { type: 'string' },
      name: { type: 'string' },
      ...PROFILE,
      'no-bank-account': { type: 'boolean' },
      'payment-instructions': { type: 'string' },
    },
  },
  'location create': {
    options: {
      company: { type: 'string' },
      name: { type: 'string' },
      code: { type: 'string' },
      address: { type: 'string' },
    },
  },
  'user create': {
    options: {
      company: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
    },
  },
  'user set-password': { options: { email: { type: 'string' }, company: { type: 'string' } } },
  'admin-token create': {
    options: { company: { type: 'string' }, user: { type: 'string' }, name: { type: 'string' } },
  },
  'api-key create': {
    options: { company: { type: 'string' }, location: { type: 'string' }, name: { type: 'string' } },
  },
  'api-key list': { options: { company: { type: 'string' } } },
  'api-key revoke': { options: { company: { type: 'string' }, id: { type: 'string' } } },
  'catalog import': { options: { company: { type: 'string' } }, positionals: true },
  backup: { options: {}, positionals: true },
  restore: { options: { force: { type: 'boolean' } }, positionals: true },
};

/** The profile options given; an address needs its street, a bank account its IBAN and holder. */
function profileOptions(
  v: Record<string, unknown>,
): Omit<SettingsPatch, 'name' | 'quotationValidityDays' | 'printTemplate'> {
  const text = (name: string) => (typeof v[name] === 'string' ? v[name] : undefined);
  const patch: ReturnType<typeof profileOptions> = {};
  if (text('street') !== undefined || text('postal-code') !== undefined || text('city') !== undefined) {
    patch.address = { street: need(v, 'street'), postalCode: text('postal-code') ?? null, city: text('city') ?? null };
  }
  if (text('country') !== undefined) patch.country = text('country');
  if (text('tax-id') !== undefined) patch.taxId = text('tax-id');
  if (text('locale') !== undefined) patch.locale = text('locale');
  if (text('iban') !== undefined || text('holder') !== undefined || text('bic') !== undefined) {
    patch.bankAccount = { iban: need(v, 'iban'), holder: need(v, 'holder'), bic: text('bic') ?? null };
  }
  return patch;
}

function need(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`missing --${name}`);
  return value;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('New password (then Enter, Ctrl-D): ');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Where a command reads its settings and writes its answers: the process's own, or a test's. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: NodeJS.ProcessEnv;
}

const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env };

/**
 * A command's container. Its log goes to stderr: stdout is the command's answer, which a script
 * reads whole (`portico demo --json | jq`), and a start-up warning there broke the JSON.
 */
async function withContainer<T>(io: CliIo, run: (c: Container) => Promise<T>): Promise<T> {
  const config = loadConfig(io.env);
  const logger = createLogger(config.logLevel, { write: (line: string) => void io.stderr.write(line) });
  const container = await createContainer(config, { logger });
  try {
    return await run(container);
  } finally {
    await container.close();
  }
}

/** One command's parsed arguments, and where it answers. */
interface Invocation {
  name: string;
  v: Record<string, unknown>;
  positionals: string[];
  io: CliIo;
  print: (value: unknown) => unknown;
}

async function backupOrRestore({ name, v, positionals, io }: Invocation): Promise<number> {
  const dir = positionals[0];
  if (!dir) throw new UsageError('missing <dir>');
  const config = loadConfig(io.env);
  try {
    const manifest = name === 'backup' ? backup(config, dir) : restore(config, dir, { force: v.force === true });
    io.stdout.write(
      `${name === 'backup' ? 'backed up to' : 'restored from'} ${dir}: database, ${manifest.datasheets} datasheet file(s), secrets key: ${manifest.secretsKey}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      io.stderr.write(`portico: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** Each command of ARGS, run: an exit code, or -1 for a process that keeps running. */
const COMMANDS: Record<string, (run: Invocation) => Promise<number>> = {
  serve: async ({ v, io }) => {
    await serve(loadConfig(io.env), { demoIfEmpty: v['demo-if-empty'] === true });
    return -1; // keeps running
  },
  worker: async ({ io }) => {
    await work(loadConfig(io.env));
    return -1;
  },
  migrate: async ({ io }) => {
    const database = createDatabase(loadConfig(io.env).databaseUrl);
    try {
      const applied = await migrateToLatest(database);
      io.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'up to date\n');
    } finally {
      await database.close();
    }
    return 0;
  },
  demo: async ({ v, io }) => {
    return withContainer(io, async (c) => {
      const demo = await createDemoCompany(c, { passwords: true });
      if (v.json) io.stdout.write(`${JSON.stringify(demo)}\n`);
      else
        io.stdout.write(
          `Demo company ${demo.companyId}\n  API key (${demo.locations[0]!.code}): ${demo.locations[0]!.apiKey}\n  API key (${demo.locations[1]!.code}): ${demo.locations[1]!.apiKey}\n  Admin token: ${demo.adminToken}\n${demo.users.map((u) => `  Hub sign-in (${u.role}): ${u.email} / ${u.password}\n`).join('')}`,
        );
      return 0;
    });
  },
  'company create': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      const profile = profileOptions(v);
      print(
        await c.companies.createCompany({
          name: need(v, 'name'),
          currency: v.currency as string | undefined,
          locale: profile.locale,
          timezone: v.timezone as string | undefined,
          pricesIncludeTax: v['prices-include-tax'] === true,
          address: profile.address
            ? {
                street: profile.address.street,
                postalCode: profile.address.postalCode ?? null,
                city: profile.address.city ?? null,
              }
            : null,
          country: profile.country,
          taxId: profile.taxId,
          bankAccount: profile.bankAccount ? { bic: null, ...profile.bankAccount } : null,
        }),
      );
      return 0;
    });
  },
  'company list': async ({ io, print }) => {
    return withContainer(io, async (c) => {
      print(
        (await c.companies.listCompanies()).map((company) => ({
          id: company.id,
          name: company.name,
          country: company.country,
          locale: company.locale,
          currency: company.currency,
          createdAt: company.createdAt,
        })),
      );
      return 0;
    });
  },
  'company update': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      const patch: SettingsPatch = { ...profileOptions(v) };
      if (typeof v.name === 'string') patch.name = v.name;
      if (v['no-bank-account'] === true) {
        if (patch.bankAccount) throw new UsageError('--no-bank-account and --iban exclude each other');
        patch.bankAccount = null;
      }
      if (typeof v['payment-instructions'] === 'string')
        patch.printTemplate = { paymentInstructions: v['payment-instructions'] };
      if (Object.keys(patch).length === 0) throw new UsageError('nothing to update: give at least one option');
      print(await c.companies.updateSettings(need(v, 'company'), patch));
      return 0;
    });
  },
  'location create': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      print(
        await c.companies.createLocation(need(v, 'company'), {
          name: need(v, 'name'),
          code: need(v, 'code'),
          address: (v.address as string | undefined) ?? null,
        }),
      );
      return 0;
    });
  },
  'user create': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      print(
        await c.companies.createUser(need(v, 'company'), {
          email: need(v, 'email'),
          name: need(v, 'name'),
          role: need(v, 'role'),
          password: v.password as string | undefined,
        }),
      );
      return 0;
    });
  },
  'user set-password': async ({ v, io, print }) => {
    const email = need(v, 'email');
    // From stdin, so the password is in no shell history and no process list.
    const password = (await readStdin()).replace(/\r?\n$/, '');
    if (password === '') throw new UsageError('give the new password on stdin');
    return withContainer(io, async (c) => {
      const done = await c.accounts.setPasswordByEmail(email, (v.company as string | undefined) ?? null, password);
      print({ ...done, sessionsEnded: true });
      return 0;
    });
  },
  'admin-token create': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      print(
        await c.apiKeys.createAdminToken(need(v, 'company'), {
          userId: need(v, 'user'),
          name: (v.name as string | undefined) ?? 'CLI',
        }),
      );
      return 0;
    });
  },
  'api-key create': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      print(
        await c.apiKeys.createApiKey(need(v, 'company'), {
          locationId: need(v, 'location'),
          name: (v.name as string | undefined) ?? 'CLI',
        }),
      );
      return 0;
    });
  },
  'api-key list': async ({ v, io, print }) => {
    return withContainer(io, async (c) => {
      print(await c.apiKeys.listApiKeys(need(v, 'company')));
      return 0;
    });
  },
  'api-key revoke': async ({ v, io }) => {
    return withContainer(io, async (c) => {
      await c.apiKeys.revokeApiKey(need(v, 'company'), need(v, 'id'));
      io.stdout.write('revoked\n');
      return 0;
    });
  },
  backup: backupOrRestore,
  restore: backupOrRestore,
  'catalog import': async ({ v, positionals, io, print }) => {
    const file = positionals[0];
    if (!file) throw new UsageError('missing <file.csv>');
    return withContainer(io, async (c) => {
      const report = await c.catalogImport.importCsv(need(v, 'company'), file);
      print(report);
      return report.errors.length > 0 ? 1 : 0;
    });
  },
};

export async function main(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    io.stdout.write(HELP);
    return argv.length === 0 ? 2 : 0;
  }
  const two = `${argv[0]} ${argv[1] ?? ''}`;
  const name = ARGS[two] ? two : argv[0]!;
  const spec = ARGS[name];
  const command = COMMANDS[name];
  if (!spec || !command) throw new UsageError(`unknown command "${argv[0]}"`);
  const rest = argv.slice(name.split(' ').length);
  if (rest.includes('--help') || rest.includes('-h')) {
    io.stdout.write(HELP);
    return 0;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rest,
      options: spec.options,
      allowPositionals: spec.positionals ?? false,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]!);
  }
  return command({
    name,
    v: parsed.values as Record<string, unknown>,
    positionals: parsed.positionals,
    io,
    print: (value: unknown) => io.stdout.write(`${JSON.stringify(value, null, 2)}\n`),
  });
}

/** Runs the CLI and answers its exit code: 2 for usage or configuration mistakes, 1 for failures, -1 for a server that keeps running. */
export function runCli(argv: string[], io: CliIo = PROCESS_IO): Promise<number> {
  return main(argv, io).then(
    (code) => code,
    (error: unknown) => {
      if (error instanceof UsageError) {
        io.stderr.write(`portico: ${error.message} (see portico --help)\n`);
        return 2;
      } else if (error instanceof ConfigError) {
        io.stderr.write(`portico: ${error.message}\n`);
        return 2;
      } else if (error instanceof AppError) {
        const details = error.details
          ? ` ${Object.entries(error.details)
              .map(([k, m]) => `${k}: ${m.join(' ')}`)
              .join('; ')}`
          : '';
        io.stderr.write(`portico: ${error.message}${details}\n`);
        return 1;
      } else {
        io.stderr.write(`portico: ${(error as Error).stack ?? String(error)}\n`);
        return 1;
      }
    },
  );
}

/** The command line of this process: its exit code set when the command ends (a server's never). */
export function runProcessCli(argv: string[]): void {
  void runCli(argv).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}

if (import.meta.main) runProcessCli(process.argv.slice(2));
