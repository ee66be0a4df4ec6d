import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

/**
 * The official EN 16931 artefacts (CEN/TC 434 release 1.3.16), UBL 2.1 and CII D16B schemas and
 * KoSIT's XRechnung rules live outside the repository, in `../shared/einvoice` (its README).
 * Tests that need them skip with this reason where the folder is absent.
 */
export const EINVOICE_DIR = path.resolve(process.cwd(), '..', 'shared', 'einvoice');
export const validationSkipped: string | false = fs.existsSync(path.join(EINVOICE_DIR, 'en16931'))
  ? false
  : `the official e-invoice validation data is not at ${EINVOICE_DIR} (see test/README.md)`;

/**
 * The rules run on Saxon-HE, a reference XSLT 2.0 engine (Debian's libsaxonhe-java, which .ci/run
 * installs), after schematron-to-xslt.xsl compiles them: node-schematron's XPath engine (fontoxpath)
 * stopped on XRechnung's CII rules (FORG0006) and on BR-DE-19's integer past 2^53, and took 11 s of
 * CPU for a UBL and 45 s for a CII document where one Saxon process takes about 3 s for either.
 */
const SAXON_JAR = '/usr/share/java/Saxon-HE.jar';
const BATCH_XSL = path.join(import.meta.dirname, 'schematron-batch.xsl');

type Syntax = 'cii' | 'ubl-invoice' | 'ubl-creditnote';

const XSD: Record<Syntax, string> = {
  cii: 'cii-d16b/CrossIndustryInvoice_100pD16B.xsd',
  'ubl-invoice': 'ubl-2.1/xsd/maindoc/UBL-Invoice-2.1.xsd',
  'ubl-creditnote': 'ubl-2.1/xsd/maindoc/UBL-CreditNote-2.1.xsd',
};

/** The rule files for a syntax: EN 16931's, and XRechnung's on top when asked. */
function rulesFor(syntax: Syntax, xrechnung: boolean): string[] {
  const cii = syntax === 'cii';
  const rules = [path.join(EINVOICE_DIR, 'en16931', cii ? 'EN16931-CII-validation.sch' : 'EN16931-UBL-validation.sch')];
  if (xrechnung) {
    rules.push(
      path.join(
        EINVOICE_DIR,
        'xrechnung',
        cii ? 'cii/XRechnung-CII-validation.sch' : 'ubl/XRechnung-UBL-validation.sch',
      ),
    );
  }
  return rules;
}

export interface ValidationReport {
  file: string;
  syntax: string;
  ok: boolean;
  /** Failed fatal rules, and the schema ('XSD') when the document does not validate against it. */
  failures: Array<{ rule: string; text: string }>;
  /** Failed rules flagged warning or information: reported, never failing the document. */
  warnings: Array<{ rule: string; text: string }>;
}

export interface DocumentToValidate {
  name: string;
  xml: string;
  xrechnung?: boolean;
}

const run = promisify(execFile);

function syntaxOf(xml: string): Syntax {
  const head = xml.slice(0, 2000);
  if (/CrossIndustryInvoice/.test(head)) return 'cii';
  return /<(\w+:)?CreditNote[\s>]/.test(head) ? 'ubl-creditnote' : 'ubl-invoice';
}

/** xmllint's verdict on one file against its syntax's XSD: the first lines of its complaint, or null. */
async function schemaErrors(file: string, syntax: Syntax): Promise<string | null> {
  try {
    await run('xmllint', ['--noout', '--schema', path.join(EINVOICE_DIR, XSD[syntax]), file]);
    return null;
  } catch (error) {
    const e = error as { code?: number | string; stderr?: string };
    if (e.code === 'ENOENT') throw new Error('xmllint is not installed (Debian package libxml2-utils)');
    return String(e.stderr ?? error)
      .trim()
      .split('\n')
      .slice(0, 5)
      .join(' | ');
  }
}

/** A failed assert (or a successful report) of a Schematron rule file on one document. */
export interface RuleFailure {
  rule: string;
  flag: string;
  text: string;
}

/**
 * Runs Schematron rule files over documents (paths) in one Saxon process: each rule file is compiled
 * once (schematron-to-xslt.xsl) and run on each of its documents. The failed rules per document and
 * rule file, in the order asked.
 */
