import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/http/build-app.ts';
import type { DemoCompany } from '../../src/modules/demo/demo-company.ts';
import { bearer } from './test-app.ts';

const run = promisify(execFile);

export const QUOTES = '/api/v1/public/quotes';
export const PRODUCTS = '/api/v1/public/products';

/** A quote line for the demo tenant's product `i` (unit `unit`), with extra fields merged in. */
export function line(d: DemoCompany, i: number, quantity: unknown = 1, extra: Record<string, unknown> = {}, unit = 0) {
  const product = d.products[i]!;
  return { productId: product.id, unitId: product.units[unit]!.id, quantity, ...extra };
}

export function postQuote(app: App, key: string, body: unknown, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: QUOTES, headers: { ...bearer(key), ...headers }, payload: body as object });
}

export function getJson(app: App, key: string, url: string) {
  return app.inject({ method: 'GET', url, headers: bearer(key) });
}

/** The problem body of a 400, asserting on the way that it is one. */
export function problemOf(res: LightMyRequestResponse): {
  status: number;
  code: string;
  detail: string;
  details: Record<string, string[]>;
} {
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(
      `expected a problem response, got ${res.statusCode} ${String(res.headers['content-type'])}: ${res.body.slice(0, 300)}`,
    );
  }
  const body = res.json() as { status: number; code: string; detail: string; details?: Record<string, string[]> };
  return { status: body.status, code: body.code, detail: body.detail, details: body.details ?? {} };
}

/** The calendar year where the demo company is. */
export function yearInZagreb(at = new Date()): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Zagreb', year: 'numeric' }).format(at));
}

export const seq = (n: number) => String(n).padStart(5, '0');

async function withPdfFile<T>(pdf: Buffer, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'portico-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await fs.writeFile(file, pdf);
    return await fn(file);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** `pdftotext -layout`, of one page when `page` is given; white space (incl. NBSP) folded to single spaces. */
export function pdfText(pdf: Buffer, page?: number): Promise<string> {
  return withPdfFile(pdf, async (file) => {
    const range = page === undefined ? [] : ['-f', String(page), '-l', String(page)];
    const { stdout } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', ...range, file, '-'], {
      maxBuffer: 32 * 1024 * 1024,
    });
    return stdout.replace(/\s+/g, ' ');
  });
}

export function pdfPageCount(pdf: Buffer): Promise<number> {
  return withPdfFile(pdf, async (file) => Number((await run('qpdf', ['--show-npages', file])).stdout.trim()));
}

/** `qpdf --check`: its exit code (0 = no errors or warnings) and output. */
export function qpdfCheck(pdf: Buffer): Promise<{ code: number; output: string }> {
  return withPdfFile(pdf, async (file) => {
    try {
      const { stdout, stderr } = await run('qpdf', ['--check', file]);
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const e = error as { code?: number; stdout?: string; stderr?: string };
      return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
    }
  });
}

export const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';
