/**
 * The datasets block of every prompt, with what the user taught the workspace: their rules, each
 * dataset's dictionary (what a row is, caveats, joins) and each column's meaning, unit, codes and
 * missing-value placeholders — fitted to a token budget by priority (issue 32), never in silence:
 *
 * 1. every table is at least named (one line; past even that, in the "also available" line);
 * 2. the tables the question names (by table, column or dictionary term, `relevance.ts`) get room
 *    first, as much detail as fits; then the user's rules, whole, in their order; then the other
 *    tables with an accepted dictionary; then the rest, smallest first, so a 500-column table
 *    does not push a small survey's codes out;
 * 3. whatever is shown in less detail is named in the block ("Also available …, call
 *    describe_columns") and returned in `leftOut` for the page and the run's steps; rules that do
 *    not fit are left out whole and counted, never clipped mid-rule.
 *
 * The fitting starts from the least and adds detail while it fits, each run afresh, so a table
 * steps back up as soon as room frees.
 */
import type { DataDictionary, ColumnEntry } from '../../../protocol/agent/knowledge';
import { estimateTokens, formatSample, type DatasetContext } from '../core/prompts';
import { relevance } from './relevance';
import { describeCodes } from '../../../shared/knowledge/codesText';

export { describeCodes };

export type DetailLevel = 'full' | 'no_samples' | 'index' | 'names' | 'table' | 'omitted';
const LEVELS: readonly DetailLevel[] = ['full', 'no_samples', 'index', 'names', 'table', 'omitted'];
const rank = (l: DetailLevel) => LEVELS.indexOf(l);

export interface WorkspaceContextInput {
  datasets: readonly DatasetContext[];
  dictionaries?: ReadonlyMap<string, DataDictionary>;
  rules?: readonly string[];
  /** Estimated tokens the whole block may take (default: unlimited). */
  budgetTokens?: number;
  /** The question being asked: the tables it names are given room first. */
  question?: string;
  /** The user's metrics, one rendered line each (knowledge/trusted.ts), fitted whole after the rules. */
  metrics?: readonly string[];
  /** Trusted queries for similar questions, one rendered item each, fitted whole after the metrics. */
  trusted?: readonly string[];
}

/** Something the block shows in less detail than it has, in words for people. */
export interface LeftOut {
  /** A dataset's table name, or `rules`. */
  what: string;
  detail: string;
}

export interface WorkspaceContext {
  text: string;
  tokens: number;
  /** The level each dataset ended at (what "What the model sees" reports). */
  levels: Record<string, DetailLevel>;
  /** Sections and their estimated tokens, for the budget view. */
  parts: { label: string; tokens: number }[];
  /** The datasets the question names, most strongly named first. */
  named: string[];
  /** What the block shows in less detail or not at all (empty when everything fitted). */
  leftOut: LeftOut[];
  /** How many of the rules (from the first) the block carries. */
  rulesShown: number;
  /** How many of the metrics and trusted queries (from the first) it carries. */
  metricsShown: number;
  trustedShown: number;
  /**
   * Per dataset with a dictionary: how many of its described columns the block carries in full
   * (description, unit, codes, placeholders) — what the dictionary editor's badge says.
   */
  described: Record<string, { shown: number; total: number }>;
}

export const METRICS_HEADING = '## Metrics the user defined (use them by these names and definitions, and name the metric you used in your answer)';
export const TRUSTED_HEADING =
  '## Trusted queries for similar questions (the user marked each as answering its question correctly: when the question matches, reuse or adapt the query, and say in your answer that you used a trusted query)';

