import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database, Engine, Executor } from './database.ts';

/**
 * Builds the repositories over one executor (the database itself or an open transaction). The
 * composition root passes its registry in (src/repositories.ts), so this layer knows no module.
 */
export type RepositoriesFactory<R> = (db: Executor, engine: Engine) => R;

/**
 * Work that must commit with the resource a unit of work creates, given that resource's id:
 * the completion of the request's Idempotency-Key, for one.
 */
export type CommitHook<R> = (repos: R, createdId: string) => Promise<void>;

/**
 * The commit hooks registered for one request (one async context). A unit of work that creates
 * the request's resource runs them in its transaction; once it has committed they are spent.
 * Each service sees the store over its own slice of the repositories and registers its hooks
 * against that slice; only the store, which holds every repository, runs them, so to the
 * services these are opaque (hooks of `never`: any hook fits, none can be called).
 */
export interface PendingHooks {
  readonly hooks: Array<CommitHook<never>>;
}

/** A resource a unit of work creates, and the hooks that commit with it. */
export interface Created {
  id: string;
  hooks: PendingHooks;
}

export interface UnitOfWorkOptions {
  /**
   * What the work creates: an id (the hooks registered in the caller's context commit with it),
   * or, for a batch written on behalf of several callers, each id with its caller's hooks.
   */
  creates?: string | ReadonlyArray<Created>;
  /**
   * The work is one repository write that the repositories make a single statement where the
   * engine can (PostgreSQL). Such a statement commits as a whole by itself, so unless hooks
   * must commit with it the store sends it without BEGIN and COMMIT round trips.
   */
  oneStatement?: boolean;
}

/**
 * The services' door to the database: `repos` for single reads and writes; `unitOfWork` for a
 * use case that must commit as a whole (a record, its outbox event and the hooks registered for
 * it). Whether that takes a transaction is the store's choice, never the service's.
 */
export interface Store<R> {
  readonly repos: R;
  /**
   * How many units of work are worth committing side by side: one on SQLite, which has a single
   * writer; a few on PostgreSQL, whose pool commits several at once and keeps connections for reads.
   */
  readonly writeConcurrency: number;
  unitOfWork<T>(work: (repos: R) => Promise<T>, options?: UnitOfWorkOptions): Promise<T>;
  /** A unit of work that creates nothing of a caller's: always one transaction. */
  transaction<T>(work: (repos: R) => Promise<T>): Promise<T>;
  /** Runs `run` with `hook` registered: the unit of work within it that creates a resource runs the hook in its transaction. */
  withCommitHook<T>(hook: CommitHook<R>, run: () => Promise<T>): Promise<T>;
  /** The caller's registered hooks, for a unit of work that will run in another context (a group commit's batch). */
  pendingHooks(): PendingHooks;
  /** The database answers (readiness). */
  ping(): Promise<void>;
}

export function createStore<R>(database: Database, createRepositories: RepositoriesFactory<R>): Store<R> {
  const repos = createRepositories(database.db, database.engine);
  const context = new AsyncLocalStorage<{ hooks: Array<CommitHook<R>> }>();
  const pendingHooks = (): PendingHooks => context.getStore() ?? { hooks: [] };

  function createdOf(creates: UnitOfWorkOptions['creates']): ReadonlyArray<Created> {
    if (creates === undefined) return [];
    return typeof creates === 'string' ? [{ id: creates, hooks: pendingHooks() }] : creates;
  }

  async function unitOfWork<T>(work: (repos: R) => Promise<T>, options: UnitOfWorkOptions = {}): Promise<T> {
    const created = createdOf(options.creates).filter((c) => c.hooks.hooks.length > 0);
    // SQLite writes even "one statement" as several, and its transactions cost no round trip.
    if (options.oneStatement && created.length === 0 && database.engine === 'postgres') return work(repos);
    const result = await database.db.transaction().execute(async (tx) => {
      const txRepos = createRepositories(tx, database.engine);
      const value = await work(txRepos);
      // Every hook was registered against a slice of these repositories: this store's, whole.
      for (const c of created) for (const hook of c.hooks.hooks) await (hook as CommitHook<R>)(txRepos, c.id);
      return value;
    });
    // Committed: a hook belongs to the one creation it committed with.
    for (const c of created) c.hooks.hooks.length = 0;
    return result;
  }

  return {
    repos,
    writeConcurrency: database.engine === 'postgres' ? 4 : 1,

    unitOfWork,
    transaction: (work) => unitOfWork(work),

    withCommitHook(hook, run) {
      const outer = context.getStore();
      return context.run({ hooks: [...(outer?.hooks ?? []), hook] }, run);
    },

    pendingHooks,

    ping: () => database.ping(),
  };
}
