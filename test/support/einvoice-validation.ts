import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The official e-invoice rules, run as the tax authorities and receivers run them: the syntax's XML
 * Schema (xmllint), the EN 16931 Schematron (CEN/TC 434 1.3.16), and the national rules a document
 * declares, XRechnung 3.0 (KoSIT) or HR-CIUS 2025 (Porezna uprava). Everything is vendored in
 * `test/fixtures/einvoice/` (its README: origins, versions, licences); the Schematron files are compiled
 * to XSLT with SchXslt 1.10.1 and run on Saxon-HE. A missing tool or rule file fails the run with the
 * line that installs it: an e-invoice test never passes without checking.
 */
export const EINVOICE_FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'einvoice');
const fixture = (rel: string) => path.join(EINVOICE_FIXTURES, rel);

export const INSTALL_LINE = 'apt-get install -y libxml2-utils libsaxonhe-java default-jre-headless';

type RuleSet = 'en16931-ubl' | 'en16931-cii' | 'xrechnung-ubl' | 'xrechnung-cii' | 'hr-cius';

const RULE_FILES: Record<RuleSet, string> = {
  'en16931-ubl': 'en16931/EN16931-UBL-validation.sch',
  'en16931-cii': 'en16931/EN16931-CII-validation.sch',
  'xrechnung-ubl': 'xrechnung/ubl/XRechnung-UBL-validation.sch',
  'xrechnung-cii': 'xrechnung/cii/XRechnung-CII-validation.sch',
  'hr-cius': 'hr-cius/HR-CIUS-EXT-EN16931-UBL.sch',
};

type Syntax = 'cii' | 'ubl-invoice' | 'ubl-creditnote';

const XSD: Record<Syntax, string> = {
  cii: 'cii-d16b/CrossIndustryInvoice_100pD16B.xsd',
  'ubl-invoice': 'maindoc/UBL-Invoice-2.1.xsd',
  'ubl-creditnote': 'maindoc/UBL-CreditNote-2.1.xsd',
};

/**
 * The Croatian overlay as its instruction (UPUTE.txt) says: add HRExtensionAggregateComponents-1.xsd to
 * UBL's common/ and replace UBL-CommonExtensionComponents-2.1.xsd; the HR extension content is then
 * schema-checked where plain UBL skips it.
 */
const HR_OVERLAY = ['HRExtensionAggregateComponents-1.xsd', 'UBL-CommonExtensionComponents-2.1.xsd'];
const HR_CUSTOMIZATION = 'urn:mfin.gov.hr:cius-2025';

/**
 * KoSIT's XRechnung reference configuration (validator-configuration-xrechnung 2026-01-31, scenarios.xml
 * `customLevel`, CIUS scenario) re-levels a few CEN rules when the XRechnung rules run; Portico writes the
 * CIUS only, so only its levels are kept.
 */
const XRECHNUNG_LEVELS: Record<Syntax, Record<string, string>> = {
  'ubl-invoice': { 'BR-CL-21': 'warning', 'BR-CL-23': 'warning', 'UBL-CR-646': 'error' },
  'ubl-creditnote': { 'BR-CL-21': 'warning', 'BR-CL-23': 'warning' },
  cii: {
    'BR-CL-21': 'warning',
    'BR-CL-23': 'warning',
    'CII-SR-452': 'error',
    'CII-SR-453': 'error',
    'CII-SR-454': 'error',
  },
};

// Short runs: the client compiler only, the serial collector, no JVM log lines.
const JVM_ARGS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xss8m', '-Xshare:auto', '-Xlog:disable'];
const COMPILE_SETTINGS = 'schxslt.svrl.compact=true;schxslt.compile.metadata=false';

export interface Finding {
  rule: string;
  flag: string;
  text: string;
}

export interface ValidationReport {
  file: string;
  syntax: Syntax;
  /** What ran: `xsd:ubl-2.1`, `xsd:ubl-2.1+hr`, `xsd:cii-d16b`, then the rule sets. */
  checks: string[];
  ok: boolean;
  /** The schema ('XSD') and every failed fatal/error rule. */
  failures: Finding[];
  /** Rules flagged warning or information: reported, never failing the document. */
  warnings: Finding[];
}

