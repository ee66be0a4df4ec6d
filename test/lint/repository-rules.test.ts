// test-engines: sqlite
// The architecture lint's repository rules, proved on a probe tree: a passing `npm run lint`
// means nothing unless the rules fire on what they forbid. The tree is written to a temporary
// directory (never into src/) and cruised with the project's own configuration.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { cruise, type IConfiguration, type IViolation } from 'dependency-cruiser';

const config: IConfiguration = (await import(path.resolve(import.meta.dirname, '../../.dependency-cruiser.js')))
  .default;

const probe: Record<string, string> = {
  'src/db/store.ts': 'export const store = 1;\n',
  // The composition root may build any repository.
  'src/container.ts':
    "import { store } from './db/store.ts';\nimport { createSalesRepository } from './modules/sales/sales.repository.ts';\nexport const c = [store, createSalesRepository];\n",
  'src/modules/sales/sales.repository.ts':
    'export function createSalesRepository() {\n  return { find: () => null };\n}\nexport type SalesRepository = ReturnType<typeof createSalesRepository>;\n',
  'src/modules/sales/lines/lines.repository.ts': 'export const lines = 1;\n',
  // Its own module uses it freely, and names a port over it.
  'src/modules/sales/types.ts':
    "import type { SalesRepository } from './sales.repository.ts';\nexport type SaleReads = Pick<SalesRepository, 'find'>;\n",
  // The public surface leaking the repository's type.
  'src/modules/sales/index.ts':
    "export type { SaleReads } from './types.ts';\nexport type { SalesRepository } from './sales.repository.ts';\n",
  // Another module reaching for it: a type-only import counts, a nested repository too.
  'src/modules/invoicing/probe.ts':
    "import type { SalesRepository } from '../sales/sales.repository.ts';\nimport { lines } from '../sales/lines/lines.repository.ts';\nexport type P = SalesRepository;\nexport const l = lines;\n",
  // The port, through the index: allowed.
  'src/modules/invoicing/allowed.ts':
    "import type { SaleReads } from '../sales/index.ts';\nexport type A = SaleReads;\n",
  // A process shell outside the composition root.
  'src/main/probe.ts':
    "import { createSalesRepository } from '../modules/sales/sales.repository.ts';\nexport const m = createSalesRepository;\n",
};

async function violationsOf(tree: Record<string, string>): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'portico-lint-'));
  try {
    for (const [file, text] of Object.entries(tree)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const { enhancedResolveOptions, ...options } = config.options ?? {};
    const result = await cruise(
      ['src'],
      {
        ...options,
        baseDir: dir,
        validate: true,
        ruleSet: { forbidden: config.forbidden ?? [], required: config.required ?? [] },
      },
      enhancedResolveOptions,
    );
    if (typeof result.output === 'string') throw new Error('expected a cruise result, not a report');
    return result.output.summary.violations.map((v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the architecture lint', () => {
  it('refuses a repository outside its module and the composition root, and an index that exports one', async () => {
    assert.deepEqual(await violationsOf(probe), [
      'index-without-repository: src/modules/sales/index.ts → src/modules/sales/sales.repository.ts',
      // The older rule sees the same import as bypassing the index; both fire.
      'module-through-index: src/modules/invoicing/probe.ts → src/modules/sales/lines/lines.repository.ts',
      'module-through-index: src/modules/invoicing/probe.ts → src/modules/sales/sales.repository.ts',
      'no-foreign-repository: src/modules/invoicing/probe.ts → src/modules/sales/lines/lines.repository.ts',
      'no-foreign-repository: src/modules/invoicing/probe.ts → src/modules/sales/sales.repository.ts',
      'repository-in-composition-root: src/main/probe.ts → src/modules/sales/sales.repository.ts',
    ]);
  });
});
