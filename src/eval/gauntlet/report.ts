/** The gauntlet's report: accuracy by dimension, latency, tokens, cost, and the run's exports. */
import { toCsv } from '../../files/csv';
import { FAILURE_CLASSES, type FailureClass } from './check';
import type { GauntletRun, ItemResult } from './types';

export interface Prices {
  /** Price per million input (prompt) tokens. */
  input: number;
  /** Price per million output (completion) tokens. */
  output: number;
}

export interface Group {
  key: string;
  n: number;
  correct: number;
  accuracy: number;
}

export interface Summary {
  n: number;
  correct: number;
  accuracy: number;
  byCategory: Group[];
  byMode: Group[];
  byDifficulty: Group[];
  failures: { failure: FailureClass; n: number }[];
  medianMs: number;
  p90Ms: number;
  tokensIn: number;
  tokensOut: number;
  requests: number;
  /** Total cost and cost per correct answer, when prices are given. */
  cost: { total: number; perCorrect: number | null } | null;
}

/** Nearest-rank percentile (p in 0..100) of `values`; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

function groups(items: readonly ItemResult[], keyOf: (i: ItemResult) => string): Group[] {
  const by = new Map<string, ItemResult[]>();
  for (const i of items) by.set(keyOf(i), [...(by.get(keyOf(i)) ?? []), i]);
  return [...by.entries()].map(([key, list]) => {
    const correct = list.filter((i) => i.correct).length;
    return { key, n: list.length, correct, accuracy: correct / list.length };
  });
}

export function costOf(tokensIn: number, tokensOut: number, prices: Prices): number {
  return (tokensIn * prices.input + tokensOut * prices.output) / 1_000_000;
}

export function summarise(items: readonly ItemResult[], prices?: Prices | null): Summary {
  const correct = items.filter((i) => i.correct).length;
  const tokensIn = items.reduce((s, i) => s + i.tokens_in, 0);
  const tokensOut = items.reduce((s, i) => s + i.tokens_out, 0);
  const ms = items.map((i) => i.ms);
  const total = prices ? costOf(tokensIn, tokensOut, prices) : null;
  return {
    n: items.length,
    correct,
    accuracy: items.length ? correct / items.length : 0,
    byCategory: groups(items, (i) => i.category),
    byMode: groups(items, (i) => i.mode),
    byDifficulty: groups(items, (i) => i.difficulty),
    failures: FAILURE_CLASSES.map((failure) => ({ failure, n: items.filter((i) => i.failure === failure).length })).filter((f) => f.n > 0),
    medianMs: percentile(ms, 50),
    p90Ms: percentile(ms, 90),
    tokensIn,
    tokensOut,
    requests: items.reduce((s, i) => s + i.requests, 0),
    cost: total === null ? null : { total, perCorrect: correct ? total / correct : null },
  };
}

export const CSV_COLUMNS = [
  'index', 'id', 'category', 'difficulty', 'mode', 'rep', 'correct', 'failure', 'reason', 'tokens_in', 'tokens_out', 'tokens_estimated',
  'requests', 'ms', 'tool_calls', 'retries', 'validation', 'loop', 'budget_exhausted', 'ungrounded', 'thread_id',
] as const satisfies readonly (keyof ItemResult)[];

/** One row per item (the shared CSV writer keeps formula-like text inert). */
export function runCsv(run: GauntletRun): string {
  const items = [...run.items].sort((a, b) => a.index - b.index);
  return toCsv([...CSV_COLUMNS], items.map((i) => CSV_COLUMNS.map((c) => i[c])));
}

/** The run as JSON: never the key (it is never part of a run). */
export function runJson(run: GauntletRun, prices?: Prices | null): string {
  const items = [...run.items].sort((a, b) => a.index - b.index);
  return JSON.stringify({ model: run.model, base_url: run.base_url, started: run.started, finished: run.finished ?? null, status: run.status, summary: summarise(items, prices), items }, null, 2);
}

/** The file name an export gets: model and date, safe on every file system. */
export function exportName(run: GauntletRun, ext: 'csv' | 'json'): string {
  const model = run.model.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'model';
  return `gauntlet-${model}-${run.started.slice(0, 10)}.${ext}`;
}
