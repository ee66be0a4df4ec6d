import fs from 'node:fs';
import GithubSlugger from 'github-slugger';
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from '../html.ts';
import { isGuide, type GuideName } from './guides.ts';

const DOCS = new URL('../../../../docs/', import.meta.url);

export interface RenderedGuide {
  /** The guide's first heading, as written (English). */
  title: string;
  /** The article's HTML: made by marked from our own tokens, every text in it escaped. */
  html: string;
  /** Every heading's id, in order. */
  ids: string[];
}

/** Where a link in a guide goes in the hub: another guide's page, an anchor here, the web, or nowhere. */
export function hubHref(href: string, helpPath: (guide: GuideName) => string): string | null {
  if (href.startsWith('#')) return href;
  if (/^(https?:|mailto:)/i.test(href)) return href;
  const match = /^(?:\.\/)?([a-z-]+)\.md(#[\w-]*)?$/.exec(href);
  if (match && isGuide(match[1]!)) return `${helpPath(match[1])}${match[2] ?? ''}`;
  // A source file, a README elsewhere in the repository, a picture: nothing the hub serves.
  return null;
}

/**
 * A guide in docs/ as HTML for the hub. The guides are our own files, but their raw HTML is shown
 * as text all the same: the page is the hub's, under its CSP, and a `<script>` pasted in a
 * guide must read as what it is. Headings get GitHub's ids (github-slugger, one per document, so
 * repeated headings get `-1`, `-2` as on GitHub), so an anchor that works in the repository
 * works here. A table is wrapped in a scroll box labelled by the heading above it, as the hub's
 * report tables are: a wide table scrolls inside the page, never the page sideways.
 */
export function renderMarkdown(markdown: string, helpPath: (guide: GuideName) => string): RenderedGuide {
  const slugger = new GithubSlugger();
  const ids: string[] = [];
  let title = '';
  let lastHeading: string | null = null;
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(token: Tokens.Heading) {
        const text = this.parser.parseInline(token.tokens, this.parser.textRenderer);
        const id = slugger.slug(asRead(text));
        ids.push(id);
        if (token.depth === 1 && title === '') title = asRead(text);
        lastHeading = id;
        return `<h${token.depth} id="${escapeHtml(id)}">${this.parser.parseInline(token.tokens)}</h${token.depth}>\n`;
      },
      paragraph(token: Tokens.Paragraph) {
        // "Back to the README." leads out of the hub: the page's own "All guides" link stands for it.
        if (/^Back to the \[README\]\(\.\.\/README\.md\)\.?$/.test(token.raw.trim())) return '';
        return `<p>${this.parser.parseInline(token.tokens)}</p>\n`;
      },
      html(token: Tokens.HTML | Tokens.Tag) {
        return token.block ? `<p>${escapeHtml(token.text)}</p>\n` : escapeHtml(token.text);
      },
      link(token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = hubHref(token.href, helpPath);
        if (href === null) return `<span class="help-file">${inner}</span>`;
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        const external = /^https?:/i.test(href) ? ' rel="noopener noreferrer"' : '';
        return `<a href="${escapeHtml(href)}"${title}${external}>${inner}</a>`;
      },
      image(token: Tokens.Image) {
        // The pictures beside the guides are not served by the hub: their description stands in.
        return `<span class="help-file">${escapeHtml(token.text)}</span>`;
      },
      table(token: Tokens.Table) {
        const cell = (c: Tokens.TableCell) => this.tablecell(c);
        const head = `<tr>${token.header.map(cell).join('')}</tr>`;
        const rows = token.rows.map((row) => `<tr>${row.map(cell).join('')}</tr>`).join('\n');
        const label = lastHeading ? ` role="region" aria-labelledby="${escapeHtml(lastHeading)}" tabindex="0"` : '';
        return `<div class="table-box"${label}><table>\n<thead>${head}</thead>\n<tbody>${rows}</tbody></table></div>\n`;
      },
    },
  });
  const html = marked.parse(markdown, { async: false });
  return { title, html, ids };
}

/** The text renderer leaves entities in (`&amp;`, `&#39;`): the slug and title are of the text as read. */
function asRead(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

const cache = new Map<GuideName, RenderedGuide>();

/** A guide read from docs/ and rendered once per process: the files change only with a release. */
export function renderGuide(name: GuideName, helpPath: (guide: GuideName) => string): RenderedGuide {
  let guide = cache.get(name);
  if (!guide) {
    guide = renderMarkdown(fs.readFileSync(new URL(`${name}.md`, DOCS), 'utf8'), helpPath);
    cache.set(name, guide);
  }
  return guide;
}
