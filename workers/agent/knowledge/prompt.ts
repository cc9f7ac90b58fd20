/**
 * The datasets block of every prompt, with what the user taught the workspace: their rules, each
 * dataset's dictionary (what a row is, caveats, joins) and each column's meaning, unit, codes and
 * missing-value placeholders — fitted to a token budget. When everything does not fit, the block
 * steps down (no samples → a compact index of names, types and one-line descriptions → names and
 * types → the widest tables as one line each) and tells the model to fetch the rest with
 * `describe_columns`, so a 500-column table or 50 datasets still fit a small window.
 */
import type { DataDictionary, ColumnEntry } from '../../../protocol/agent/knowledge';
import { estimateTokens, formatSample, type DatasetContext } from '../prompts';

export type DetailLevel = 'full' | 'no_samples' | 'index' | 'names' | 'table';
const LEVELS: readonly DetailLevel[] = ['full', 'no_samples', 'index', 'names', 'table'];

export interface WorkspaceContextInput {
  datasets: readonly DatasetContext[];
  dictionaries?: ReadonlyMap<string, DataDictionary>;
  rules?: readonly string[];
  /** Estimated tokens the whole block may take (default: unlimited). */
  budgetTokens?: number;
}

export interface WorkspaceContext {
  text: string;
  tokens: number;
  /** The level each dataset ended at (what "What the model sees" reports). */
  levels: Record<string, DetailLevel>;
  /** Sections and their estimated tokens, for the budget view. */
  parts: { label: string; tokens: number }[];
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A column's meaning in one line: description, unit, codes and placeholders. */
export function describeEntry(e: ColumnEntry | undefined, short = false): string {
  if (!e) return '';
  const bits: string[] = [];
  if (e.description.trim()) bits.push(short ? clip(e.description.trim(), 70) : e.description.trim());
  if (e.unit.trim()) bits.push(`unit: ${e.unit.trim()}`);
  if (e.role === 'identifier') bits.push('identifier');
  if (e.codes.length) {
    bits.push(short ? 'coded (see describe_columns)' : `codes: ${e.codes.map((c) => `${c.code} = ${c.meaning}`).join('; ')}`);
  }
  if (e.missing.length) bits.push(`missing when ${e.missing.map((m) => JSON.stringify(m)).join(' or ')}`);
  return bits.join('; ');
}

function datasetNotes(d: DataDictionary | undefined): string[] {
  if (!d) return [];
  const out: string[] = [];
  if (d.row_meaning.trim()) out.push(`One row: ${d.row_meaning.trim()}`);
  if (d.grain.trim()) out.push(`Grain: ${d.grain.trim()}`);
  for (const c of d.caveats) if (c.trim()) out.push(`Caveat: ${c.trim()}`);
  for (const j of d.joins) out.push(`Joins: ${d.dataset}.${j.column} = ${j.other_dataset}.${j.other_column}`);
  return out;
}

function datasetBlock(ds: DatasetContext, dict: DataDictionary | undefined, level: DetailLevel): string {
  const head = `### ${ds.name} (${ds.rowCount} rows, ${ds.columns.length} columns)`;
  const entries = new Map((dict?.columns ?? []).map((c) => [c.name, c]));
  // How the dataset was read (time zones stored as UTC, the load report) comes before its meaning.
  const notes = [...(ds.notes ?? []).map((n) => `Note: ${n}`), ...datasetNotes(dict)];
  if (level === 'table') {
    const described = dict ? ' (described in its data dictionary)' : '';
    return `${head}${described}: columns not listed here to save space; call describe_columns with dataset "${ds.name}" to list and describe them.${notes.length ? `\n${notes.map((n) => clip(n, 160)).join('\n')}` : ''}`;
  }
  if (level === 'names') {
    return [head, ...notes.map((n) => clip(n, 160)), ds.columns.map((c) => `${c.name} ${c.type}`).join(', ')].join('\n');
  }
  const lines = ds.columns.map((c) => {
    const meaning = describeEntry(entries.get(c.name), level === 'index');
    const vals = level === 'full' ? (c.samples ?? []).slice(0, 3).map((v) => formatSample(v)) : [];
    return `${c.name} ${c.type}${meaning ? ` — ${meaning}` : ''}${vals.length ? `: ${vals.join(', ')}` : ''}`;
  });
  return [head, ...notes, ...lines].join('\n');
}

export function buildRulesContext(rules: readonly string[]): string {
  const list = rules.map((r) => r.trim()).filter((r) => r !== '');
  if (list.length === 0) return '';
  return `## The user's rules for this workspace (always apply them; they override your defaults)\n${list.map((r) => `- ${r}`).join('\n')}`;
}

const HEADER = 'Datasets (each is a DuckDB table; quote names with double quotes if they need it):';
const KNOWLEDGE_NOTE =
  "Column meanings, units, codes and missing-value placeholders come from the user's data dictionary: decode codes with them and exclude the placeholders from every calculation.";
const COMPACT_NOTE =
  'Some tables are listed compactly to fit the context: call describe_columns with the dataset (and the columns you need) for their full descriptions, codes and profiles before using them.';

/** The datasets block with the workspace's knowledge, as rich as `budgetTokens` allows. */
export function buildWorkspaceContext(input: WorkspaceContextInput): WorkspaceContext {
  const dicts = input.dictionaries ?? new Map<string, DataDictionary>();
  const rulesText = buildRulesContext(input.rules ?? []);
  const budget = input.budgetTokens ?? Number.POSITIVE_INFINITY;
  if (input.datasets.length === 0) {
    const text = ['No datasets are loaded. Ask the user to add a data file before analysing.', rulesText].filter(Boolean).join('\n\n');
    return { text, tokens: estimateTokens(text), levels: {}, parts: [{ label: 'rules', tokens: estimateTokens(rulesText) }] };
  }
  const hasKnowledge = input.datasets.some((d) => dicts.has(d.name));
  const levels: DetailLevel[] = input.datasets.map(() => 'full');
  const blocks = () => input.datasets.map((d, i) => datasetBlock(d, dicts.get(d.name), levels[i] ?? 'full'));
  const compose = (bs: string[]) => {
    const compact = levels.some((l) => l === 'index' || l === 'names' || l === 'table');
    const notes = [hasKnowledge ? KNOWLEDGE_NOTE : '', compact ? COMPACT_NOTE : ''].filter(Boolean).join('\n');
    return [rulesText, `${HEADER}${notes ? `\n${notes}` : ''}\n${bs.join('\n\n')}`].filter(Boolean).join('\n\n');
  };
  let current = blocks();
  let text = compose(current);
  // A step is taken only when it makes the block smaller (the compact note costs tokens too).
  const tryLevels = (next: DetailLevel[]) => {
    const saved = [...levels];
    next.forEach((l, i) => (levels[i] = l));
    const bs = blocks();
    const t = compose(bs);
    if (estimateTokens(t) < estimateTokens(text)) {
      current = bs;
      text = t;
    } else saved.forEach((l, i) => (levels[i] = l));
  };
  // Every dataset steps down together first; then the widest tables collapse to one line each.
  for (const level of LEVELS.slice(1, -1)) {
    if (estimateTokens(text) <= budget) break;
    tryLevels(levels.map(() => level));
  }
  const order = input.datasets.map((d, i) => ({ i, cols: d.columns.length })).sort((a, b) => b.cols - a.cols);
  for (const { i } of order) {
    if (estimateTokens(text) <= budget) break;
    tryLevels(levels.map((l, j) => (j === i ? 'table' : l)));
  }
  const parts = [
    { label: 'rules', tokens: estimateTokens(rulesText) },
    ...input.datasets.map((d, i) => ({ label: d.name, tokens: estimateTokens(current[i] ?? '') })),
  ];
  return { text, tokens: estimateTokens(text), levels: Object.fromEntries(input.datasets.map((d, i) => [d.name, levels[i] ?? 'full'])), parts };
}
