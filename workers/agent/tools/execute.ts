/**
 * Runs one tool call of the contract against the engines (through a `ToolHost`), with a timeout,
 * and returns everything the graph needs: the outcome for the guard, the text for the model
 * (truncated, `Error: …` on failure), the full output for the UI and grounding, and figures.
 */
import { parseToolArgs, type CreateChartResult, type DescribeColumnsArgs, type DescribeColumnsResult, type ExampleRecord, type ProfileDataArgs, type ProfileDataResult, type RunPythonResult, type RunSqlResult, type ToolName, type ToolOutput, type ValidateResultsArgs, isToolName } from '../../../protocol/agent/tools';
import type { PlotlyFigure } from '../../../protocol/figure';
import type { ValidationReport } from '../../../protocol/agent/structured';
import type { ToolOutcome } from '../core/guard';
import { formatToolOutputForModel, toJsonText, toolErrorText } from '../core/toolOutput';
import { buildChartFigure } from '../../../shared/chartFigure';
import { chartRows } from './chartRows';
import { limitLines, withholdRows, type RowPolicy } from './withholdRows';
import { messageOf } from '../../../shared/errors';

export type HostResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** The engines the tools reach: the data worker (DuckDB) and the Python worker. */
export interface ToolHost {
  runSql(sql: string, maxRows: number, signal: AbortSignal): Promise<HostResult<RunSqlResult>>;
  profile(args: ProfileDataArgs, signal: AbortSignal): Promise<HostResult<ProfileDataResult>>;
  /**
   * Python errors come back inside the result (`error`), not as a failed HostResult. `session`:
   * the namespace the run shares with the conversation's earlier runs (none: it starts empty).
   */
  runPython(code: string, signal: AbortSignal, session?: string): Promise<HostResult<RunPythonResult>>;
}

export interface ToolDeps {
  host: ToolHost;
  /** The critic call behind validate_results (`validation_report`). */
  validate(args: ValidateResultsArgs, signal: AbortSignal): Promise<ValidationReport>;
  searchExamples(query: string, topK: number, signal: AbortSignal): Promise<ExampleRecord[]>;
  /** describe_columns (issue 24): the dictionary and profile of columns; absent, the tool says it is unavailable. */
  describeColumns?(args: DescribeColumnsArgs, signal: AbortSignal): Promise<HostResult<DescribeColumnsResult>>;
  /** Per-tool timeout in ms (default 30 s; run_python 60 s). */
  timeoutMs?: Partial<Record<ToolName, number>>;
  /** Characters of output the model sees (default 6000). */
  modelBudget?: number;
  /** "No raw rows": at most this many rows of any output reach the model (off when absent). */
  rowPolicy?: RowPolicy;
}

export interface ToolCallInput {
  id: string;
  name: string;
  args: unknown;
  /** The Python session of the conversation the call belongs to (see `conversationSession`). */
  session?: string;
}

export interface ToolRun {
  outcome: ToolOutcome;
  /** What goes back to the model in the ToolMessage. */
  modelText: string;
  /** The full output with its tool's name (UI, grounding, the `tool_end` event); undefined on failure. */
  result?: ToolOutput;
  figure?: PlotlyFigure;
  elapsedMs: number;
}

/** Marker the agent node puts in place of arguments that were not valid JSON. */
export const INVALID_ARGS_KEY = '__invalid_json';

const DEFAULT_TIMEOUTS: Record<ToolName, number> = {
  profile_data: 30_000,
  run_sql: 30_000,
  run_python: 60_000,
  create_chart: 30_000,
  validate_results: 60_000,
  search_examples: 15_000,
  describe_columns: 60_000,
  ask_clarification: 5_000,
};

class ToolTimeout extends Error {}

async function withTimeout<T>(ms: number, parent: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work(ctrl.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          ctrl.abort();
          reject(new ToolTimeout(`timed out after ${ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}`));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    parent.removeEventListener('abort', onAbort);
  }
}

type Produced = { ok: true; result: ToolOutput; figure?: PlotlyFigure } | { ok: false; message: string };

