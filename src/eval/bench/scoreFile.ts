/**
 * A score file: one run of a question set (the gauntlet or a brought benchmark) as people share
 * it — model, endpoint kind, mode, date, per item (right or not, tokens, cost, time, failure
 * class) and the summary. Never the key or the full base URL: only what kind of endpoint it was.
 */
import { FAILURE_CLASSES } from '../gauntlet/check';
import { costOf, percentile, type Prices } from '../gauntlet/report';
import type { GauntletRun } from '../gauntlet/types';
import { isLocalEndpoint, pricePreset } from '../../costs/prices';
import { summariseDabench } from './dabench';
import type { BenchRun } from './types';

export const SCORE_SCHEMA = 'dataseer.score/1';

export interface ScoreItem {
  id: string;
  mode: string;
  level: string;
  concepts: string[];
  correct: boolean;
  failure: string | null;
  reason: string;
  /** DABench: sub-answers right and asked. */
  sub_correct?: number;
  sub_total?: number;
  tokens_in: number;
  tokens_out: number;
  /** USD; null without a price. */
  cost: number | null;
  ms: number;
}

export interface ScoreFile {
  schema: typeof SCORE_SCHEMA;
  suite: string;
  format: 'gauntlet' | 'dabench' | 'generic';
  model: string;
  /** `local`, or the provider preset the base URL belongs to (OpenAI, Groq, …, Custom). */
  endpoint_kind: string;
  mode: string;
  /** ISO 8601: when the run started. */
  date: string;
  status: string;
  items: ScoreItem[];
}

export function endpointKind(baseUrl: string): string {
  return isLocalEndpoint(baseUrl) ? 'local' : pricePreset(baseUrl);
}

const itemCost = (tin: number, tout: number, prices: Prices | null): number | null => (prices ? costOf(tin, tout, prices) : null);

export function scoreFromBench(run: BenchRun, prices: Prices | null): ScoreFile {
  const items = [...run.items].sort((a, b) => a.index - b.index);
  return {
    schema: SCORE_SCHEMA,
    suite: run.suite,
    format: run.format,
    model: run.model,
    endpoint_kind: endpointKind(run.base_url),
    mode: run.mode,
    date: run.started,
    status: run.status,
    items: items.map((i) => ({
      id: i.id,
      mode: run.mode,
      level: i.level,
      concepts: i.concepts,
      correct: i.correct,
      failure: i.failure,
      reason: i.reason,
      ...(i.sub ? { sub_correct: i.sub.filter((s) => s.correct).length, sub_total: i.sub.length } : {}),
      tokens_in: i.tokens_in,
      tokens_out: i.tokens_out,
      cost: itemCost(i.tokens_in, i.tokens_out, prices),
      ms: i.ms,
    })),
  };
}

export function scoreFromGauntlet(run: GauntletRun, prices: Prices | null): ScoreFile {
  const items = [...run.items].sort((a, b) => a.index - b.index);
  const modes = [...new Set(run.plan.map((p) => p.mode))];
  return {
    schema: SCORE_SCHEMA,
    suite: 'Dataseer gauntlet',
    format: 'gauntlet',
    model: run.model,
    endpoint_kind: endpointKind(run.base_url),
    mode: modes.length > 1 ? 'both' : (modes[0] ?? 'agent'),
    date: run.started,
    status: run.status,
    items: items.map((i) => ({
      id: i.id,
      mode: i.mode,
      level: i.difficulty,
      concepts: [i.category],
      correct: i.correct,
      failure: i.failure,
      reason: i.reason,
      tokens_in: i.tokens_in,
      tokens_out: i.tokens_out,
      cost: itemCost(i.tokens_in, i.tokens_out, prices),
      ms: i.ms,
    })),
  };
}

