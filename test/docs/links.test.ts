// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, globSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The README is a front door and the guides under docs/ link to each other and to the code: a
 * moved section or a renamed heading must not leave a link pointing nowhere. Every relative link
 * (and image) in README.md and docs/*.md must name a file that exists, and an anchor must name a
 * heading of that Markdown file, spelt as GitHub spells it.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Removes fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, text = ''] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const plain = text
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\*/g, '')
      .toLowerCase();
    const base = plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function linksOf(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map(
    (m) => m[1] ?? '',
  );
}

const files = ['README.md', ...globSync('docs/*.md', { cwd: root })].sort();

test('every relative link and anchor in the README and the guides resolves', () => {
  const broken: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const link of linksOf(text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:: not ours to check
      const [target = '', anchor] = link.split('#', 2);
      const resolved = target === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), target);
      if (!resolved.startsWith(root) || !existsSync(resolved)) {
        broken.push(`${file}: ${link} (no such file)`);
        continue;
      }
      if (anchor === undefined || !resolved.endsWith('.md') || statSync(resolved).isDirectory()) continue;
      if (!anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor)))
        broken.push(`${file}: ${link} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('the README links every guide under docs/', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const linked = new Set(linksOf(readme).map((l) => l.split('#')[0]));
  const missing = files.filter((f) => f.startsWith('docs/') && !linked.has(f));
  assert.deepEqual(missing, []);
});

test('the checker itself finds a broken anchor and spells headings as GitHub does', () => {
  const anchors = anchorsOf(
    "# Portico\n## CIS's answers\n```\n## not a heading\n```\n## Fiscalisation (Croatia)\n## Roles\n## Roles\n",
  );
  assert.deepEqual([...anchors], ['portico', 'ciss-answers', 'fiscalisation-croatia', 'roles', 'roles-1']);
  assert.ok(!anchors.has('not-a-heading'));
});
