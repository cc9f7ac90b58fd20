/**
 * Model and user text inside exported Markdown (notebook cells, the Markdown report), written
 * again from marked's tokens rather than patched: whatever syntax an image used (inline, with
 * brackets in its alt text or a title, by reference, nested in a link, in a table, a list or a
 * quote) marked has resolved it to an image token with its target, and that token is written as a
 * plain link, so a viewer (Jupyter, VS Code, GitHub) that opens the file fetches nothing. Raw HTML
 * is written as text (not every viewer sanitises `<img onerror>`), reference definitions are
 * dropped (every link is written with its target inline) and code is fenced anew with a fence
 * longer than anything inside it. Inline `data:` images fetch nothing and stay.
 *
 * The result is lexed once more and must hold no remote image and no HTML; if it ever did, the
 * text is exported as a fenced block instead.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { isInlineImage } from '../../shared/figureSafety';

const lex = (text: string): Token[] => Lexer.lex(text, { gfm: true, breaks: false });

/** Characters that would start markup if they stood in plain text we write ourselves. */
function escapeText(text: string): string {
  return text.replace(/[\\`*_[\]<>!|~&#]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/** A link target in `<…>`, which may hold spaces and parentheses; `<`, `>` and newlines are encoded. */
function destination(href: string): string {
  return `<${href.replace(/[<>\n\r\\]/g, (c) => encodeURIComponent(c))}>`;
}

function titlePart(title: string | null | undefined): string {
  return title ? ` "${title.replace(/["\\]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ')}"` : '';
}

/** Raw HTML shown as text: `&lt;` renders as `<` in every viewer and opens no tag. */
const asText = (html: string) => html.replace(/</g, '&lt;');

function codeSpan(text: string): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') || /^ .* $/.test(text) ? ' ' : '';
  return `${ticks}${pad}${text.replace(/\r?\n/g, ' ')}${pad}${ticks}`;
}

function codeBlock(text: string, lang: string | undefined): string {
  const longest = Math.max(0, ...Array.from(text.matchAll(/`+/g), (m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const info = (lang ?? '').replace(/[`\s].*$/s, '');
  return `${fence}${info}\n${text.replace(/\n$/, '')}\n${fence}`;
}

function inline(tokens: readonly Token[] | undefined, inLink = false): string {
  let out = '';
  for (const token of tokens ?? []) {
    const piece = inlineToken(token, inLink);
    // A `!` just before a link we wrote would turn it back into an image.
    if (piece.startsWith('[') && out.endsWith('!') && !out.endsWith('\\!')) out = `${out.slice(0, -1)}\\!`;
    out += piece;
  }
  return out;
}

function inlineToken(token: Token, inLink = false): string {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'text':
      if (t.tokens) return inline(t.tokens, inLink);
      // marked drops the backslashes of `\[`, `\]` inside link text: they go back in.
      return asText(inLink ? token.raw.replace(/(^|[^\\])(?=[[\]])/g, '$1\\') : token.raw);
    case 'escape':
      return token.raw;
    case 'codespan':
      return codeSpan((token as Tokens.Codespan).text);
    case 'strong':
      return `**${inline(t.tokens, inLink)}**`;
    case 'em':
      return `*${inline(t.tokens, inLink)}*`;
    case 'del':
      return `~~${inline(t.tokens, inLink)}~~`;
    case 'br':
      return '\\\n';
    case 'html':
      return asText(token.raw);
    case 'link': {
      const link = token as Tokens.Link & { autolink?: boolean };
      // `<https://…>` and bare URLs hold no markup: written as they came, they read back the same.
      if (link.autolink && (token.raw === link.text || token.raw === `<${link.text}>`)) return token.raw;
      return `[${inline(link.tokens, true) || escapeText(link.href)}](${destination(link.href)}${titlePart(link.title)})`;
    }
    case 'image': {
      const image = token as Tokens.Image;
      const alt = escapeText(image.text || 'image');
      if (isInlineImage(image.href)) return `![${alt}](${destination(image.href)}${titlePart(image.title)})`;
      // A link cannot hold a link: inside one, the image is its alt text.
      if (inLink) return alt;
      return `[${alt}](${destination(image.href)}${titlePart(image.title)})`;
    }
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '[x] ' : '[ ] ';
    default:
      // Tokens of extensions this lexer does not load never appear; anything else is text.
      return asText(token.raw);
  }
}

