/**
 * The `ToolHost` the agent worker uses: DuckDB through the data worker (over a MessagePort) and
 * Python through the Python worker. Statements that would drop, alter or delete from a user's
 * dataset are refused before they reach DuckDB.
 */
import { decodeIpc } from '../../../shared/arrowDecode';
import type { DataEvent, DataPeerRequests, ProfileSample } from '../../../protocol/data';
import type { AgentPythonEvent, AgentPythonRequests, PyResult, RunOutcome } from '../../../protocol/python';
import type { ColumnQuality, ProfileDataArgs, ProfileDataResult, RunPythonResult, RunSqlResult } from '../../../protocol/agent/tools';
import type { PlotlyFigure } from '../../../protocol/figure';
import type { RpcClient } from '../../../protocol/rpcClient';
import type { HostResult, ToolHost } from './execute';
import { messageOf } from '../../../shared/errors';

export type DataClient = Pick<RpcClient<DataPeerRequests, DataEvent>, 'call'>;
export type PythonClient = Pick<RpcClient<AgentPythonRequests, AgentPythonEvent>, 'call'>;

/** Collects a run's stdout/stderr as the page streams it (each chunk arrives once). */
export class PythonOutput {
  private readonly buffers = new Map<string, string[]>();

  /** Wire this to the Python client's event callback. */
  onEvent(e: AgentPythonEvent): void {
    if (e.type === 'packages') return;
    const b = this.buffers.get(e.runId);
    if (b) b.push(e.text);
  }

  begin(runId: string): void {
    this.buffers.set(runId, []);
  }

  take(runId: string): string {
    const text = (this.buffers.get(runId) ?? []).join('');
    this.buffers.delete(runId);
    return text;
  }
}

export interface WorkerHostOptions {
  data: DataClient;
  python?: { client: PythonClient; output: PythonOutput };
}

const errorText = (e: unknown) => (messageOf(e));

function pyResultToJson(r: PyResult | undefined): unknown {
  if (!r) return null;
  switch (r.kind) {
    case 'table':
      return { columns: r.columns, rows: r.rows, row_count: r.rowCount, truncated: r.truncated };
    case 'scalar':
      return r.value;
    case 'json':
      return r.value;
    case 'repr':
      return r.text;
  }
}

let runCounter = 0;

/** Rows read for the sample values of profile_data (five distinct per column are kept). */
const PROFILE_SAMPLE_ROWS = 50;

/** What profile_data says when it profiled only the first `profiled` of a dataset's `total` columns. */
export function unprofiledNote(profiled: number, total: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `profiled the first ${n(profiled)} of ${n(total)} columns; name columns to profile others`;
}

/** profile_data's answer from the data worker's `profileSample`. */
export function profileDataResult(args: ProfileDataArgs, out: ProfileSample): ProfileDataResult {
  const { profile } = out;
  const all = out.columns;
  const reqColumns = (args.check_requirements ?? []).filter((r) => all.includes(r) || /^[\w.-]+$/.test(r));
  const wanted = [...new Set([...(args.columns ?? profile.columns.map((c) => c.name)), ...reqColumns])];
  const found = wanted.filter((c) => all.includes(c));
  const missing = wanted.filter((c) => !all.includes(c));
  const { rows } = decodeIpc(out.sample.ipc);
  const sampleColumns = out.sample.columns;
  const quality: Record<string, ColumnQuality> = {};
  const issues: string[] = [];
  for (const c of profile.columns) {
    if (!found.includes(c.name)) continue;
    const idx = sampleColumns.findIndex((s) => s.name === c.name);
    const values = idx >= 0 ? rows.map((r) => r[idx]).filter((v) => v !== null) : [];
    const q: ColumnQuality = { dtype: c.type, missing: c.nulls, unique: c.distinct, sample: [...new Set(values)].slice(0, 5) };
    if (c.min !== undefined) q.min = c.min;
    if (c.max !== undefined) q.max = c.max;
    if (c.mean !== undefined) q.mean = c.mean;
    quality[c.name] = q;
    if (profile.rowCount > 0 && c.nulls / profile.rowCount > 0.5) issues.push(`${c.name} is ${Math.round((100 * c.nulls) / profile.rowCount)}% missing`);
    if (profile.rowCount > 1 && c.distinct <= 1) issues.push(`${c.name} has a single value`);
  }
  for (const m of missing) issues.push(`column ${m} does not exist`);
  const unchecked = (args.check_requirements ?? []).filter((r) => !reqColumns.includes(r));
  for (const r of unchecked) issues.push(`requirement not checked automatically: ${r}`);
  if (profile.rowCount === 0) issues.push('the dataset has no rows');
  // With no columns named the data worker profiles a wide table's first columns only (issue 37):
  // the model is told, so it does not take the rest for unremarkable.
  if (args.columns === undefined && profile.columns.length < all.length) issues.push(unprofiledNote(profile.columns.length, all.length));
  return {
    dataset: args.dataset,
    row_count: profile.rowCount,
    columns_found: found,
    columns_missing: missing,
    quality,
    can_proceed: missing.length === 0 && profile.rowCount > 0,
    issues,
  };
}