async function produce(tool: ToolName, args: unknown, deps: ToolDeps, signal: AbortSignal, callId: string, session?: string): Promise<Produced> {
  switch (tool) {
    case 'run_sql': {
      const p = parseToolArgs('run_sql', args);
      if (!p.ok) return p;
      const r = await deps.host.runSql(p.args.sql, Math.min(p.args.max_rows ?? 200, 10_000), signal);
      return r.ok ? { ok: true, result: { tool, output: r.value } } : r;
    }
    case 'profile_data': {
      const p = parseToolArgs('profile_data', args);
      if (!p.ok) return p;
      const r = await deps.host.profile(p.args, signal);
      return r.ok ? { ok: true, result: { tool, output: r.value } } : r;
    }
    case 'run_python': {
      const p = parseToolArgs('run_python', args);
      if (!p.ok) return p;
      const r = await deps.host.runPython(p.args.code, signal, session);
      if (!r.ok) return r;
      if (r.value.error) {
        const e = r.value.error;
        const tb = e.traceback.split('\n').slice(-6).join('\n');
        const out = deps.rowPolicy ? limitLines(r.value.stdout, deps.rowPolicy.maxRows) : r.value.stdout;
        return { ok: false, message: `${e.type}: ${e.message}${tb ? `\n${tb}` : ''}${out ? `\nstdout:\n${out.slice(-1000)}` : ''}` };
      }
      return { ok: true, result: { tool, output: r.value }, ...(r.value.figure ? { figure: r.value.figure } : {}) };
    }
    case 'create_chart': {
      const p = parseToolArgs('create_chart', args);
      if (!p.ok) return p;
      // Reduced in DuckDB when the query has more rows than a chart takes (chartRows.ts).
      const q = await chartRows(deps.host, p.args.sql, p.args.chart, signal);
      if (!q.ok) return q;
      const chart = buildChartFigure(q.value.table, p.args.chart);
      if (!chart.ok) return chart;
      const summary = q.value.reduced ? `${chart.summary} Drawn from ${q.value.reduced}.` : chart.summary;
      const output: CreateChartResult = { figure_id: callId, points: chart.points, summary };
      return { ok: true, result: { tool, output }, figure: chart.figure };
    }
    case 'validate_results': {
      const p = parseToolArgs('validate_results', args);
      if (!p.ok) return p;
      return { ok: true, result: { tool, output: await deps.validate(p.args, signal) } };
    }
    case 'search_examples': {
      const p = parseToolArgs('search_examples', args);
      if (!p.ok) return p;
      return { ok: true, result: { tool, output: await deps.searchExamples(p.args.query, p.args.top_k ?? 3, signal) } };
    }
    case 'describe_columns': {
      const p = parseToolArgs('describe_columns', args);
      if (!p.ok) return p;
      if (!deps.describeColumns) return { ok: false, message: 'describe_columns is not available here; use profile_data' };
      const r = await deps.describeColumns(p.args, signal);
      return r.ok ? { ok: true, result: { tool, output: r.value } } : r;
    }
    case 'ask_clarification': {
      // Nothing to run: the graph ends the run with the question (graph.ts, guard).
      const p = parseToolArgs('ask_clarification', args);
      if (!p.ok) return p;
      return { ok: true, result: { tool, output: { question: p.args.question, choices: p.args.choices } } };
    }
  }
}

/** Runs one call; never throws except when the run itself is aborted. */
export async function executeTool(call: ToolCallInput, deps: ToolDeps, signal: AbortSignal): Promise<ToolRun> {
  const t0 = Date.now();
  const fail = (message: string): ToolRun => {
    const text = toolErrorText(message);
    return { outcome: { callId: call.id, tool: call.name, args: call.args, ok: false, error: text }, modelText: text, elapsedMs: Date.now() - t0 };
  };
  if (!isToolName(call.name)) return fail(`there is no tool named ${call.name}; the tools are profile_data, run_sql, run_python, create_chart, validate_results, search_examples, describe_columns, ask_clarification`);
  const raw = (call.args as Record<string, unknown> | null)?.[INVALID_ARGS_KEY];
  if (typeof raw === 'string') return fail(`the arguments of this ${call.name} call were not valid JSON (${raw.slice(0, 200)}). Send the call again with a valid JSON object.`);
  const tool = call.name;
  let produced: Produced;
  try {
    const ms = deps.timeoutMs?.[tool] ?? DEFAULT_TIMEOUTS[tool];
    produced = await withTimeout(ms, signal, (s) => produce(tool, call.args, deps, s, call.id, call.session));
  } catch (e) {
    if (signal.aborted) throw e;
    produced = { ok: false, message: messageOf(e) };
  }
  if (!produced.ok) return fail(produced.message);
  const { result } = produced;
  const { text } = formatToolOutputForModel(withholdRows(tool, result.output, deps.rowPolicy), deps.modelBudget);
  const outcome: ToolOutcome = { callId: call.id, tool, args: call.args, ok: true };
  if (result.tool === 'validate_results') outcome.report = result.output;
  const run: ToolRun = { outcome, modelText: text, result, elapsedMs: Date.now() - t0 };
  if (produced.figure) run.figure = produced.figure;
  return run;
}

/** A tool's result as JSON text for a model prompt (e.g. the critic's), shaped by the row policy. */
export function resultForModel(deps: Pick<ToolDeps, 'rowPolicy'>, output: unknown): string {
  return toJsonText(withholdRows(undefined, output, deps.rowPolicy));
}
