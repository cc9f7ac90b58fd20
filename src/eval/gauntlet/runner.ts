/**
 * Plans a gauntlet run and runs it item by item: each item is one question in one mode, in its
 * own conversation, through the same agent worker a chat uses. Every scored item is stored at
 * once; a stopped run resumes with the first item that has no score.
 */
import type { AgentEvent, EndpointSettings, PrivacyLogEntry, StartRunRequest } from '../../../protocol/agent/wire';
import type { AgentMode } from '../../../protocol/agent/final';
import { tokenTotals } from '../../privacy/privacyLog';
import { checkRun } from './check';
import type { ExpectedAnswer } from './expected';
import { QUESTIONS, SAMPLE_TABLES, type GauntletQuestion, type SampleTable } from './questions';
import { traceOf } from './record';
import type { GauntletStore } from './store';
import type { GauntletRun, ItemResult, PlannedItem } from './types';

export type Selection = { kind: 'all' } | { kind: 'category'; category: string } | { kind: 'random'; count: number } | { kind: 'ids'; ids: string[] };

/** The questions a selection picks, in the gauntlet's order (random picks use `random`). */
export function selectQuestions(selection: Selection, random: () => number = Math.random): GauntletQuestion[] {
  switch (selection.kind) {
    case 'all':
      return [...QUESTIONS];
    case 'category':
      return QUESTIONS.filter((q) => q.category === selection.category);
    case 'ids':
      return QUESTIONS.filter((q) => selection.ids.includes(q.id));
    case 'random': {
      const pool = [...QUESTIONS];
      for (let i = pool.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [pool[i], pool[j]] = [pool[j] as GauntletQuestion, pool[i] as GauntletQuestion];
      }
      const picked = new Set(pool.slice(0, selection.count).map((q) => q.id));
      return QUESTIONS.filter((q) => picked.has(q.id));
    }
  }
}

const questionById = new Map(QUESTIONS.map((q) => [q.id, q]));

/** Items in the order they run: each question in every mode, repetition by repetition. */
export function planItems(questions: readonly GauntletQuestion[], modes: readonly AgentMode[], repetitions: number): PlannedItem[] {
  const plan: PlannedItem[] = [];
  for (let rep = 1; rep <= repetitions; rep++) {
    for (const q of questions) for (const mode of modes) plan.push({ question_id: q.id, mode, rep });
  }
  return plan;
}

export function newRun(id: string, settings: Pick<EndpointSettings, 'model' | 'baseUrl'>, plan: PlannedItem[], startedMs: number): GauntletRun {
  return { id, model: settings.model, base_url: settings.baseUrl, started: new Date(startedMs).toISOString(), status: 'running', plan, items: [] };
}

/** The sample tables a plan's questions read. */
export function tablesFor(plan: readonly PlannedItem[]): SampleTable[] {
  const needed = new Set(plan.flatMap((p) => questionById.get(p.question_id)?.tables ?? []));
  return SAMPLE_TABLES.filter((t) => needed.has(t));
}

export interface GauntletDeps {
  run(request: StartRunRequest, onEvent: (event: AgentEvent) => void, signal: AbortSignal): Promise<string | null>;
  privacyLog(threadId: string): Promise<PrivacyLogEntry[]>;
  rename(threadId: string, title: string): Promise<void>;
  store: GauntletStore;
  expected: Readonly<Record<string, ExpectedAnswer>>;
  newId(): string;
  now(): number;
}

export interface GauntletProgress {
  /** The plan index that started, with its thread. */
  onItemStart?(index: number, threadId: string): void;
  onItemEvent?(index: number, event: AgentEvent): void;
  onItemDone?(result: ItemResult, run: GauntletRun): void;
}

/** The index of the next item to run, or -1 when every item has a score. */
export function nextIndex(run: GauntletRun): number {
  const done = new Set(run.items.map((i) => i.index));
  return run.plan.findIndex((_p, i) => !done.has(i));
}

/**
 * Runs (or resumes) `run` until every item is scored or `signal` stops it; the run is stored
 * after each item and when it stops. Resolves with the run as stored.
 */
export async function runGauntlet(run: GauntletRun, settings: EndpointSettings, deps: GauntletDeps, signal: AbortSignal, progress: GauntletProgress = {}): Promise<GauntletRun> {
  let current: GauntletRun = { ...run, status: 'running' };
  delete current.finished;
  await deps.store.put(current);
  for (let index = nextIndex(current); index >= 0; index = nextIndex(current)) {
    if (signal.aborted) break;
    const planned = current.plan[index] as PlannedItem;
    const q = questionById.get(planned.question_id);
    const expected = deps.expected[planned.question_id];
    if (!q || !expected) throw new Error(`The gauntlet has no question ${planned.question_id}.`);
    const threadId = deps.newId();
    progress.onItemStart?.(index, threadId);
    const events: AgentEvent[] = [];
    const started = deps.now();
    const failure = await deps.run({ settings, thread_id: threadId, question: q.question, mode: planned.mode }, (e) => {
      events.push(e);
      progress.onItemEvent?.(index, e);
    }, signal);
    const ms = Math.round(deps.now() - started);
    const trace = traceOf(events);
    // A stopped item is not scored: it runs again on resume. Stop pressed in the chat (the run
    // ended as aborted) stops the gauntlet too, rather than scoring a provider error.
    if (signal.aborted || trace.error?.kind === 'aborted') break;
    if (failure && !trace.error) trace.error = { message: failure };
    await deps.rename(threadId, `Gauntlet · ${q.id} · ${planned.mode}${current.plan.some((p) => p.rep > 1) ? ` #${planned.rep}` : ''}`).catch(() => undefined);
    const log = await deps.privacyLog(threadId).catch(() => [] as PrivacyLogEntry[]);
    const tokens = tokenTotals(log);
    const verdict = checkRun(q, expected, trace);
    const result: ItemResult = {
      index,
      id: q.id,
      category: q.category,
      difficulty: q.difficulty,
      mode: planned.mode,
      rep: planned.rep,
      thread_id: threadId,
      correct: verdict.correct,
      reason: verdict.reason,
      failure: verdict.failure,
      tokens_in: tokens.input,
      tokens_out: tokens.output,
      tokens_estimated: tokens.estimated + tokens.unreported > 0,
      requests: log.length,
      ms,
      tool_calls: trace.toolCalls,
      retries: trace.retries,
      validation: trace.validation === null ? 'none' : trace.validation ? 'agreed' : 'disagreed',
      loop: trace.statuses.includes('loop_detected'),
      budget_exhausted: trace.statuses.includes('budget_exhausted'),
      ungrounded: trace.final?.ungrounded_numbers.length ?? 0,
      answer: (trace.final?.answer ?? trace.error?.message ?? '').slice(0, 4000),
      code: trace.code.slice(0, 10),
    };
    current = { ...current, items: [...current.items, result] };
    await deps.store.put(current);
    progress.onItemDone?.(result, current);
  }
  const finished = nextIndex(current) < 0;
  current = { ...current, status: finished ? 'done' : 'stopped', ...(finished ? { finished: new Date(deps.now()).toISOString() } : {}) };
  await deps.store.put(current);
  return current;
}
