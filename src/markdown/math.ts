/**
 * TeX in answers: `$$…$$` and `\[…\]` as display math, `$…$` and `\(…\)` inline, typeset by KaTeX
 * with `trust: false` (no \href, \url, \htmlClass… that could carry links or markup) and
 * `throwOnError: false` (a typo shows the source in red instead of breaking the answer).
 *
 * `$` is also money, so an inline `$…$` counts as math only when it cannot be a price: the
 * opening `$` is not followed by a space and not preceded by a letter, digit or backslash, the
 * closing `$` is not preceded by a space nor followed by a digit, and both sit on one line.
 * "$5 and $10" stays text; "$x^2$" is math.
 */
import katex from 'katex';
import type { TokenizerAndRendererExtension, Tokens } from 'marked';

export function typeset(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    output: 'htmlAndMathml',
    // Bounds against TeX that expands or grows without end (a model can write anything).
    maxExpand: 500,
    maxSize: 50,
  });
}

interface MathToken extends Tokens.Generic {
  type: 'mathBlock' | 'mathInline';
  raw: string;
  tex: string;
}

const BLOCK = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n|$)/;
const INLINE_DOLLAR = /^\$(?![\s$])((?:\\.|[^\\\n$])+?)(?<![\s\\])\$(?!\d)/;
const INLINE_PAREN = /^\\\(([^\n]+?)\\\)/;
const DISPLAY_INLINE = /^\$\$([^$]+?)\$\$/;

export const mathBlock: TokenizerAndRendererExtension = {
  name: 'mathBlock',
  level: 'block',
  start(src) {
    const i = src.search(/\$\$|\\\[/);
    return i < 0 ? undefined : i;
  },
  tokenizer(src): MathToken | undefined {
    const m = BLOCK.exec(src);
    if (!m) return undefined;
    const tex = (m[1] ?? m[2] ?? '').trim();
    if (!tex) return undefined;
    return { type: 'mathBlock', raw: m[0], tex };
  },
  renderer(token) {
    return `<div class="math-display">${typeset(String(token.tex), true)}</div>\n`;
  },
};

export const mathInline: TokenizerAndRendererExtension = {
  name: 'mathInline',
  level: 'inline',
  start(src) {
    const i = src.search(/\$|\\\(/);
    return i < 0 ? undefined : i;
  },
  tokenizer(src, tokens): MathToken | undefined {
    if (src.startsWith('$') && !dollarOpensMath(tokens.at(-1)?.raw.at(-1))) return undefined;
    const display = DISPLAY_INLINE.exec(src);
    if (display?.[1]?.trim()) return { type: 'mathInline', raw: display[0], tex: display[1].trim(), display: true };
    const m = INLINE_DOLLAR.exec(src) ?? INLINE_PAREN.exec(src);
    if (!m?.[1]) return undefined;
    return { type: 'mathInline', raw: m[0], tex: m[1] };
  },
  renderer(token) {
    return typeset(String(token.tex), token.display === true);
  },
};

/** A `$` after a letter, digit or backslash (`US$5`, `\$`) never opens math. */
export function dollarOpensMath(prevChar: string | undefined): boolean {
  return prevChar === undefined || !/[\p{L}\p{N}\\]/u.test(prevChar);
}