export interface DocumentToValidate {
  name: string;
  xml: string;
  /** Run XRechnung's rules even when the document does not declare XRechnung. */
  xrechnung?: boolean;
}

// ---------------------------------------------------------------------------------------------------------
// Tools and files: all present, or the run fails saying what to install.

interface Tools {
  xmllint: string;
  java: string;
  saxon: string;
}

let tools: Tools | undefined;

function which(command: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, command))) return path.join(dir, command);
  }
  return null;
}

/** The tools and every vendored file the rules need; throws naming what is missing and how to install it. */
export function requireValidationTools(): Tools {
  if (tools) return tools;
  const missing: string[] = [];
  const xmllint = which('xmllint');
  if (!xmllint) missing.push('xmllint (package libxml2-utils)');
  const java = which('java');
  if (!java) missing.push('java (package default-jre-headless)');
  // SAXON_JAR as scripts/test-tools.sh reads it (elsewhere than Debian's place).
  const saxon = [process.env.SAXON_JAR, '/usr/share/java/Saxon-HE.jar', '/usr/share/java/saxon9he.jar'].find(
    (p): p is string => Boolean(p) && fs.existsSync(p!),
  );
  if (!saxon) missing.push('Saxon-HE (package libsaxonhe-java, /usr/share/java/Saxon-HE.jar, or SAXON_JAR)');
  const files = [
    ...Object.values(RULE_FILES),
    XSD.cii,
    `ubl-2.1/xsd/${XSD['ubl-invoice']}`,
    `ubl-2.1/xsd/${XSD['ubl-creditnote']}`,
    ...HR_OVERLAY.map((f) => `hr-cius/ubl-2.1-overlay/${f}`),
    'hr-cius/codelist/HR-CIUS-EXT-EN16931-UBL-codes.sch',
    'xrechnung/common.sch',
    'schxslt/2.0/pipeline-for-svrl.xsl',
  ].filter((rel) => !fs.existsSync(fixture(rel)));
  if (files.length) missing.push(`rule files in ${EINVOICE_FIXTURES}: ${files.join(', ')} (restore them from git)`);
  if (missing.length || !xmllint || !java || !saxon) {
    throw new Error(
      `e-invoice validation cannot run; missing: ${missing.join('; ')}. On Debian/Ubuntu: ${INSTALL_LINE}`,
    );
  }
  tools = { xmllint, java, saxon };
  return tools;
}

// ---------------------------------------------------------------------------------------------------------
// The cache: compiled rules, the HR schema set and Java's class-data archive, in the OS temp folder,
// each keyed by a hash of what it is made from (a changed rule file is compiled again on the next run).

const CACHE_DIR = path.join(
  os.tmpdir(),
  `portico-einvoice-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`,
);

const sha = (...parts: Array<string | Buffer>) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex');
};

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** A hash of a .sch, every file it includes (recursively), SchXslt and the compile settings. */
function ruleFileKey(sch: string): string {
  const parts: Buffer[] = [];
  const seen = new Set<string>();
  const add = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = fs.readFileSync(file);
    parts.push(text);
    for (const m of text.toString('utf8').matchAll(/<(?:[\w.-]+:)?(?:include|extends)\b[^>]*?\bhref\s*=\s*"([^"#]+)"/g))
      add(path.resolve(path.dirname(file), m[1]!));
  };
  add(sch);
  const schxslt = filesUnder(fixture('schxslt/2.0')).map((f) => fs.readFileSync(f));
  return sha(...parts, ...schxslt, COMPILE_SETTINGS).slice(0, 20);
}

/** The UBL 2.1 schemas with the HR overlay applied: a copy under the cache folder, built once per content. */
function hrSchemaDir(): string {
  const base = fixture('ubl-2.1/xsd');
  const overlay = fixture('hr-cius/ubl-2.1-overlay');
  const key = sha(
    ...filesUnder(base).map((f) => `${path.relative(base, f)}\0${fs.statSync(f).size}`),
    ...HR_OVERLAY.map((f) => fs.readFileSync(path.join(overlay, f))),
  ).slice(0, 16);
  const dir = path.join(CACHE_DIR, `ubl-2.1-hr-${key}`);
  if (fs.existsSync(path.join(dir, 'complete'))) return dir;
  const tmp = `${dir}.tmp-${process.pid}`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.cpSync(base, tmp, { recursive: true });
  for (const f of HR_OVERLAY) fs.cpSync(path.join(overlay, f), path.join(tmp, 'common', f));
  fs.writeFileSync(path.join(tmp, 'complete'), `UBL 2.1 with the HR overlay (${HR_OVERLAY.join(', ')})\n`);
  try {
    fs.renameSync(tmp, dir);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another process built it first
  }
  return dir;
}

// ---------------------------------------------------------------------------------------------------------
// Running the tools.

function runTool(
  file: string,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string; error?: Error }> {
  return new Promise((resolve) => {
    execFile(file, args, { encoding: 'utf8', maxBuffer: 256 << 20 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr, ...(error && code === null ? { error } : {}) });
    });
  });
}

