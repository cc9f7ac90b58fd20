import type { SqlRisk } from '../protocol/data';
import { isWord, splitStatements, type Statement, type Token } from './sqlTokens';

/**
 * Finds which loaded datasets a script would drop, alter, replace, truncate, delete from, update
 * or insert into, so the UI (and the agent's guard) can ask before it runs.
 */

interface Target {
  verb: string;
  name: string;
}

/** Reads a possibly qualified name (`db.main."T"`) at `i`; returns its last part, lower-cased. */
function readName(tokens: Token[], i: number): { name: string; next: number } | undefined {
  let j = i;
  let last: string | undefined;
  for (;;) {
    const t = tokens[j];
    if (t?.kind !== 'word' && t?.kind !== 'ident') break;
    last = t.value;
    j++;
    if (tokens[j]?.kind === 'punct' && tokens[j]?.text === '.') j++;
    else break;
  }
  return last === undefined ? undefined : { name: last, next: j };
}

function skipWords(tokens: Token[], i: number, words: string[]): number {
  let j = i;
  while (words.some((w) => isWord(tokens[j], w))) j++;
  return j;
}

/** The names after `i`, separated by commas (DROP TABLE a, b). */
function readNameList(tokens: Token[], i: number): string[] {
  const names: string[] = [];
  let j = i;
  for (;;) {
    const n = readName(tokens, j);
    if (!n) break;
    names.push(n.name);
    j = n.next;
    if (tokens[j]?.kind === 'punct' && tokens[j]?.text === ',') j++;
    else break;
  }
  return names;
}

/** Targets of one statement; `'*'` means every table (DROP SCHEMA … CASCADE, DETACH). */
export function statementTargets(stmt: Statement): Target[] {
  const t = stmt.tokens;
  const targets: Target[] = [];
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i];
    if (tok?.kind === 'punct') {
      if (tok.text === '(') depth++;
      else if (tok.text === ')') depth--;
      continue;
    }
    // Verbs inside parentheses are subqueries and cannot modify a table.
    if (depth > 0 || tok?.kind !== 'word') continue;
    switch (tok.value) {
      case 'drop': {
        if (isWord(t[i + 1], 'schema')) {
          targets.push({ verb: 'DROP SCHEMA', name: '*' });
          break;
        }
        if (!isWord(t[i + 1], 'table') && !isWord(t[i + 1], 'view')) break;
        const j = skipWords(t, i + 2, ['if', 'exists']);
        for (const name of readNameList(t, j)) targets.push({ verb: 'DROP', name });
        break;
      }
      case 'alter': {
        if (!isWord(t[i + 1], 'table') && !isWord(t[i + 1], 'view')) break;
        const n = readName(t, skipWords(t, i + 2, ['if', 'exists']));
        if (n) targets.push({ verb: 'ALTER', name: n.name });
        break;
      }
      case 'delete': {
        if (!isWord(t[i + 1], 'from')) break;
        const n = readName(t, i + 2);
        if (n) targets.push({ verb: 'DELETE FROM', name: n.name });
        break;
      }
      case 'update': {
        // `ON CONFLICT DO UPDATE SET` updates the INSERT's own target, reported already.
        if (isWord(t[i - 1], 'do')) break;
        const n = readName(t, i + 1);
        if (n && !isWord(t[i + 1], 'set')) targets.push({ verb: 'UPDATE', name: n.name });
        break;
      }
      case 'truncate': {
        const n = readName(t, skipWords(t, i + 1, ['table']));
        if (n) targets.push({ verb: 'TRUNCATE', name: n.name });
        break;
      }
      case 'insert': {
        let j = i + 1;
        if (isWord(t[j], 'or')) j += 2;
        if (!isWord(t[j], 'into')) break;
        const n = readName(t, j + 1);
        if (n) targets.push({ verb: 'INSERT INTO', name: n.name });
        break;
      }
      case 'copy': {
        // COPY t FROM 'file' appends to t; COPY t TO … only reads it.
        const n = readName(t, i + 1);
        if (n && isWord(t[n.next], 'from')) targets.push({ verb: 'COPY', name: n.name });
        break;
      }
      case 'create': {
        if (!isWord(t[i + 1], 'or') || !isWord(t[i + 2], 'replace')) break;
        const j = skipWords(t, i + 3, ['temp', 'temporary', 'table', 'view', 'materialized']);
        const n = readName(t, j);
        if (n) targets.push({ verb: 'CREATE OR REPLACE', name: n.name });
        break;
      }
      case 'detach':
        targets.push({ verb: 'DETACH', name: '*' });
        break;
    }
  }
  return targets;
}

/** Classifies a script against the loaded dataset names. */
export function assessSql(sql: string, datasets: readonly string[]): SqlRisk {
  const known = new Map(datasets.map((d) => [d.toLowerCase(), d]));
  const hit = new Set<string>();
  let first: string | undefined;
  for (const stmt of splitStatements(sql)) {
    for (const target of statementTargets(stmt)) {
      const names = target.name === '*' ? [...known.values()] : [known.get(target.name)].filter((n): n is string => n !== undefined);
      if (names.length === 0) continue;
      first ??= stmt.text;
      for (const n of names) hit.add(n);
    }
  }
  return { destructive: hit.size > 0, datasets: [...hit], statement: first ?? '' };
}

/** `ALTER TABLE a RENAME TO b` → {from: a, to: b}, so a rename through SQL keeps its dataset. */
export function renameIn(stmt: Statement): { from: string; to: string } | undefined {
  const t = stmt.tokens;
  if (!isWord(t[0], 'alter') || !isWord(t[1], 'table')) return undefined;
  const from = readName(t, skipWords(t, 2, ['if', 'exists']));
  if (!from || !isWord(t[from.next], 'rename') || !isWord(t[from.next + 1], 'to')) return undefined;
  const to = t[from.next + 2];
  if (to?.kind !== 'word' && to?.kind !== 'ident') return undefined;
  return { from: from.name, to: to.kind === 'ident' ? to.text.slice(1, -1).replace(/""/g, '"') : to.text };
}
