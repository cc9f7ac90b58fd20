/**
 * A small quote-aware SQL lexer: enough to split a script into statements and read the verb and
 * target of each, without being fooled by `;`, keywords or names inside strings, quoted
 * identifiers, dollar-quoted bodies or comments.
 */

export type Token =
  | { kind: 'word'; text: string; value: string } // bare word; value lower-cased
  | { kind: 'ident'; text: string; value: string } // "quoted" identifier; value lower-cased, unescaped
  | { kind: 'string'; text: string }
  | { kind: 'punct'; text: string };

export interface Statement {
  text: string;
  tokens: Token[];
}

function readQuoted(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i++;
  }
  return sql.length;
}

/** Splits a script into non-empty statements, each with its tokens (comments dropped). */
export function splitStatements(sql: string): Statement[] {
  const statements: Statement[] = [];
  let tokens: Token[] = [];
  let stmtStart = 0;
  let i = 0;
  const flush = (end: number) => {
    const text = sql.slice(stmtStart, end).trim();
    if (tokens.length > 0) statements.push({ text, tokens });
    tokens = [];
  };
  while (i < sql.length) {
    const ch = sql[i] ?? '';
    const next = sql[i + 1] ?? '';
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === '-' && next === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (ch === '/' && next === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (ch === "'") {
      const end = readQuoted(sql, i, "'");
      tokens.push({ kind: 'string', text: sql.slice(i, end) });
      i = end;
    } else if (ch === '"') {
      const end = readQuoted(sql, i, '"');
      const text = sql.slice(i, end);
      tokens.push({ kind: 'ident', text, value: text.slice(1, -1).replace(/""/g, '"').toLowerCase() });
      i = end;
    } else if (ch === '$' && /[A-Za-z_$]/.test(next) && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0] ?? '$$';
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? sql.length : end + tag.length;
      tokens.push({ kind: 'string', text: sql.slice(i, stop) });
      i = stop;
    } else if (/[A-Za-z_0-9\u0080-\uffff]/.test(ch)) {
      let j = i + 1;
      while (j < sql.length && /[A-Za-z_0-9$\u0080-\uffff]/.test(sql[j] ?? '')) j++;
      const text = sql.slice(i, j);
      tokens.push({ kind: 'word', text, value: text.toLowerCase() });
      i = j;
    } else if (ch === ';') {
      flush(i);
      stmtStart = i + 1;
      i++;
    } else {
      tokens.push({ kind: 'punct', text: ch });
      i++;
    }
  }
  flush(sql.length);
  return statements;
}

/** True for a bare word equal to `word` (already lower-case). */
export function isWord(t: Token | undefined, word: string): boolean {
  return t?.kind === 'word' && t.value === word;
}
