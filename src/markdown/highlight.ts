/**
 * Syntax highlighting without an editor: the same lezer grammars the code editors use, turned
 * into runs of text with `tok-*` classes (`classHighlighter`). Runs are plain text, so callers
 * either render them as Svelte text nodes or escape them into HTML; code never becomes markup.
 */
import { classHighlighter, highlightCode } from '@lezer/highlight';
import { PostgreSQL } from '@codemirror/lang-sql';
import { pythonLanguage } from '@codemirror/lang-python';
import type { CodeLanguage } from '../ui/codeLanguages';
import { escapeHtml } from '../../shared/text';

export interface CodeRun {
  text: string;
  /** Space-separated `tok-*` classes; empty for unstyled text. */
  classes: string;
}

const ALIASES: Record<string, CodeLanguage> = {
  sql: 'sql',
  duckdb: 'sql',
  postgres: 'sql',
  postgresql: 'sql',
  pgsql: 'sql',
  psql: 'sql',
  sqlite: 'sql',
  mysql: 'sql',
  python: 'python',
  python3: 'python',
  py: 'python',
  pycon: 'python',
};

/** The language a fence's info string names (` ```sql `, ` ```py `…), or null for others. */
export function codeLanguageOf(info: string | undefined): CodeLanguage | null {
  const name = (info ?? '').trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return ALIASES[name] ?? null;
}

const parsers = {
  sql: () => PostgreSQL.language.parser,
  python: () => pythonLanguage.parser,
} as const;

/** Code past this length is shown unhighlighted: parsing it would stall a frame for little gain. */
export const MAX_HIGHLIGHT_CHARS = 200_000;

export function highlightRuns(code: string, language: CodeLanguage): CodeRun[] {
  if (code.length > MAX_HIGHLIGHT_CHARS) return [{ text: code, classes: '' }];
  const tree = parsers[language]().parse(code);
  const runs: CodeRun[] = [];
  highlightCode(
    code,
    tree,
    classHighlighter,
    (text, classes) => {
      const last = runs.at(-1);
      // Neighbouring runs with the same classes merge, so line breaks do not split plain text.
      if (last && last.classes === classes) last.text += text;
      else runs.push({ text, classes });
    },
    () => {
      const last = runs.at(-1);
      if (last && last.classes === '') last.text += '\n';
      else runs.push({ text: '\n', classes: '' });
    },
  );
  return runs;
}

/** Runs as HTML: every text escaped, classes only from the highlighter's own `tok-*` names. */
export function runsToHtml(runs: readonly CodeRun[]): string {
  return runs
    .map((r) => {
      const cls = r.classes
        .split(' ')
        .filter((c) => /^tok-[A-Za-z0-9-]+$/.test(c))
        .join(' ');
      return cls ? `<span class="${cls}">${escapeHtml(r.text)}</span>` : escapeHtml(r.text);
    })
    .join('');
}
