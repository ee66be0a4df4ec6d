// test-engines: both
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../../src/config/config.ts';
import { createContainer, type Container } from '../../src/container.ts';
import { groupBySku, parseCatalogCsv } from '../../src/modules/catalog/catalog-csv.ts';
import { runCli } from '../../src/main/cli.ts';
import { provisionDatabase } from '../support/test-app.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GOOD = path.join(ROOT, 'test/fixtures/catalog-import.csv');
const HEADER = 'name,sku,unit,price,tax_rate,category,parent_category,model,description';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('portico catalog import', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof provisionDatabase>>;
  let env: NodeJS.ProcessEnv;
  let c: Container;

  /**
   * The command as an operator runs it, in this process: `portico <args>` with the same settings,
   * output and exit code (cli.test.ts runs the CLI as a process of its own; here the import is
   * under test, and a process per run cost seconds of CPU each).
   */
  const cli = async (...args: string[]): Promise<Run> => {
    let stdout = '';
    let stderr = '';
    const code = await runCli(args, {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env,
    });
    return { code, stdout, stderr };
  };

  const newCompany = async (name: string): Promise<string> => {
    const run = await cli('company', 'create', '--name', name);
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout).id as string;
  };

  const importFile = async (companyId: string, file: string) => {
    const run = await cli('catalog', 'import', file, '--company', companyId);
    return { code: run.code, report: run.stdout ? JSON.parse(run.stdout) : null, stderr: run.stderr };
  };

  const csvFile = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  const products = async (companyId: string) => (await c.catalogAdmin.listProducts(companyId, { limit: 100 })).data;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-import-'));
    database = await provisionDatabase(dir);
    env = { DATABASE_URL: database.url, DATA_DIR: dir, LOG_LEVEL: 'silent' };
    c = await createContainer(loadConfig({ DATABASE_URL: env.DATABASE_URL!, DATA_DIR: dir, LOG_LEVEL: 'silent' }));
  });
  after(async () => {
    await c.close();
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('imports products with several units each, non-ASCII names, and creates what is missing', async () => {
    const companyId = await newCompany('Boje Šišić d.o.o.');
    const { code, report, stderr } = await importFile(companyId, GOOD);
    assert.equal(code, 0, stderr);
    assert.deepEqual(report, { imported: 5, created: 5, updated: 0, errors: [] });

    const all = await products(companyId);
    const bySku = new Map(all.map((p) => [p.sku, p]));
    assert.equal(all.length, 5);
    const stain = bySku.get('BZD-075-OR')!;
    assert.equal(stain.name, 'Boja za drvo Šišmiš — orah, 0,75 L');
    assert.equal(stain.description, 'Vodena lazura, 10–12 m²/L po sloju.');
    assert.deepEqual(
      stain.units.map((u) => [u.name, u.price]),
      [
        ['kom', '12.40'],
        ['karton (6 kom)', '70.00'],
      ],
    );
    assert.deepEqual(
      bySku.get('FAS-15-BI')!.units.map((u) => [u.name, u.price]),
      [
        ['kom', '89.00'],
        ['L', '6.20'],
        ['paleta (24 kom)', '2000.00'],
      ],
    );
    assert.equal(bySku.get('DUB-250')!.name, 'Dübel-Füller Größe M, weiß — 250 g');
    assert.equal(bySku.get('KNJ-BOJ')!.taxRate, '9.5');
    assert.ok(all.every((p) => p.active));

    const categories = await c.catalogAdmin.listCategories(companyId);
    const byName = new Map(categories.map((x) => [x.name, x]));
    assert.equal(categories.length, 5);
    assert.equal(byName.get('Boje za drvo')!.parentId, byName.get('Boje i lakovi')!.id);
    assert.equal(stain.categoryId, byName.get('Boje za drvo')!.id);
    assert.equal(
      bySku.get('FAS-15-BI')!.categoryId,
      byName.get('Boje i lakovi')!.id,
      'the parent made for one row is reused by another',
    );
    assert.deepEqual((await c.catalogAdmin.listModels(companyId)).map((m) => m.name).sort(), [
      'Bosch Professional',
      'Chromos Ekol',
      'Helios Spektra',
    ]);
    assert.deepEqual(
      (await c.catalogAdmin.listTaxRates(companyId)).map((t) => [t.name, t.rate]),
      [
        ['Tax 9.5 %', '9.5'],
        ['Tax 25 %', '25'],
      ],
    );
  });

  test('importing again updates products and matches units by name instead of duplicating', async () => {
    const companyId = await newCompany('Ponovni uvoz d.o.o.');
    assert.equal((await importFile(companyId, GOOD)).code, 0);
    const first = await products(companyId);

    const again = await importFile(companyId, GOOD);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(again.report, { imported: 5, created: 0, updated: 5, errors: [] });
    const second = await products(companyId);
    assert.deepEqual(
      second.map((p) => [p.id, p.name, p.categoryId, p.modelId, p.taxRateId, p.units]),
      first.map((p) => [p.id, p.name, p.categoryId, p.modelId, p.taxRateId, p.units]),
    );
    assert.equal((await c.catalogAdmin.listCategories(companyId)).length, 5);
    assert.equal((await c.catalogAdmin.listTaxRates(companyId)).length, 2);

    const changed =
      fs
        .readFileSync(GOOD, 'utf8')
        .replace('Fasadna boja bijela 15 L,FAS-15-BI,kom,89.00', 'Fasadna boja bijela 15 L,FAS-15-BI,kom,92.50')
        .replace(
          'Priručnik „Bojanje bez mrlja”,KNJ-BOJ,kom,18.00,9.5,Knjige,,,Džepno izdanje',
          'Priručnik „Bojanje bez mrlja” (2. izd.),KNJ-BOJ,kom,18.00,5,Knjige,,,',
        ) + 'Fasadna boja bijela 15 L,FAS-15-BI,kanta 5 L,31.00,25,Boje i lakovi,,Helios Spektra,\n';
    const third = await importFile(companyId, csvFile('changed.csv', changed));
    assert.deepEqual(third.report, { imported: 5, created: 0, updated: 5, errors: [] });
    const now = new Map((await products(companyId)).map((p) => [p.sku, p]));
    const facade = now.get('FAS-15-BI')!;
    const before = first.find((p) => p.sku === 'FAS-15-BI')!;
    assert.deepEqual(
      facade.units.map((u) => [u.name, u.price]),
      [
        ['kom', '92.50'],
        ['L', '6.20'],
        ['paleta (24 kom)', '2000.00'],
        ['kanta 5 L', '31.00'],
      ],
    );
    assert.equal(facade.units[0]!.id, before.units[0]!.id, 'the same unit, repriced');
    const book = now.get('KNJ-BOJ')!;
    assert.equal(book.name, 'Priručnik „Bojanje bez mrlja” (2. izd.)');
    assert.equal(book.taxRate, '5');
    assert.equal(book.description, null, 'an empty cell clears the description');
    assert.equal(now.size, 5);
  });

  test('a file with bad rows reports every one of them and writes nothing', async () => {
    const companyId = await newCompany('Greške d.o.o.');
    assert.equal((await importFile(companyId, GOOD)).code, 0);
    const before = await products(companyId);
    const categoriesBefore = await c.catalogAdmin.listCategories(companyId);

    const bad = csvFile(
      'bad.csv',
      [
        HEADER,
        'Nova boja,NOV-1,kom,10.00,25,Nova kategorija,,Novi model,', // fine alone: must not be written either
        'Boja za drvo Šišmiš,BZD-075-OR,kom,"12,40",25,Boje za drvo,Boje i lakovi,Chromos Ekol,', // row 3: decimal comma
        'Fasadna boja bijela 15 L,FAS-15-BI,kom,1.00,25,Boje i lakovi,,Helios Spektra,', // a valid price change
        ',BEZ-IMENA,kom,3.00,25,Alati,,,', // row 5: no name
      ].join('\n'),
    );
    const { code, report } = await importFile(companyId, bad);
    assert.equal(code, 1);
    assert.equal(report.imported, 0);
    assert.deepEqual(
      report.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [
        [3, 'price'],
        [5, 'name'],
      ],
    );
    for (const e of report.errors) assert.ok(e.message.length > 0);

    assert.deepEqual(await products(companyId), before, 'no product, unit or price changed');
    assert.deepEqual(await c.catalogAdmin.listCategories(companyId), categoriesBefore);
    assert.equal((await c.catalogAdmin.listModels(companyId)).length, 3);
  });

  test('names the catalog cannot resolve are row errors too, and still nothing is written', async () => {
    const companyId = await newCompany('Dvoznačno d.o.o.');
    for (const parent of ['Boje', 'Alati']) {
      const { id } = await c.catalogAdmin.createCategory(companyId, { name: parent });
      await c.catalogAdmin.createCategory(companyId, { name: 'Ostalo', parentId: id });
    }
    const tax = await c.catalogAdmin.createTaxRate(companyId, { name: 'PDV', rate: '25' });
    for (const name of ['Prvi', 'Drugi'])
      await c.catalogAdmin.createProduct(companyId, {
        name,
        sku: 'TWIN',
        taxRateId: tax.id,
        units: [{ name: 'kom', price: '1.00' }],
      });

    const file = csvFile(
      'ambiguous.csv',
      [
        HEADER,
        'Četka,CET-1,kom,2.00,25,ostalo,,,', // row 2: which "Ostalo"?
        'Valjak,VAL-1,kom,3.00,25,Ostalo,alati,,', // fine: the parent says which
        'Blizanac,TWIN,kom,4.00,25,,,,', // row 4: two products already have this SKU
      ].join('\n'),
    );
    const { code, report } = await importFile(companyId, file);
    assert.equal(code, 1);
    assert.deepEqual(
      report.errors.map((e: { row: number; field: string }) => [e.row, e.field]),
      [
        [2, 'category'],
        [4, 'sku'],
      ],
    );
    assert.equal((await products(companyId)).length, 2);
    assert.equal((await c.catalogAdmin.listCategories(companyId)).length, 4);
  });

  test("usage mistakes: another company's id, a missing file", async () => {
    const unknown = await importFile('cmp_doesnotexist', GOOD);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /Company not found/);
    const companyId = await newCompany('Bez datoteke');
    const missing = await importFile(companyId, path.join(dir, 'nope.csv'));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Cannot read/);
    assert.equal((await products(companyId)).length, 0);
  });
});