// --------------------------------------------------------------------------------- reading

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** A score file read back, or what is wrong with it. */
export function parseScoreFile(text: string): ScoreFile | string {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  if (!isRecord(v) || v.schema !== SCORE_SCHEMA) return `not a score file (its "schema" is not ${SCORE_SCHEMA})`;
  for (const k of ['suite', 'model', 'endpoint_kind', 'mode', 'date', 'status'] as const) if (!str(v[k])) return `"${k}" is missing`;
  if (v.format !== 'gauntlet' && v.format !== 'dabench' && v.format !== 'generic') return '"format" must be gauntlet, dabench or generic';
  if (!Array.isArray(v.items)) return '"items" is missing';
  const items: ScoreItem[] = [];
  for (const [n, i] of v.items.entries()) {
    if (!isRecord(i) || !str(i.id) || typeof i.correct !== 'boolean' || !finite(i.tokens_in) || !finite(i.tokens_out) || !finite(i.ms)) return `item ${n + 1} lacks id, correct, tokens_in, tokens_out or ms`;
    const failure = str(i.failure) ? i.failure : null;
    items.push({
      id: i.id,
      mode: str(i.mode) ? i.mode : String(v.mode),
      level: str(i.level) ? i.level : 'unknown',
      concepts: Array.isArray(i.concepts) ? i.concepts.filter(str) : [],
      correct: i.correct,
      failure,
      reason: str(i.reason) ? i.reason : '',
      ...(finite(i.sub_correct) && finite(i.sub_total) ? { sub_correct: i.sub_correct, sub_total: i.sub_total } : {}),
      tokens_in: i.tokens_in,
      tokens_out: i.tokens_out,
      cost: finite(i.cost) ? i.cost : null,
      ms: i.ms,
    });
  }
  return { schema: SCORE_SCHEMA, suite: v.suite as string, format: v.format, model: v.model as string, endpoint_kind: v.endpoint_kind as string, mode: v.mode as string, date: v.date as string, status: v.status as string, items };
}

export function scoreFileName(s: ScoreFile): string {
  const safe = (x: string) => x.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'x';
  return `score-${safe(s.suite)}-${safe(s.model)}-${s.date.slice(0, 10)}.json`;
}

// --------------------------------------------------------------------------------- comparing

export interface RunRow {
  suite: string;
  model: string;
  endpoint_kind: string;
  mode: string;
  date: string;
  n: number;
  correct: number;
  accuracy: number;
  /** DABench's accuracy by sub-question, when the run has sub-answers. */
  subAccuracy: number | null;
  cost: number | null;
  costPerCorrect: number | null;
  medianMs: number;
  failures: { failure: string; n: number }[];
}

/** One row of the side-by-side table. */
export function rowOf(s: ScoreFile): RunRow {
  const correct = s.items.filter((i) => i.correct).length;
  const costs = s.items.map((i) => i.cost);
  const cost = costs.length && costs.every((c): c is number => c !== null) ? costs.reduce((a, b) => a + b, 0) : null;
  const withSub = s.items.filter((i) => i.sub_total !== undefined);
  const subAccuracy = withSub.length
    ? summariseDabench(withSub.map((i) => ({ id: i.id, level: i.level, concepts: i.concepts, sub: Array.from({ length: i.sub_total ?? 0 }, (_x, k) => ({ name: String(k), expected: '', got: null, correct: k < (i.sub_correct ?? 0) })) }))).bySubQuestion
    : null;
  const known = new Set<string>(FAILURE_CLASSES);
  const failureNames = [...new Set(s.items.map((i) => i.failure).filter((f): f is string => f !== null))].sort((a, b) => Number(!known.has(a)) - Number(!known.has(b)));
  return {
    suite: s.suite,
    model: s.model,
    endpoint_kind: s.endpoint_kind,
    mode: s.mode,
    date: s.date,
    n: s.items.length,
    correct,
    accuracy: s.items.length ? correct / s.items.length : 0,
    subAccuracy,
    cost,
    costPerCorrect: cost !== null && correct > 0 ? cost / correct : null,
    medianMs: percentile(s.items.map((i) => i.ms), 50),
    failures: failureNames.map((failure) => ({ failure, n: s.items.filter((i) => i.failure === failure).length })),
  };
}
