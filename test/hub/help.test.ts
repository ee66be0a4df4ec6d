// test-engines: sqlite
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GUIDES, HELP_LINKS } from '../../src/http/hub/help/guides.ts';
import { renderGuide, renderMarkdown } from '../../src/http/hub/help/markdown.ts';
import { hubCatalogs } from '../../src/http/hub/texts/index.ts';

const helpPath = (g: string) => `/hub/help/${g}`;

describe('help: the guides of docs/ rendered for the hub', () => {
  test('every guide renders with its headings, each with its GitHub id, and a title in every language', () => {
    for (const name of GUIDES) {
      const guide = renderGuide(name, helpPath);
      assert.ok(guide.title.length > 3, `${name} has a title`);
      assert.ok(guide.ids.length >= 1, `${name} has headings`);
      assert.equal(new Set(guide.ids).size, guide.ids.length, `${name}: heading ids are unique`);
      for (const id of guide.ids) assert.match(guide.html, new RegExp(`<h[1-6] id="${id}">`), `${name}#${id}`);
      for (const language of ['hr', 'de', 'en'] as const) {
        assert.ok(hubCatalogs[language][`hub.help.guide.${name}`], `${language} title of ${name}`);
        assert.ok(hubCatalogs[language][`hub.help.summary.${name}`], `${language} line of ${name}`);
      }
    }
    // GitHub's slugs, as the README's own links use them.
    const fiscal = renderGuide('fiscalisation-hr', helpPath);
    assert.ok(fiscal.ids.includes('fiscalisation-croatia'));
    assert.ok(fiscal.ids.includes('ciss-answers'), fiscal.ids.join(' '));
    assert.ok(renderGuide('hub', helpPath).ids.includes('the-shops-day-at-the-counter'));
  });

  test('every help link of the hub pages points at a guide that exists and a heading in it', () => {
    for (const [topic, { guide, anchor }] of Object.entries(HELP_LINKS)) {
      assert.ok((GUIDES as readonly string[]).includes(guide), `${topic}: ${guide}`);
      assert.ok(renderGuide(guide, helpPath).ids.includes(anchor), `${topic}: ${guide}#${anchor}`);
    }
  });

  test('links between guides go to their hub pages and exist there; links to source files are plain text', () => {
    for (const name of GUIDES) {
      const { html } = renderGuide(name, helpPath);
      for (const [, target, anchor] of html.matchAll(/href="\/hub\/help\/([a-z-]+)(?:#([\w-]+))?"/g)) {
        assert.ok((GUIDES as readonly string[]).includes(target!), `${name} links to ${target}`);
        if (anchor)
          assert.ok(renderGuide(target as never, helpPath).ids.includes(anchor), `${name} → ${target}#${anchor}`);
      }
      assert.doesNotMatch(html, /href="[^"#/h][^"]*"/, `${name}: no relative link left to a repository file`);
      assert.doesNotMatch(html, /href="\.\.?\//, `${name}: no ../ link`);
      assert.doesNotMatch(html, /Back to the/, `${name}: no way back to a README the hub does not show`);
    }
    const out = renderMarkdown(
      '# T\n\n[a](einvoices.md#x) [b](../src/app.ts) [c](javascript:alert(1)) [d](#t)',
      helpPath,
    ).html;
    assert.match(out, /<a href="\/hub\/help\/einvoices#x">a<\/a>/);
    assert.match(out, /<span class="help-file">b<\/span>/);
    assert.match(out, /<span class="help-file">c<\/span>/);
    assert.doesNotMatch(out, /javascript:/);
    assert.match(out, /<a href="#t">d<\/a>/);
  });

  test('raw HTML in a guide is shown as text, never run', () => {
    const out = renderMarkdown(
      '# T\n\n<script>alert(1)</script>\n\nA line <img src=x onerror=alert(2)> and <b>bold</b>.\n\n<div onclick="x()">\n<script>alert(3)</script>\n</div>\n',
      helpPath,
    ).html;
    assert.doesNotMatch(out, /<script|<img|<b>|<div onclick/);
    assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(out, /&lt;img src=x onerror=alert\(2\)&gt;/);
  });

  test('a table scrolls in its own labelled box, not the page', () => {
    const out = renderMarkdown('# T\n\n## Wide\n\n| a | b |\n|---|---|\n| 1 | 2 |\n', helpPath).html;
    assert.match(out, /<div class="table-box" role="region" aria-labelledby="wide" tabindex="0"><table>/);
  });
});