/** A list section of whole items, with a count of the ones left out for lack of room. */
function listSection(heading: string, items: readonly string[], leftOut: number, what: string): string {
  if (items.length === 0 && leftOut === 0) return '';
  const omitted = leftOut > 0 ? `\n(${leftOut} more ${what} left out here for lack of room.)` : '';
  return `${heading}\n${items.join('\n')}${omitted}`;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A column's meaning in one line: description, unit, codes and placeholders. */
export function describeEntry(e: ColumnEntry | undefined, short = false): string {
  if (!e) return '';
  const bits: string[] = [];
  if (e.description.trim()) bits.push(short ? clip(e.description.trim(), 70) : e.description.trim());
  if (e.unit.trim()) bits.push(`unit: ${e.unit.trim()}`);
  if (e.role === 'identifier') bits.push('identifier');
  if (e.codes.length) bits.push(short ? 'coded (see describe_columns)' : describeCodes(e.codes));
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

function datasetBlock(ds: DatasetContext, dict: DataDictionary | undefined, level: DetailLevel, focus: readonly string[] = []): string {
  if (level === 'omitted') return '';
  const head = `### ${ds.name} (${ds.rowCount} rows, ${ds.columns.length} columns)`;
  const entries = new Map((dict?.columns ?? []).map((c) => [c.name, c]));
  // How the dataset was read (time zones stored as UTC, the load report) comes before its meaning.
  const notes = [...(ds.notes ?? []).map((n) => `Note: ${n}`), ...datasetNotes(dict)];
  // A compact listing still describes in full the columns the question names.
  const focused = ds.columns
    .filter((c) => focus.includes(c.name))
    .map((c) => {
      const meaning = describeEntry(entries.get(c.name));
      return `${c.name} ${c.type}${meaning ? ` — ${meaning}` : ''}`;
    });
  const focusText = focused.length ? `\nColumns the question names:\n${focused.join('\n')}` : '';
  if (level === 'table') {
    const described = dict ? ' (described in its data dictionary)' : '';
    return `${head}${described}: columns not listed here to save space; call describe_columns with dataset "${ds.name}" to list and describe them.${notes.length ? `\n${notes.map((n) => clip(n, 160)).join('\n')}` : ''}${focusText}`;
  }
  if (level === 'names') {
    return [head, ...notes.map((n) => clip(n, 160)), ds.columns.map((c) => `${c.name} ${c.type}`).join(', ')].join('\n') + focusText;
  }
  const lines = ds.columns.map((c) => {
    const meaning = describeEntry(entries.get(c.name), level === 'index');
    const vals = level === 'full' ? (c.samples ?? []).slice(0, 3).map((v) => formatSample(v)) : [];
    return `${c.name} ${c.type}${meaning ? ` — ${meaning}` : ''}${vals.length ? `: ${vals.join(', ')}` : ''}`;
  });
  return [head, ...notes, ...lines].join('\n');
}

export const RULES_HEADING = "## The user's rules for this workspace (always apply them; they override your defaults)";

export function buildRulesContext(rules: readonly string[], leftOut = 0): string {
  const list = rules.map((r) => r.trim()).filter((r) => r !== '');
  if (list.length === 0 && leftOut === 0) return '';
  const omitted = leftOut > 0 ? `\n(${leftOut === 1 ? '1 more rule is' : `${leftOut} more rules are`} left out here for lack of room; if the answer may depend on a rule you cannot see, say so.)` : '';
  return `${RULES_HEADING}\n${list.map((r) => `- ${r}`).join('\n')}${omitted}`;
}

const HEADER = 'Datasets (each is a DuckDB table; quote names with double quotes if they need it):';
const KNOWLEDGE_NOTE =
  "Column meanings, units, codes and missing-value placeholders come from the user's data dictionary: decode codes with them and exclude the placeholders from every calculation.";
const ALSO_HEAD = 'Also available in less detail, to fit the context (call describe_columns with the dataset, and the columns you need, for their full descriptions, codes and profiles before using them):';

/** What a dataset at `level` lacks, in words; undefined when nothing worth naming is left out. */
function lacks(ds: DatasetContext, dict: DataDictionary | undefined, level: DetailLevel): string | undefined {
  const coded = dict?.columns.some((c) => c.codes.length > 0) ?? false;
  switch (level) {
    case 'full':
    case 'no_samples':
      return undefined;
    case 'index':
      return dict ? `${coded ? 'codes and ' : ''}full descriptions of its dictionary left out` : undefined;
    case 'names':
      return dict ? 'its dictionary left out; names and types only' : undefined;
    case 'table':
      return dict ? 'columns and dictionary not listed' : 'columns not listed';
    case 'omitted':
      return dict ? 'not described here, with a data dictionary' : 'not described here';
  }
}

/** How many of a dictionary's described columns a block at `level` carries in full. */
function describedColumns(ds: DatasetContext, dict: DataDictionary, level: DetailLevel, focus: readonly string[]): { shown: number; total: number } {
  const present = new Set(ds.columns.map((c) => c.name));
  const entries = dict.columns.filter((c) => present.has(c.name) && describeEntry(c) !== '');
  const whole = (c: ColumnEntry): boolean => {
    switch (level) {
      case 'full':
      case 'no_samples':
        return true;
      case 'index':
        return describeEntry(c, true) === describeEntry(c);
      case 'names':
      case 'table':
        return focus.includes(c.name);
      case 'omitted':
        return false;
    }
  };
  return { shown: entries.filter(whole).length, total: entries.length };
}

/** The datasets block with the workspace's knowledge, as rich as `budgetTokens` allows. */
export function buildWorkspaceContext(input: WorkspaceContextInput): WorkspaceContext {
  const dicts = input.dictionaries ?? new Map<string, DataDictionary>();
  const rules = (input.rules ?? []).map((r) => r.trim()).filter((r) => r !== '');
  const budgetChars = (input.budgetTokens ?? Number.POSITIVE_INFINITY) * 4;
  const datasets = input.datasets;
  const scores = relevance(input.question ?? '', datasets, dicts);
  const score = (name: string) => scores.get(name)?.score ?? 0;
  const named = datasets.filter((d) => score(d.name) > 0).sort((a, b) => score(b.name) - score(a.name)).map((d) => d.name);

  if (datasets.length === 0) {
    let shown = rules.length;
    const compose = () => ['No datasets are loaded. Ask the user to add a data file before analysing.', buildRulesContext(rules.slice(0, shown), rules.length - shown)].filter(Boolean).join('\n\n');
    while (shown > 0 && compose().length > budgetChars) shown--;
    const text = compose();
    const leftOut = shown < rules.length ? [{ what: 'rules', detail: `${rules.length - shown} of ${rules.length} rules left out` }] : [];
    return { text, tokens: estimateTokens(text), levels: {}, parts: [{ label: 'rules', tokens: estimateTokens(buildRulesContext(rules.slice(0, shown))) }], named: [], leftOut, rulesShown: shown, metricsShown: 0, trustedShown: 0, described: {} };
  }

  const cache = new Map<string, string>();
  const block = (i: number, level: DetailLevel): string => {
    const key = `${i}:${level}`;
    let b = cache.get(key);
    if (b === undefined) {
      const ds = datasets[i] as DatasetContext;
      b = datasetBlock(ds, dicts.get(ds.name), level, scores.get(ds.name)?.columns);
      cache.set(key, b);
    }
    return b;
  };
  const levels: DetailLevel[] = datasets.map(() => 'table');
  let rulesShown = 0;
  const metrics = input.metrics ?? [];
  const trusted = input.trusted ?? [];
  let metricsShown = 0;
  let trustedShown = 0;

  const compose = (): string => {
    const shownDicts = datasets.some((d, i) => dicts.has(d.name) && rank(levels[i] ?? 'table') <= rank('index'));
    // Grouped by what they lack, so fifty tables named only cost their names.
    const also = new Map<string, string[]>();
    datasets.forEach((d, i) => {
      const why = lacks(d, dicts.get(d.name), levels[i] ?? 'table');
      if (why) also.set(why, [...(also.get(why) ?? []), d.name]);
    });
    const alsoText = [...also].map(([why, names]) => `${names.join(', ')} (${why})`).join('; ');
    const notes = [shownDicts ? KNOWLEDGE_NOTE : '', alsoText ? `${ALSO_HEAD} ${alsoText}.` : ''].filter(Boolean).join('\n');
    const blocks = datasets.map((_, i) => block(i, levels[i] ?? 'table')).filter((b) => b !== '');
    const rulesText = buildRulesContext(rules.slice(0, rulesShown), rules.length - rulesShown);
    const metricsText = listSection(METRICS_HEADING, metrics.slice(0, metricsShown), metrics.length - metricsShown, 'metrics');
    const trustedText = listSection(TRUSTED_HEADING, trusted.slice(0, trustedShown), trusted.length - trustedShown, 'trusted queries');
    return [rulesText, metricsText, trustedText, `${HEADER}${notes ? `\n${notes}` : ''}${blocks.length ? `\n${blocks.join('\n\n')}` : ''}`].filter(Boolean).join('\n\n');
  };
  // The length `compose()` would give, kept from running totals so each try costs O(1) in the
  // number of tables (composing the text per try took 3 s for 500 tables).
  const whyOf = (i: number, l: DetailLevel) => {
    const d = datasets[i] as DatasetContext;
    return lacks(d, dicts.get(d.name), l);
  };
  const dictShown = (i: number, l: DetailLevel) => dicts.has((datasets[i] as DatasetContext).name) && rank(l) <= rank('index');
  let sumBlocks = 0;
  let nBlocks = 0;
  let nDictShown = 0;
  const groups = new Map<string, { count: number; names: number }>();
  const account = (i: number, l: DetailLevel, sign: 1 | -1) => {
    const b = block(i, l);
    if (b !== '') {
      sumBlocks += sign * b.length;
      nBlocks += sign;
    }
    if (dictShown(i, l)) nDictShown += sign;
    const why = whyOf(i, l);
    if (why) {
      const g = groups.get(why) ?? { count: 0, names: 0 };
      g.count += sign;
      g.names += sign * (datasets[i] as DatasetContext).name.length;
      if (g.count === 0) groups.delete(why);
      else groups.set(why, g);
    }
  };
  levels.forEach((l, i) => account(i, l, 1));
  const setLevel = (i: number, l: DetailLevel) => {
    account(i, levels[i] ?? 'table', -1);
    levels[i] = l;
    account(i, l, 1);
  };
  const sectionCache = new Map<string, number[]>();
  const sectionLengths = (): number[] => {
    const key = `${rulesShown}|${metricsShown}|${trustedShown}`;
    let v = sectionCache.get(key);
    if (!v) {
      v = [
        buildRulesContext(rules.slice(0, rulesShown), rules.length - rulesShown).length,
        listSection(METRICS_HEADING, metrics.slice(0, metricsShown), metrics.length - metricsShown, 'metrics').length,
        listSection(TRUSTED_HEADING, trusted.slice(0, trustedShown), trusted.length - trustedShown, 'trusted queries').length,
      ];
      sectionCache.set(key, v);
    }
    return v;
  };
  const measure = (): number => {
    let alsoText = 0;
    for (const [why, g] of groups) alsoText += g.names + 2 * (g.count - 1) + 2 + why.length + 1;
    if (groups.size > 1) alsoText += 2 * (groups.size - 1);
    const noteParts = [nDictShown > 0 ? KNOWLEDGE_NOTE.length : 0, groups.size > 0 ? ALSO_HEAD.length + 1 + alsoText + 1 : 0].filter((n) => n > 0);
    const notes = noteParts.length ? noteParts.reduce((a, b) => a + b, 0) + (noteParts.length - 1) : 0;
    const datasetsPart = HEADER.length + (notes ? 1 + notes : 0) + (nBlocks ? 1 + sumBlocks + 2 * (nBlocks - 1) : 0);
    const sections = sectionLengths().filter((n) => n > 0);
    return sections.reduce((a, b) => a + b + 2, 0) + datasetsPart;
  };
  const fits = () => measure() <= budgetChars;

  // The floor: every table one line; the least wanted are only named when even that is too much.
  const priority = [
    ...named.map((n) => datasets.findIndex((d) => d.name === n)),
    ...datasets
      .map((d, i) => ({ d, i }))
      .filter(({ d }) => !named.includes(d.name))
      .sort((a, b) => Number(dicts.has(b.d.name)) - Number(dicts.has(a.d.name)) || block(a.i, 'full').length - block(b.i, 'full').length || a.i - b.i)
      .map(({ i }) => i),
  ];
  for (let k = priority.length - 1; k >= 0 && !fits(); k--) {
    const i = priority[k] as number;
    const before = measure();
    setLevel(i, 'omitted');
    if (measure() >= before) setLevel(i, 'table');
  }
  // A budget too small for any floor: each table at whatever level is shortest, and nothing more.
  if (!fits()) {
    for (const i of priority) {
      let best = measure();
      let chosen = levels[i] ?? 'table';
      for (const level of LEVELS) {
        setLevel(i, level);
        const n = measure();
        if (n < best) [best, chosen] = [n, level];
      }
      setLevel(i, chosen);
    }
  }

  const raise = (i: number) => {
    const floor = rank(levels[i] ?? 'table');
    for (const level of LEVELS.slice(0, floor)) {
      const was = levels[i] ?? 'table';
      setLevel(i, level);
      if (fits()) return;
      setLevel(i, was);
    }
  };
  const namedCount = named.length;
  priority.slice(0, namedCount).forEach(raise);
  for (let k = rules.length; k > 0; k--) {
    rulesShown = k;
    if (fits()) break;
    rulesShown = 0;
  }
  for (let k = metrics.length; k > 0; k--) {
    metricsShown = k;
    if (fits()) break;
    metricsShown = 0;
  }
  for (let k = trusted.length; k > 0; k--) {
    trustedShown = k;
    if (fits()) break;
    trustedShown = 0;
  }
  priority.slice(namedCount).forEach(raise);

  const text = compose();
  const leftOut: LeftOut[] = [];
  if (rulesShown < rules.length) leftOut.push({ what: 'rules', detail: `${rules.length - rulesShown} of ${rules.length} rules left out (rules ${rulesShown + 1}–${rules.length})` });
  if (metricsShown < metrics.length) leftOut.push({ what: 'metrics', detail: `${metrics.length - metricsShown} of ${metrics.length} metrics left out` });
  if (trustedShown < trusted.length) leftOut.push({ what: 'trusted queries', detail: `${trusted.length - trustedShown} of ${trusted.length} trusted queries left out` });
  datasets.forEach((d, i) => {
    const why = lacks(d, dicts.get(d.name), levels[i] ?? 'table');
    if (why) leftOut.push({ what: d.name, detail: why });
  });
  const parts = [
    { label: 'rules', tokens: estimateTokens(buildRulesContext(rules.slice(0, rulesShown), rules.length - rulesShown)) },
    ...datasets.map((d, i) => ({ label: d.name, tokens: estimateTokens(block(i, levels[i] ?? 'table')) })),
  ];
  const described: Record<string, { shown: number; total: number }> = {};
  datasets.forEach((d, i) => {
    const dict = dicts.get(d.name);
    if (dict) described[d.name] = describedColumns(d, dict, levels[i] ?? 'table', scores.get(d.name)?.columns ?? []);
  });
  return { text, tokens: estimateTokens(text), levels: Object.fromEntries(datasets.map((d, i) => [d.name, levels[i] ?? 'table'])), parts, named, leftOut, rulesShown, metricsShown, trustedShown, described };
}
