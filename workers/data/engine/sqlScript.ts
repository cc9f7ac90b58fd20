import type { Engine, ScriptTokens } from './duckdbEngine';

/**
 * A script split into statements by DuckDB's own lexer (the scanner its parser runs), so
 * `E'\''`, `$tag$…$tag$`, `U&'…'`, nested comments and quoted names are read exactly as DuckDB
 * reads them. A `;` operator token ends a statement, as in DuckDB's grammar; comment-only pieces
 * are not statements.
 */

export const enum TokenKind {
  Identifier = 0,
  Number = 1,
  String = 2,
  Operator = 3,
  Keyword = 4,
  Comment = 5,
}

export interface SqlToken {
  kind: TokenKind;
  /** The token's source text (up to the next token, trimmed). */
  text: string;
  start: number;
}

export interface SqlStatement {
  /** The statement's text, without its `;`, trimmed. */
  text: string;
  /** Its tokens, comments left out. */
  tokens: SqlToken[];
}

/** DuckDB reports UTF-8 byte offsets; JavaScript strings index UTF-16 code units. */
function byteToIndex(sql: string): (byte: number) => number {
  const map: number[] = [];
  let byte = 0;
  for (let i = 0; i < sql.length; i++) {
    const cp = sql.codePointAt(i) ?? 0;
    const len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (let b = 0; b < len; b++) map[byte + b] = i;
    byte += len;
    if (cp >= 0x10000) i++;
  }
  return (b) => (b >= byte ? sql.length : (map[b] ?? sql.length));
}

/** Comments sit inside the preceding token's slice (DuckDB's lexer skips them): cut them off. */
function tokenText(slice: string): string {
  const quoted = /^("(?:[^"]|"")*"|'(?:[^']|'')*')/.exec(slice);
  if (quoted?.[0]) return quoted[0];
  const cut = slice.search(/\s|--|\/\*/);
  return (cut < 0 ? slice : slice.slice(0, cut)) || slice.trim();
}

export function tokensOf(sql: string, lexed: ScriptTokens): SqlToken[] {
  const at = byteToIndex(sql);
  const out: SqlToken[] = [];
  for (let i = 0; i < lexed.offsets.length; i++) {
    const start = at(lexed.offsets[i] ?? 0);
    const end = at(lexed.offsets[i + 1] ?? Number.MAX_SAFE_INTEGER);
    out.push({ kind: (lexed.types[i] ?? TokenKind.Operator) as TokenKind, text: tokenText(sql.slice(start, end).trim()), start });
  }
  return out;
}

export function statementsOf(sql: string, lexed: ScriptTokens): SqlStatement[] {
  const statements: SqlStatement[] = [];
  let from = 0;
  let tokens: SqlToken[] = [];
  const flush = (end: number) => {
    if (tokens.length > 0) statements.push({ text: sql.slice(from, end).trim(), tokens });
    tokens = [];
  };
  for (const t of tokensOf(sql, lexed)) {
    if (t.kind === TokenKind.Operator && t.text.startsWith(';')) {
      flush(t.start);
      from = t.start + 1;
      // A lexer never glues `;` to another operator, but a slice up to the next token may hold `;;`.
      continue;
    }
    if (t.kind !== TokenKind.Comment) tokens.push(t);
  }
  flush(sql.length);
  return statements;
}

export async function splitScript(engine: Engine, sql: string): Promise<SqlStatement[]> {
  return statementsOf(sql, await engine.tokenize(sql));
}

/** A keyword or bare identifier's name, lower-cased; a quoted identifier's name as written. */
export function nameOf(t: SqlToken | undefined): string | undefined {
  if (!t || (t.kind !== TokenKind.Keyword && t.kind !== TokenKind.Identifier)) return undefined;
  if (t.text.startsWith('"') && t.text.endsWith('"') && t.text.length >= 2) return t.text.slice(1, -1).replace(/""/g, '"');
  return t.text.toLowerCase();
}

export const isKeyword = (t: SqlToken | undefined, word: string): boolean => t?.kind === TokenKind.Keyword && t.text.toLowerCase() === word;
