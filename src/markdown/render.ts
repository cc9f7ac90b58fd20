/**
 * Markdown → HTML for model text (answers, notes, caveats). Pure: no DOM, so it runs in Node tests.
 *
 * Safety does not rest on the sanitiser alone. This renderer never passes markup through: raw
 * HTML in the source (`<script>`, `<img onerror>`, `<iframe>`…) is escaped and shown as text,
 * links keep only http, https and mailto targets, images are never loaded (they become links, so
 * a model cannot make the page fetch a URL carrying data), code is escaped by the highlighter and
 * math goes through KaTeX with `trust: false`. DOMPurify (sanitize.ts) then checks the result again
 * in the browser.
 *
 * For streaming, `renderBlocks` splits the text into top-level blocks and caches each block's
 * HTML by its source, so a new token re-renders only the block it lands in.
 */
import { Marked, type Token, type Tokens } from 'marked';
import { codeLanguageOf, highlightRuns, runsToHtml } from './highlight';
import { mathBlock, mathInline } from './math';
import { escapeHtml } from '../../shared/text';

/** The URL schemes a rendered link may have; anything else (javascript:, data:, vbscript:…) is text. */
const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;

/** The link target if it is safe to follow, else null. Relative URLs are refused too: the app has no pages to link to. */
export function safeHref(href: string | null | undefined): string | null {
  if (!href) return null;
  // Browsers ignore ASCII whitespace and control characters inside a scheme ("java\tscript:").
  // eslint-disable-next-line no-control-regex -- stripping control characters is the point
  const cleaned = href.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (!SAFE_URL.test(cleaned)) return null;
  try {
    const url = new URL(cleaned);
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * A link shows where it goes: its full target follows the text unless the text already is the
 * target, so data a model joined into a URL is in plain sight (Markdown.svelte also asks, naming
 * the host, before it opens one).
 */
function anchor(href: string, title: string | null | undefined, inner: string): string {
  const t = title ? ` title="${escapeHtml(title)}"` : '';
  const link = `<a href="${escapeHtml(href)}"${t} target="_blank" rel="noopener noreferrer">${inner}</a>`;
  const shown = inner.replace(/<[^>]*>/g, '').trim();
  const same = [href, href.replace(/^mailto:/i, ''), href.replace(/\/$/, '')].some((h) => escapeHtml(h) === shown || escapeHtml(h.replace(/^https?:\/\//i, '')) === shown);
  return same ? link : `${link}<span class="link-target"> (${escapeHtml(href)})</span>`;
}

function createMarked(): Marked {
  const marked = new Marked({ gfm: true, breaks: false, async: false });
  marked.use({
    extensions: [mathBlock, mathInline],
    renderer: {
      html(token: Tokens.HTML | Tokens.Tag) {
        const text = escapeHtml(token.text);
        return token.block ? `<p>${text}</p>\n` : text;
      },
      link(token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = safeHref(token.href);
        return href ? anchor(href, token.title, inner) : `<span class="link-refused" title="Link removed">${inner}</span>`;
      },
      image(token: Tokens.Image) {
        const label = escapeHtml(token.text || 'image');
        const href = safeHref(token.href);
        return href ? anchor(href, token.title, `Image: ${label}`) : `<span class="link-refused">Image: ${label}</span>`;
      },
      code(token: Tokens.Code) {
        const language = codeLanguageOf(token.lang);
        const body = language ? runsToHtml(highlightRuns(token.text, language)) : escapeHtml(token.text);
        const cls = language ? ` class="language-${language}"` : '';
        const label = language ? ` data-language="${language}"` : '';
        return `<pre class="code"${label}><code${cls}>${body}</code></pre>\n`;
      },
      checkbox(token: Tokens.Checkbox) {
        // A character, not an <input>: answers hold no form controls.
        return token.checked ? '☑ ' : '☐ ';
      },
    },
  });
  return marked;
}

const marked = createMarked();

export interface RenderedBlock {
  /** The block's source: unchanged source means unchanged HTML. */
  key: string;
  html: string;
}

const CACHE_LIMIT = 500;
const cache = new Map<string, string>();

function cached(key: string, make: () => string): string {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const html = make();
  if (cache.size >= CACHE_LIMIT) {
    // Oldest first: a streaming answer's earlier blocks stay hot, abandoned drafts fall out.
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(key, html);
  return html;
}

interface LexedBlock extends RenderedBlock {
  /** Characters of source this block took, spacing before the next one included. */
  length: number;
}

/**
 * A block whose HTML is made when first read: a long text is lexed at once, but only the blocks a
 * frame shows are parsed in it (BlockView reads `html` under its time budget).
 */
function lazyBlock(key: string, make: () => string, length: number): LexedBlock {
  let html: string | undefined;
  return {
    key,
    length,
    get html() {
      html ??= cached(`b:${key}`, make);
      return html;
    },
  };
}

function lexBlocks(source: string): LexedBlock[] {
  const tokens = marked.lexer(source);
  const blocks: LexedBlock[] = [];
  for (const token of tokens) {
    const last = blocks.at(-1);
    if (token.type === 'space' || token.type === 'def') {
      if (last) last.length += token.raw.length;
      else blocks.push({ key: '', html: '', length: token.raw.length });
      continue;
    }
    const one: Token[] = Object.assign([token], { links: tokens.links });
    blocks.push(lazyBlock(token.raw, () => marked.parser(one), token.raw.length));
  }
  return blocks;
}

function visible(blocks: readonly LexedBlock[]): RenderedBlock[] {
  return blocks
    .filter((b) => b.key !== '')
    .map((b) => ({
      key: b.key,
      get html() {
        return b.html;
      },
    }));
}

/** The source's top-level blocks (paragraphs, lists, code, math…), each with its HTML. */
export function renderBlocks(source: string): RenderedBlock[] {
  return visible(lexBlocks(source));
}

/**
 * `renderBlocks` for text that grows at its end (a streaming answer): when the new source extends
 * the last one, everything before the last block is kept and only the tail is lexed again, so a
 * frame's cost follows the size of the last block, not of the whole answer. Any other change
 * re-lexes from the start.
 */
export function createStreamRenderer(): (source: string) => RenderedBlock[] {
  let previous = '';
  let blocks: LexedBlock[] = [];
  return (source) => {
    // Two blocks back: a new line can still turn the block before the last into something else
    // (a setext heading underline, a list continuing, a table's delimiter row).
    const keep = source.startsWith(previous) ? Math.max(0, blocks.length - 2) : 0;
    const stable = blocks.slice(0, keep);
    const offset = stable.reduce((n, b) => n + b.length, 0);
    blocks = [...stable, ...lexBlocks(source.slice(offset))];
    previous = source;
    return visible(blocks);
  };
}

export function renderMarkdown(source: string): string {
  return renderBlocks(source)
    .map((b) => b.html)
    .join('');
}

/** One line of inline markdown (caveats, findings): no paragraphs, lists or headings. */
export function renderInline(source: string): string {
  return cached(`i:${source}`, () => marked.parseInline(source) as string);
}
