/**
 * Runs a brought benchmark item by item, each in its own conversation, through an agent whose
 * datasets are the suite's files only (the workspace). Every scored item is stored at once; a
 * stopped run resumes with the first item that has no score.
 */
import type { AgentEvent, EndpointSettings, PrivacyLogEntry, StartRunRequest } from '../../../protocol/agent/wire';
import type { AgentMode } from '../../../protocol/agent/final';
import { tokenTotals } from '../../privacy/privacyLog';
import { traceOf } from '../gauntlet/record';
import { dabenchPrompt } from './dabench';
import { genericPrompt } from './generic';
import { scoreItem } from './score';
import type { Suite, SuiteItem } from './suite';
import type { BenchItemResult, BenchRun } from './types';

export interface BenchStoreLike {
  put(run: BenchRun): Promise<void>;
}

export interface BenchDeps {
  run(request: StartRunRequest, onEvent: (event: AgentEvent) => void, signal: AbortSignal): Promise<string | null>;
  privacyLog(threadId: string): Promise<PrivacyLogEntry[]>;
  rename(threadId: string, title: string): Promise<void>;
  store: BenchStoreLike;
  newId(): string;
  now(): number;
}

export interface BenchProgress {
  onItemStart?(index: number, threadId: string): void;
  onItemEvent?(index: number, event: AgentEvent): void;
  onItemDone?(result: BenchItemResult, run: BenchRun): void;
}

export function newBenchRun(id: string, suite: Suite, settings: Pick<EndpointSettings, 'model' | 'baseUrl'>, mode: AgentMode, startedMs: number): BenchRun {
  return {
    id,
    suite: suite.name,
    format: suite.format,
    model: settings.model,
    base_url: settings.baseUrl,
    mode,
    started: new Date(startedMs).toISOString(),
    status: 'running',
    plan: suite.items.map((i) => i.id),
    items: [],
  };
}

export function nextBenchIndex(run: BenchRun): number {
  const done = new Set(run.items.map((i) => i.index));
  return run.plan.findIndex((_p, i) => !done.has(i));
}

/**
 * The run without the unscored questions that read any of `files` (files the workspace could
 * not load). Scored items stay, renumbered to their place in the shorter plan.
 */
export function leaveOut(run: BenchRun, suite: Suite, files: readonly string[]): BenchRun {
  if (files.length === 0) return run;
  const lost = new Set(suite.items.filter((it) => it.files.some((f) => files.includes(f))).map((it) => it.id));
  const scored = new Set(run.items.map((it) => it.id));
  const plan = run.plan.filter((id) => !lost.has(id) || scored.has(id));
  return { ...run, plan, items: run.items.map((it) => ({ ...it, index: plan.indexOf(it.id) })) };
}

/** The question as the model gets it, naming the table each of its files loaded as. */
export function promptFor(item: SuiteItem, tables: ReadonlyMap<string, string>): string {
  const tableOf = (file: string) => tables.get(file) ?? file;
  if (item.format === 'dabench') return dabenchPrompt(item.question, tableOf(item.files[0] as string));
  return genericPrompt(item.question, item.files.map((file) => ({ file, table: tableOf(file) })));
}

/** Runs (or resumes) `run` until every item is scored or `signal` stops it. */
export async function runBench(run: BenchRun, suite: Suite, tables: ReadonlyMap<string, string>, settings: EndpointSettings, deps: BenchDeps, signal: AbortSignal, progress: BenchProgress = {}): Promise<BenchRun> {
  const byId = new Map(suite.items.map((i) => [i.id, i]));
  let current: BenchRun = { ...run, status: 'running' };
  delete current.finished;
  await deps.store.put(current);
  for (let index = nextBenchIndex(current); index >= 0; index = nextBenchIndex(current)) {
    if (signal.aborted) break;
    const item = byId.get(current.plan[index] as string);
    if (!item) throw new Error(`The suite has no question ${current.plan[index]}.`);
    const threadId = deps.newId();
    progress.onItemStart?.(index, threadId);
    const events: AgentEvent[] = [];
    const started = deps.now();
    const failure = await deps.run({ settings, thread_id: threadId, question: promptFor(item, tables), mode: current.mode }, (e) => {
      events.push(e);
      progress.onItemEvent?.(index, e);
    }, signal);
    const ms = Math.round(deps.now() - started);
    const trace = traceOf(events);
    // A stopped item is not scored: it runs again on resume.
    if (signal.aborted || trace.error?.kind === 'aborted') break;
    if (failure && !trace.error) trace.error = { message: failure };
    await deps.rename(threadId, `Benchmark · ${current.suite} · ${item.id}`).catch(() => undefined);
    const log = await deps.privacyLog(threadId).catch(() => [] as PrivacyLogEntry[]);
    const tokens = tokenTotals(log);
    const verdict = scoreItem(item, trace);
    const result: BenchItemResult = {
      index,
      id: item.id,
      level: item.level,
      concepts: [...item.concepts],
      thread_id: threadId,
      correct: verdict.correct,
      reason: verdict.reason,
      failure: verdict.failure,
      ...(item.format === 'generic' ? { kind: item.question.expected.kind } : {}),
      ...(verdict.sub ? { sub: verdict.sub } : {}),
      tokens_in: tokens.input,
      tokens_out: tokens.output,
      tokens_estimated: tokens.estimated + tokens.unreported > 0,
      requests: log.length,
      ms,
      answer: (trace.final?.answer ?? trace.error?.message ?? '').slice(0, 4000),
    };
    current = { ...current, items: [...current.items, result] };
    await deps.store.put(current);
    progress.onItemDone?.(result, current);
  }
  const finished = nextBenchIndex(current) < 0;
  current = { ...current, status: finished ? 'done' : 'stopped', ...(finished ? { finished: new Date(deps.now()).toISOString() } : {}) };
  await deps.store.put(current);
  return current;
}
