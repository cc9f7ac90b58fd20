/**
 * Key findings for the answer card, derived from the answer itself: its statements that carry a
 * figure, every figure of which grounding found in a tool output. Claims with an ungrounded
 * figure are left out (they are flagged in the answer instead), and so are code, math and tables,
 * which are not statements. A short answer with a single such statement is its own finding, so
 * it gets none.
 */

/** Markdown reduced to its prose: no code, math, tables, headings markers, links or emphasis. */
export function proseOf(markdown: string): string[] {
  const text = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?(^\1[^\n]*$|(?![\s\S]))/gm, '\n')
    .replace(/\$\$[\s\S]*?\$\$|\\\[[\s\S]*?\\\]/g, '\n')
    .replace(/^\s*\|.*\|\s*$/gm, '\n');
  const pieces: string[] = [];
  for (const raw of text.split(/\n/)) {
    // Raw HTML is not a statement (the answer shows it as text; a finding would only repeat it).
    if (/^\s*<\/?[a-zA-Z!]/.test(raw)) continue;
    const line = raw
      .replace(/<\/?[a-zA-Z][^>]*>/g, '')
      .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+(\[[ xX]\]\s+)?|\d+[.)]\s+)/, '')
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/`([^`]*)`/g, '$1')
      .replace(/(\*\*|__|\*|_|~~)(?=\S)([^*_~]+?)\1/g, '$2')
      .replace(/\$[^$\n]+\$|\\\([^\n]*?\\\)/g, '')
      .trim();
    if (!line) continue;
    // Sentences end at . ! ? followed by a space and a capital, digit or quote; decimals stay whole.
    pieces.push(...line.split(/(?<=[.!?])\s+(?=[A-Z0-9"“(])/).map((s) => s.trim()).filter(Boolean));
  }
  return pieces;
}

const NUMBER = /(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?%?/g;

function numbersIn(s: string): string[] {
  return Array.from(s.matchAll(NUMBER), (m) => m[0]);
}

/** Findings come from the start of an answer; a 2 MB answer is not scanned whole for five of them. */
const FINDINGS_SCAN_CHARS = 50_000;

export function keyFindings(answer: string, ungrounded: readonly string[], max = 5): string[] {
  const norm = (n: string) => n.trim().replace(/[,%+]/g, '');
  const flagged = new Set(ungrounded.map(norm));
  const head = answer.length > FINDINGS_SCAN_CHARS ? answer.slice(0, answer.lastIndexOf('\n', FINDINGS_SCAN_CHARS) + 1 || FINDINGS_SCAN_CHARS) : answer;
  const statements = proseOf(head).filter((s) => {
    const nums = numbersIn(s);
    if (nums.length === 0) return false;
    // A flagged figure may appear with or without separators or a percent sign.
    return !nums.some((n) => flagged.has(norm(n)));
  });
  if (statements.length <= 1 && answer.length < 400) return [];
  return [...new Set(statements)].slice(0, max);
}
