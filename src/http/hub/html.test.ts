// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { html, raw } from './html.ts';

test('interpolated text is escaped, in content and in attributes; Html and raw pass as they are', () => {
  const name = `<script>alert("x")</script> & 'Šišić' \``;
  const out = html`<p title="${name}">${name}</p>${html`<b>${'ok'}</b>`}${raw('<hr>')}`.value;
  assert.equal(
    out,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Šišić&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Šišić&#39; &#96;</p><b>ok</b><hr>',
  );
});

test('lists join, and null, undefined and false render nothing; 0 renders', () => {
  const rows = ['a<', 'b'].map((x) => html`<li>${x}</li>`);
  assert.equal(html`<ul>${rows}</ul>${null}${undefined}${false}${0}`.value, '<ul><li>a&lt;</li><li>b</li></ul>0');
});