describe('parseCatalogCsv and groupBySku', () => {
  const errorsOf = (text: string) => {
    const parsed = parseCatalogCsv(text);
    return [...parsed.errors, ...groupBySku(parsed.rows).errors].map((e) => [e.row, e.field, e.message]);
  };

  test('the header: any order, required columns, no strangers', () => {
    assert.deepEqual(parseCatalogCsv('price,unit,tax_rate,name,sku\n1.00,kom,25,A,S1\n').errors, []);
    const errors = errorsOf('sku,name,colour\nS1,A,red\n').map(([row, field]) => [row, field]);
    assert.deepEqual(errors, [
      [1, 'colour'],
      [1, 'tax_rate'],
      [1, 'unit'],
      [1, 'price'],
    ]);
    assert.equal(errorsOf('')[0]![0], 1);
  });

  test('every bad cell of every row, numbered as a spreadsheet shows them', () => {
    const text = `${HEADER}\nA,S1,kom,1.005,25,,,,\n"B, multi-line\nname",S2,kom,1.00,abc,,Roditelj,,\nC,S3,kom,1.00,25,,\n,,,,,,,,\nD,,kom,,25,,,,\n`;
    const errors = errorsOf(text).map(([row, field]) => [row, field]);
    assert.deepEqual(errors, [
      [2, 'price'],
      [3, 'parent_category'],
      [3, 'tax_rate'],
      [4, undefined],
      [6, 'sku'],
      [6, 'price'],
    ]);
    assert.deepEqual(
      errorsOf(`${HEADER}\nA\u0000B,S1,kom,1.00,25,,,,\n`).map(([row, field]) => [row, field]),
      [[2, 'name']],
    );
  });

  test('a broken quote makes the rest unreadable: one error at the row where it starts', () => {
    assert.deepEqual(
      errorsOf(`${HEADER}\nA,S1,kom,1.00,25,,,,\n"B,S2,kom,1.00,25,,,,\nC,S3,kom,1.00,25,,,,\n`).map(([row]) => row),
      [3],
    );
  });

  test('rows of one SKU must agree, and a unit may appear once', () => {
    const text = `${HEADER}\nA,S1,kom,1.00,25,,,,\nA2,S1,L,2.00,25,,,,\nA,S1,kom,3.00,25,,,,\n`;
    assert.deepEqual(
      errorsOf(text).map(([row, field]) => [row, field]),
      [
        [3, 'name'],
        [4, 'unit'],
      ],
    );
  });

  test('a missing optional column is undefined, an empty cell is null', () => {
    const { rows } = parseCatalogCsv('sku,name,tax_rate,unit,price,model\nS1,A,25 %,kom,12.4,\n');
    assert.equal(rows[0]!.model, null);
    assert.equal(rows[0]!.category, undefined);
    assert.equal(rows[0]!.priceMinor, 1240);
    assert.equal(rows[0]!.rateBp, 2500);
  });
});