export async function runSchematron(
  jobs: Array<{ rules: string; files: string[] }>,
): Promise<Array<{ rules: string; file: string; failed: RuleFailure[] }>> {
  if (!fs.existsSync(SAXON_JAR)) {
    throw new Error(`Saxon-HE is not at ${SAXON_JAR} (Debian: apt-get install libsaxonhe-java default-jre-headless)`);
  }
  const href = (file: string) => pathToFileURL(file).href;
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const batch = [
    '<batch>',
    ...jobs.map(
      (j) =>
        `<schema href="${attr(href(j.rules))}">${j.files.map((f) => `<document href="${attr(href(f))}"/>`).join('')}</schema>`,
    ),
    '</batch>',
  ].join('\n');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-schematron-'));
  let stdout: string;
  try {
    const batchFile = path.join(dir, 'batch.xml');
    fs.writeFileSync(batchFile, batch);
    ({ stdout } = await run('java', ['-jar', SAXON_JAR, `-s:${batchFile}`, `-xsl:${BATCH_XSL}`], {
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: { stderr?: string }) => {
      throw new Error(`Saxon could not run the rules: ${error.stderr ?? String(error)}`);
    }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  // One line per failed rule (document, rule file, id, flag, text) and one "document, rule file,
  // checked" after each run, so that a document the engine skipped cannot pass for a clean one.
  const failed = new Map<string, RuleFailure[]>();
  const checked = new Set<string>();
  for (const line of stdout.split('\n')) {
    if (!line) continue;
    const [doc, rules, id, flag, text] = line.split('\t') as [string, string, string, string?, string?];
    const key = `${doc}\t${rules}`;
    if (id === 'checked' && flag === undefined) checked.add(key);
    else failed.set(key, [...(failed.get(key) ?? []), { rule: id, flag: flag || 'fatal', text: text ?? '' }]);
  }
  return jobs.flatMap((j) =>
    j.files.map((file) => {
      const key = `${href(file)}\t${href(j.rules)}`;
      if (!checked.has(key)) throw new Error(`Saxon did not report on ${file} with ${j.rules}`);
      return { rules: j.rules, file, failed: failed.get(key) ?? [] };
    }),
  );
}

/**
 * Validates documents against their syntax's schema (xmllint) and the EN 16931 rules, plus XRechnung's
 * where asked, with one Saxon process for the whole batch (the JVM's start and the rules' compilation
 * are most of the time).
 */
export async function validateEInvoices(documents: DocumentToValidate[]): Promise<ValidationReport[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-einvoice-'));
  try {
    const files = documents.map((d, i) => {
      const file = path.join(dir, `${i}-${d.name.replace(/[^\w.-]/g, '_')}.xml`);
      fs.writeFileSync(file, d.xml);
      return { ...d, file, syntax: syntaxOf(d.xml) };
    });
    const jobs = new Map<string, string[]>();
    for (const f of files) {
      for (const rules of rulesFor(f.syntax, f.xrechnung ?? false))
        jobs.set(rules, [...(jobs.get(rules) ?? []), f.file]);
    }
    const [schemaResults, ruleResults] = await Promise.all([
      Promise.all(files.map((f) => schemaErrors(f.file, f.syntax))),
      runSchematron([...jobs].map(([rules, paths]) => ({ rules, files: paths }))),
    ]);
    return files.map((f, i) => {
      const failures: ValidationReport['failures'] = [];
      const warnings: ValidationReport['warnings'] = [];
      const xsd = schemaResults[i];
      if (xsd) failures.push({ rule: 'XSD', text: xsd });
      for (const r of ruleResults.filter((r) => r.file === f.file).flatMap((r) => r.failed)) {
        (r.flag === 'warning' || r.flag === 'information' ? warnings : failures).push({ rule: r.rule, text: r.text });
      }
      return { file: f.name, syntax: f.syntax, ok: failures.length === 0, failures, warnings };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One document. Calls made in the same turn (a Promise.all over several documents) share one batch,
 * so they share one Saxon process.
 */
export function validateEInvoice(
  name: string,
  xml: string,
  options: { xrechnung?: boolean } = {},
): Promise<ValidationReport> {
  return new Promise((resolve, reject) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ document: { name, xml, xrechnung: options.xrechnung }, resolve, reject });
  });
}

let pending: Array<{
  document: DocumentToValidate;
  resolve: (report: ValidationReport) => void;
  reject: (error: unknown) => void;
}> = [];

function flush() {
  const batch = pending;
  pending = [];
  validateEInvoices(batch.map((p) => p.document)).then(
    (reports) => batch.forEach((p, i) => p.resolve(reports[i]!)),
    (error) => batch.forEach((p) => p.reject(error)),
  );
}

/** The failed fatal rules, one per line, for an assertion message. */
export function failuresOf(report: ValidationReport): string {
  return report.failures.map((f) => `${f.rule}: ${f.text.slice(0, 300)}`).join('\n');
}