/** One xmllint run for every document on one schema: the schema errors per path (empty when valid). */
async function schemaErrors(xsd: string, paths: string[]): Promise<Map<string, string[]>> {
  const r = await runTool(requireValidationTools().xmllint, ['--noout', '--nonet', '--schema', xsd, ...paths]);
  if (r.error) throw new Error(`xmllint could not run: ${r.error.message}`);
  const out = `${r.stderr}\n${r.stdout}`;
  if (/failed to compile|Schemas parser error/.test(out))
    throw new Error(`the schema ${xsd} could not be loaded: ${out.trim().split('\n').slice(0, 3).join(' | ')}`);
  const byLength = [...paths].sort((a, b) => b.length - a.length);
  const found = new Map(paths.map((p) => [p, { valid: false, errors: [] as string[] }]));
  for (const line of out.split('\n')) {
    const p = byLength.find((q) => line.startsWith(`${q}:`) || line.startsWith(`${q} `));
    if (!p) continue;
    const entry = found.get(p)!;
    const rest = line.slice(p.length);
    if (rest === ' validates') entry.valid = true;
    else if (rest.startsWith(':')) entry.errors.push(rest.replace(/^:(\d+): /, 'line $1: '));
  }
  return new Map(
    [...found].map(([p, e]) => [p, e.valid ? [] : e.errors.length ? e.errors.slice(0, 20) : ['fails to validate']]),
  );
}

/** A failed assert or successful report of one rule file on one document, as SchXslt's SVRL says it. */
export interface RuleFinding extends Finding {
  kind: 'assert' | 'report';
  location: string;
}

/**
 * Runs Schematron rule files (paths) over documents (paths) in one Java process: each rule file compiled
 * by SchXslt (cached by content hash), then run on each of its documents. The findings per job and
 * document, in the order asked; a rule file that does not compile or stops on a document throws.
 */
