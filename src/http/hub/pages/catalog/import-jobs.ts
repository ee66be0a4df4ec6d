import { randomUUID } from 'node:crypto';
import type { CatalogImport, ImportReport } from '../../../../modules/catalog/index.ts';

export interface ImportJob {
  id: string;
  fileName: string;
  phase: 'checking' | 'writing' | 'done' | 'failed';
  done: number;
  total: number;
  report: ImportReport | null;
  finishedAt: number | null;
  /** Settles when the import ends, for a plain POST that waits for it. */
  finished: Promise<void>;
}

const KEEP_MS = 60 * 60_000;

/**
 * Imports running in this process, by company and job id: a page polls one for its progress.
 * In memory on purpose: an import is one transaction, so after a restart there is nothing to
 * resume, and nothing half-written to report; the page then says the job is no longer known.
 */
export function createImportJobs(catalogImport: CatalogImport, onCrash: (error: unknown) => void) {
  const jobs = new Map<string, ImportJob>();
  const key = (companyId: string, id: string) => `${companyId}\u0000${id}`;

  function prune(now: number) {
    for (const [k, job] of jobs) if (job.finishedAt !== null && now - job.finishedAt > KEEP_MS) jobs.delete(k);
  }

  return {
    start(companyId: string, fileName: string, text: string): ImportJob {
      prune(Date.now());
      const job: ImportJob = {
        id: randomUUID(),
        fileName,
        phase: 'checking',
        done: 0,
        total: 0,
        report: null,
        finishedAt: null,
        finished: Promise.resolve(),
      };
      jobs.set(key(companyId, job.id), job);
      job.finished = catalogImport
        .importText(companyId, text, (p) => Object.assign(job, p))
        .then(
          (report) => {
            Object.assign(job, { phase: 'done', report, done: job.total });
          },
          (error: unknown) => {
            onCrash(error);
            job.phase = 'failed';
          },
        )
        .finally(() => {
          job.finishedAt = Date.now();
        });
      return job;
    },
    /** Another company's job reads as unknown. */
    find: (companyId: string, id: string): ImportJob | null => jobs.get(key(companyId, id)) ?? null,
  };
}
