import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The official EN 16931 artefacts (CEN/TC 434 release 1.3.16), UBL 2.1 and CII D16B schemas and
 * KoSIT's XRechnung rules live outside the repository, in `../shared/einvoice` (its README).
 * Tests that need them skip with this reason where the folder is absent.
 */
export const EINVOICE_DIR = path.resolve(process.cwd(), '..', 'shared', 'einvoice');
export const validationSkipped: string | false = fs.existsSync(path.join(EINVOICE_DIR, 'validate.mjs'))
  ? false
  : `the official e-invoice validation data is not at ${EINVOICE_DIR} (see test/README.md)`;

export interface ValidationReport {
  file: string;
  syntax: string;
  ok: boolean;
  failures: Array<{ rule: string; text: string }>;
  warnings: Array<{ rule: string; text: string }>;
}

const run = promisify(execFile);

/** Runs validate.mjs (xmllint for the schema, node-schematron for the rules) over one document. */
export async function validateEInvoice(
  name: string,
  xml: string,
  options: { xrechnung?: boolean } = {},
): Promise<ValidationReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-einvoice-'));
  const file = path.join(dir, `${name}.xml`);
  fs.writeFileSync(file, xml);
  const args = [path.join(EINVOICE_DIR, 'validate.mjs'), '--json', ...(options.xrechnung ? ['--xrechnung'] : []), file];
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, args, { cwd: process.cwd(), maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    // Exit 1 is "invalid" and still prints the report; anything else means it could not run.
    if (e.code !== 1 || !e.stdout) throw new Error(`validate.mjs could not run: ${e.stderr ?? String(error)}`);
    stdout = e.stdout;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return (JSON.parse(stdout) as ValidationReport[])[0]!;
}

/** The failed fatal rules, one per line, for an assertion message. */
export function failuresOf(report: ValidationReport): string {
  return report.failures.map((f) => `${f.rule}: ${f.text.slice(0, 300)}`).join('\n');
}