export async function runSchematron(
  jobs: Array<{ rules: string; files: string[] }>,
): Promise<Array<{ rules: string; file: string; findings: RuleFinding[] }>> {
  const t = requireValidationTools();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const url = (p: string) => pathToFileURL(p).href;
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
  const stamp = `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const ruleSets = [...new Set(jobs.map((j) => j.rules))].map((sch, i) => {
    const compiled = path.join(CACHE_DIR, `${path.basename(sch, '.sch')}-${ruleFileKey(sch)}.xsl`);
    return { name: `r${i}`, sch, compiled, tmp: fs.existsSync(compiled) ? null : `${compiled}.tmp-${stamp}` };
  });
  const nameOf = new Map(ruleSets.map((r) => [r.sch, r.name]));
  const docs = [...new Set(jobs.flatMap((j) => j.files))];
  const jobFile = path.join(CACHE_DIR, `jobs-${stamp}.xml`);
  const outFile = path.join(CACHE_DIR, `result-${stamp}.json`);
  fs.writeFileSync(
    jobFile,
    [
      `<jobs pipeline="${attr(url(fixture('schxslt/2.0/pipeline-for-svrl.xsl')))}">`,
      ...ruleSets.map((r) =>
        r.tmp
          ? `<rules name="${r.name}" sch="${attr(url(r.sch))}" out="${attr(url(r.tmp))}"/>`
          : `<rules name="${r.name}" compiled="${attr(url(r.compiled))}"/>`,
      ),
      ...docs.map(
        (d) =>
          `<doc href="${attr(url(d))}" rules="${jobs
            .filter((j) => j.files.includes(d))
            .map((j) => nameOf.get(j.rules))
            .join(' ')}"/>`,
      ),
      '</jobs>',
    ].join('\n'),
  );
  // Class-data sharing: the first run records the classes Java and Saxon load, later runs map them.
  const cds = path.join(CACHE_DIR, `saxon-${sha(t.java, t.saxon, String(fs.statSync(t.saxon).size)).slice(0, 12)}.jsa`);
  const cdsTmp = `${cds}.tmp-${stamp}`;
  const saxon = (extra: string[]) =>
    runTool(t.java, [
      ...JVM_ARGS,
      ...extra,
      '-cp',
      t.saxon,
      'net.sf.saxon.Transform',
      '-it',
      `-xsl:${path.join(import.meta.dirname, 'run-schematron.xsl')}`,
      `-o:${outFile}`,
      `jobs=${url(jobFile)}`,
    ]);
  try {
    const cdsArgs = fs.existsSync(cds) ? [`-XX:SharedArchiveFile=${cds}`] : [`-XX:ArchiveClassesAtExit=${cdsTmp}`];
    let r = await saxon(cdsArgs);
    if (r.code !== 0) r = await saxon([]); // perhaps the archive's fault, never the rules'
    if (r.code !== 0 || !fs.existsSync(outFile)) {
      const said = r.stderr
        .split('\n')
        .filter((l) => l && !/SXWN9009|^Warning at /.test(l))
        .slice(-15)
        .join('\n');
      throw new Error(`Saxon could not run the Schematron rules (${r.error?.message ?? `exit ${r.code}`}):\n${said}`);
    }
    if (fs.existsSync(cdsTmp)) fs.renameSync(cdsTmp, cds);
    const results = JSON.parse(fs.readFileSync(outFile, 'utf8')) as Array<{
      doc?: number;
      rules: string;
      findings?: Array<[string, string, string, string, string, string]>;
      error?: string;
      compileError?: string;
    }>;
    for (const r of ruleSets) if (r.tmp && fs.existsSync(r.tmp)) fs.renameSync(r.tmp, r.compiled);
    const broken = results.filter((x) => x.compileError || x.error);
    if (broken.length) {
      for (const r of ruleSets) if (!r.tmp) fs.rmSync(r.compiled, { force: true }); // compiled again next run
      throw new Error(
        `the Schematron rules could not run: ${broken
          .map((x) => `${ruleSets.find((r) => r.name === x.rules)?.sch}: ${x.compileError ?? x.error}`)
          .join('; ')}`,
      );
    }
    const byKey = new Map(results.map((x) => [`${x.doc}\t${x.rules}`, x.findings ?? []]));
    return jobs.flatMap((j) =>
      j.files.map((file) => {
        const findings = byKey.get(`${docs.indexOf(file) + 1}\t${nameOf.get(j.rules)}`);
        // A document the engine skipped must not pass for a clean one.
        if (!findings) throw new Error(`Saxon did not report on ${file} with ${j.rules}`);
        return {
          rules: j.rules,
          file,
          findings: findings.map(([kind, id, flag, role, location, text]) => ({
            kind: kind as 'assert' | 'report',
            rule: id || text.match(/^\[([^\]]+)\]/)?.[1] || '?',
            flag: flag || role || (kind === 'assert' ? 'error' : 'warning'),
            location,
            text,
          })),
        };
      }),
    );
  } finally {
    for (const f of [jobFile, outFile, cdsTmp, ...ruleSets.map((r) => r.tmp ?? '')])
      if (f) fs.rmSync(f, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Validating documents.

function syntaxOf(xml: string): Syntax {
  const head = xml.slice(0, 3000);
  if (/<(\w+:)?CrossIndustryInvoice[\s>]/.test(head)) return 'cii';
  if (/<(\w+:)?CreditNote[\s>]/.test(head)) return 'ubl-creditnote';
  if (/<(\w+:)?Invoice[\s>]/.test(head)) return 'ubl-invoice';
  throw new Error('neither a UBL 2.1 Invoice/CreditNote nor a CII D16B CrossIndustryInvoice');
}

function customizationOf(xml: string, syntax: Syntax): string {
  const m =
    syntax === 'cii'
      ? xml.match(/<(?:[\w.-]+:)?GuidelineSpecifiedDocumentContextParameter\b[^>]*>\s*<(?:[\w.-]+:)?ID\b[^>]*>([^<]*)</)
      : xml.match(/<(?:[\w.-]+:)?CustomizationID\b[^>]*>([^<]*)</);
  return m?.[1]?.trim() ?? '';
}

/**
 * Validates documents in one batch: one xmllint run per schema and one Java process for all rule sets,
 * EN 16931 always, XRechnung when asked or declared, HR-CIUS whenever a UBL document declares HR-CIUS
 * (its CustomizationID). HR-CIUS is published for UBL only: a CII document declaring it is checked
 * against EN 16931 and says so in a warning.
 */
export async function validateEInvoices(documents: DocumentToValidate[]): Promise<ValidationReport[]> {
  requireValidationTools();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-einvoice-'));
  try {
    const docs = documents.map((d, i) => {
      const file = path.join(dir, `${i}-${d.name.replace(/[^\w.-]/g, '_')}.xml`);
      fs.writeFileSync(file, d.xml);
      const syntax = syntaxOf(d.xml);
      const customization = customizationOf(d.xml, syntax);
      const cii = syntax === 'cii';
      const xrechnung = Boolean(d.xrechnung) || /xrechnung/i.test(customization);
      const hr = customization.includes(HR_CUSTOMIZATION);
      const sets: RuleSet[] = [cii ? 'en16931-cii' : 'en16931-ubl'];
      if (xrechnung) sets.push(cii ? 'xrechnung-cii' : 'xrechnung-ubl');
      if (hr && !cii) sets.push('hr-cius');
      const xsd =
        syntax === 'cii' ? fixture(XSD.cii) : path.join(hr ? hrSchemaDir() : fixture('ubl-2.1/xsd'), XSD[syntax]);
      const report: ValidationReport = {
        file: d.name,
        syntax,
        checks: [cii ? 'xsd:cii-d16b' : hr ? 'xsd:ubl-2.1+hr' : 'xsd:ubl-2.1', ...sets],
        ok: false,
        failures: [],
        warnings:
          hr && cii
            ? [
                {
                  rule: 'HR-CIUS',
                  flag: 'warning',
                  text: 'HR-CIUS is published for UBL only; checked against EN 16931',
                },
              ]
            : [],
      };
      return { file, syntax, sets, xsd, xrechnung, report };
    });
    const bySchema = new Map<string, string[]>();
    for (const d of docs) bySchema.set(d.xsd, [...(bySchema.get(d.xsd) ?? []), d.file]);
    const bySet = new Map<RuleSet, string[]>();
    for (const d of docs) for (const s of d.sets) bySet.set(s, [...(bySet.get(s) ?? []), d.file]);
    const [schemaResults, ruleResults] = await Promise.all([
      Promise.all([...bySchema].map(([xsd, files]) => schemaErrors(xsd, files))),
      runSchematron([...bySet].map(([set, files]) => ({ rules: fixture(RULE_FILES[set]), files }))),
    ]);
    const xsdErrors = new Map(schemaResults.flatMap((m) => [...m]));
    for (const d of docs) {
      for (const text of xsdErrors.get(d.file) ?? []) d.report.failures.push({ rule: 'XSD', flag: 'error', text });
      const levels = d.xrechnung ? XRECHNUNG_LEVELS[d.syntax] : {};
      for (const r of ruleResults.filter((x) => x.file === d.file)) {
        const en = r.rules.includes('/en16931/');
        for (const f of r.findings) {
          const flag = (en ? levels[f.rule] : undefined) ?? f.flag;
          const finding = { rule: f.rule, flag, text: f.text };
          (flag === 'fatal' || flag === 'error' ? d.report.failures : d.report.warnings).push(finding);
        }
      }
      d.report.ok = d.report.failures.length === 0;
    }
    return docs.map((d) => d.report);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One document. Calls made in the same turn (a Promise.all over several documents) share one batch,
 * so they share one Java process.
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
    (reports) => {
      for (const [i, p] of batch.entries()) p.resolve(reports[i]!);
    },
    (error) => {
      for (const p of batch) p.reject(error);
    },
  );
}

/** The failed fatal rules, one per line, for an assertion message. */
export function failuresOf(report: ValidationReport): string {
  return report.failures.map((f) => `${f.rule}: ${f.text.slice(0, 300)}`).join('\n');
}