const cell = (tokens: readonly Token[]) => inline(tokens).replace(/(^|[^\\])\|/g, '$1\\|');

function table(token: Tokens.Table): string {
  const row = (cells: readonly Tokens.TableCell[]) => `| ${cells.map((c) => cell(c.tokens)).join(' | ')} |`;
  const rule = token.align.map((a) => (a === 'center' ? ':---:' : a === 'left' ? ':---' : a === 'right' ? '---:' : '---'));
  return [row(token.header), `| ${rule.join(' | ')} |`, ...token.rows.map(row)].join('\n');
}

function indent(text: string, by: string, first: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? first + line : line === '' ? '' : by + line))
    .join('\n');
}

function list(token: Tokens.List): string {
  const start = typeof token.start === 'number' ? token.start : 1;
  const items = token.items.map((item, i) => {
    const marker = token.ordered ? `${start + i}. ` : '- ';
    const body = blocks(item.tokens, item.loose || token.loose ? '\n\n' : '\n');
    return indent(body, ' '.repeat(marker.length), marker);
  });
  return items.join(token.loose ? '\n\n' : '\n');
}

function block(token: Token): string | null {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return inline(t.tokens);
    case 'text':
      return t.tokens ? inline(t.tokens) : asText(token.raw);
    case 'heading':
      return `${'#'.repeat((token as Tokens.Heading).depth)} ${inline(t.tokens)}`;
    case 'code':
      return codeBlock((token as Tokens.Code).text, (token as Tokens.Code).lang);
    case 'hr':
      return '---';
    case 'blockquote':
      return blocks(t.tokens ?? [], '\n\n')
        .split('\n')
        .map((l) => (l === '' ? '>' : `> ${l}`))
        .join('\n');
    case 'list':
      return list(token as Tokens.List);
    case 'table':
      return table(token as Tokens.Table);
    case 'html':
      return asText(token.raw.replace(/\n+$/, ''));
    case 'checkbox':
      return inlineToken(token);
    default:
      return asText(token.raw.replace(/\n+$/, ''));
  }
}

/** Blocks that end themselves: the next block may follow on the next line, as in the source. */
const CLOSED = new Set(['heading', 'code']);

const trailingNewlines = (raw: string) => /\n*$/.exec(raw)?.[0].length ?? 0;

function blocks(tokens: readonly Token[], separator: string): string {
  let out = '';
  let pending = '';
  let previous: Token | null = null;
  /** Newlines in the source since the previous block's text ended. */
  let gap = 0;
  for (const token of tokens) {
    // A task item's checkbox is its own token before the item's text.
    if (token.type === 'checkbox') {
      pending += inlineToken(token);
      continue;
    }
    const b = block(token);
    if (b === null) {
      gap += trailingNewlines(token.raw);
      continue;
    }
    if (previous) out += separator === '\n\n' && CLOSED.has(previous.type) && gap < 2 ? '\n' : separator;
    out += pending + b;
    pending = '';
    previous = token;
    gap = trailingNewlines(token.raw);
  }
  if (pending) out += (out ? separator : '') + pending.trimEnd();
  return out;
}

/** Whether marked would make a viewer fetch anything from this Markdown (a remote image or raw HTML). */
export function fetchesOnOpen(markdown: string): boolean {
  let found = false;
  const walk = (tokens: readonly Token[] | undefined) => {
    for (const token of tokens ?? []) {
      const t = token as Tokens.Generic;
      if (token.type === 'image' && !isInlineImage((token as Tokens.Image).href)) found = true;
      if (token.type === 'html') found = true;
      walk(t.tokens);
      if (token.type === 'list') for (const item of (token as Tokens.List).items) walk(item.tokens);
      if (token.type === 'table') {
        const tbl = token as Tokens.Table;
        for (const c of tbl.header) walk(c.tokens);
        for (const r of tbl.rows) for (const c of r) walk(c.tokens);
      }
    }
  };
  walk(lex(markdown));
  return found;
}

/** Markdown to write into an exported file: formatting kept, nothing fetched when it is opened. */
export function safeMarkdown(markdown: string): string {
  const out = blocks(lex(markdown), '\n\n');
  return fetchesOnOpen(out) ? codeBlock(markdown, 'text') : out;
}