export function createWorkerHost(opts: WorkerHostOptions): ToolHost {
  const { data } = opts;

  async function query(sql: string, maxRows: number): Promise<HostResult<RunSqlResult>> {
    const out = await data.call('modelQuery', { sql, maxRows });
    if (!out.ok) return { ok: false, message: out.message };
    const { rows } = decodeIpc(out.result.ipc);
    return {
      ok: true,
      value: { columns: out.result.columns, rows, row_count: out.result.rowCount, truncated: out.result.truncated, elapsed_ms: out.result.elapsedMs },
    };
  }

  return {
    async runSql(sql, maxRows, signal) {
      // Stop interrupts the statement in DuckDB too, not only the wait for it.
      const onAbort = () => void data.call('cancel', {}).catch(() => undefined);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        // The data worker judges model SQL where it runs (one read-only statement, by DuckDB's
        // own analysis): its refusal comes back as the outcome's message.
        return await query(sql, maxRows);
      } catch (e) {
        return { ok: false, message: errorText(e) };
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },

    async profile(args: ProfileDataArgs): Promise<HostResult<ProfileDataResult>> {
      try {
        const reqs = args.check_requirements ?? [];
        // Requirements that read as a column name are checked as columns; others are left to the model.
        const asked = args.columns === undefined ? undefined : [...args.columns, ...reqs];
        const out = await data.call('profileSample', { name: args.dataset, ...(asked ? { columns: asked } : {}), sampleRows: PROFILE_SAMPLE_ROWS });
        if (!out.found) {
          return { ok: false, message: `there is no dataset named ${args.dataset}; the datasets are: ${out.datasets.join(', ') || '(none loaded)'}` };
        }
        return { ok: true, value: profileDataResult(args, out) };
      } catch (e) {
        return { ok: false, message: errorText(e) };
      }
    },

    async runPython(code, signal, session): Promise<HostResult<RunPythonResult>> {
      const py = opts.python;
      if (!py) return { ok: false, message: 'Python is not available in this session; use run_sql.' };
      const runId = `agent-${Date.now()}-${++runCounter}`;
      py.output.begin(runId);
      // Stop is one message to the page, which interrupts the run (or drops it while queued).
      const onAbort = () => void py.client.call('stop', { runId }).catch(() => undefined);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const out: RunOutcome = await py.client.call('run', { runId, code, ...(session ? { session } : {}) });
        const stdout = py.output.take(runId);
        if (!out.ok) {
          return { ok: true, value: { stdout, result: null, error: out.error, elapsed_ms: out.elapsedMs } };
        }
        // Warnings (a figure thinned or not drawn, and how to aggregate) are for the model too.
        const notes = out.warnings.map((w) => `Note: ${w}\n`).join('');
        const value: RunPythonResult = { stdout: stdout + notes, result: pyResultToJson(out.result), elapsed_ms: out.elapsedMs };
        if (out.figure) value.figure = out.figure as unknown as PlotlyFigure;
        return { ok: true, value };
      } catch (e) {
        py.output.take(runId);
        return { ok: false, message: errorText(e) };
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
