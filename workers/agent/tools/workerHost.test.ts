/**
 * The agent's ToolHost against the real data worker handlers (DataHost on the Node build of
 * DuckDB-WASM), over a MessageChannel as in the browser.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentPythonEvent, AgentPythonRequests } from '../../../protocol/python';
import type { RpcClient } from '../../../protocol/rpcClient';
import { useDataWorker } from '../testing/dataWorker';
import { PythonOutput, createWorkerHost, type DataClient } from './workerHost';

const require = createRequire(import.meta.url);
const csv = readFileSync(join(dirname(require.resolve('vega-datasets')), '..', 'data', 'seattle-weather.csv'));
const worker = useDataWorker({ text: csv.toString('utf8'), fileName: 'seattle-weather.csv', loadId: 'w' });
const signal = new AbortController().signal;

describe('worker ToolHost on the real data engine', { timeout: 60_000 }, () => {
  it('runs a query and decodes the rows (dates as ISO text, integers as numbers)', async () => {
    const host = createWorkerHost({ data: worker.client });
    const r = await host.runSql('SELECT weather, count(*) AS n, min(date) AS first FROM seattle_weather GROUP BY weather ORDER BY n DESC', 3, signal);
    if (!r.ok) throw new Error(r.message);
    expect(r.value.columns.map((c) => c.name)).toEqual(['weather', 'n', 'first']);
    expect(r.value.rows).toHaveLength(3);
    expect(r.value.rows[0]).toEqual(['rain', 641, '2012-01-02']);
    expect(r.value.row_count).toBe(3);
    expect(r.value.truncated).toBe(true);
  });

  it('returns SQL errors as values and refuses statements that change a dataset', async () => {
    const host = createWorkerHost({ data: worker.client });
    const bad = await host.runSql('SELECT nope FROM seattle_weather', 10, signal);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/nope/);
    const drop = await host.runSql('DROP TABLE seattle_weather', 10, signal);
    expect(drop.ok).toBe(false);
    if (!drop.ok) expect(drop.message).toMatch(/^refused: .*DROP/);
    const still = await host.runSql('SELECT count(*) AS n FROM seattle_weather', 1, signal);
    expect(still.ok && still.value.rows[0]).toEqual([1461]);
  });

  it('profiles requested columns with quality figures, samples and missing columns', async () => {
    const host = createWorkerHost({ data: worker.client });
    const r = await host.profile({ dataset: 'seattle_weather', columns: ['temp_max', 'weather', 'humidity'], check_requirements: ['date', 'a numeric outcome'] }, signal);
    if (!r.ok) throw new Error(r.message);
    expect(r.value).toMatchObject({ dataset: 'seattle_weather', row_count: 1461, columns_found: ['temp_max', 'weather', 'date'], columns_missing: ['humidity'], can_proceed: false });
    expect(r.value.quality.temp_max).toMatchObject({ dtype: 'DOUBLE', missing: 0, min: -1.6, max: 35.6 });
    expect(r.value.quality.weather?.unique).toBe(5);
    expect(r.value.quality.weather?.sample.length).toBeGreaterThan(1);
    expect(r.value.issues).toEqual(['column humidity does not exist', 'requirement not checked automatically: a numeric outcome']);
    const none = await host.profile({ dataset: 'penguins' }, signal);
    expect(none).toEqual({ ok: false, message: 'there is no dataset named penguins; the datasets are: seattle_weather' });
  });

  it('profiles a dataset in one data request, every column when none are named', async () => {
    const calls: string[] = [];
    const counted: DataClient = {
      call: ((...args: Parameters<DataClient['call']>) => {
        calls.push(args[0]);
        return worker.client.call(...args);
      }) as DataClient['call'],
    };
    const host = createWorkerHost({ data: counted });
    const r = await host.profile({ dataset: 'seattle_weather' }, signal);
    if (!r.ok) throw new Error(r.message);
    expect(calls).toEqual(['profileSample']);
    expect(r.value.columns_found).toEqual(['date', 'precipitation', 'temp_max', 'temp_min', 'wind', 'weather']);
    expect(r.value.quality.date?.sample).toHaveLength(5);
    expect(r.value.can_proceed).toBe(true);
    calls.length = 0;
    await host.profile({ dataset: 'nope', columns: ['x'] }, signal);
    expect(calls).toEqual(['profileSample']);
  });

  it('runs Python over the agent’s Python requests, with stdout from the streamed events, and Stop as one stop message', async () => {
    const output = new PythonOutput();
    const stops: string[] = [];
    const python: Pick<RpcClient<AgentPythonRequests, AgentPythonEvent>, 'call'> = {
      call: (async (type: string, payload: { runId: string; code: string }) => {
        if (type === 'stop') {
          stops.push(payload.runId);
          return {};
        }
        expect(type).toBe('run');
        output.onEvent({ type: 'stdout', runId: payload.runId, text: 'hello\n' });
        output.onEvent({ type: 'stdout', runId: 'someone-else', text: 'not mine\n' });
        if (payload.code.includes('raise')) return { ok: false, error: { type: 'ValueError', message: 'bad', traceback: 'tb' }, elapsedMs: 3, restarted: false };
        return { ok: true, result: { kind: 'table', columns: ['a'], rows: [[1]], rowCount: 1, truncated: false }, figure: { data: [], layout: {} }, warnings: [], elapsedMs: 5 };
      }) as Pick<RpcClient<AgentPythonRequests, AgentPythonEvent>, 'call'>['call'],
    };
    const host = createWorkerHost({ data: worker.client, python: { client: python, output } });
    const ok = await host.runPython('print("hello")', signal);
    expect(ok).toEqual({ ok: true, value: { stdout: 'hello\n', result: { columns: ['a'], rows: [[1]], row_count: 1, truncated: false }, figure: { data: [], layout: {} }, elapsed_ms: 5 } });
    const err = await host.runPython('raise ValueError("bad")', signal);
    expect(err).toEqual({ ok: true, value: { stdout: 'hello\n', result: null, error: { type: 'ValueError', message: 'bad', traceback: 'tb' }, elapsed_ms: 3 } });
    const ctrl = new AbortController();
    const p = host.runPython('x', ctrl.signal);
    ctrl.abort();
    await p;
    expect(stops).toHaveLength(1);
    expect(stops[0]).toMatch(/^agent-/);
    const without = await createWorkerHost({ data: worker.client }).runPython('1', signal);
    expect(without).toEqual({ ok: false, message: 'Python is not available in this session; use run_sql.' });
  });

  it('says which columns of a wide table profile_data left out when none are named, and profiles named ones past them', async () => {
    // Issue 37: 320 columns, more than the data worker profiles unasked (MAX_PROFILE_COLUMNS, 300).
    const lines = [Array.from({ length: 320 }, (_, c) => `c${c + 1}`).join(',')];
    for (let r = 0; r < 4; r++) lines.push(Array.from({ length: 320 }, (_, c) => String(r * c)).join(','));
    const loaded = await worker.loadText(`${lines.join('\n')}\n`, 'wide survey.csv');
    if (!loaded.ok) throw new Error(loaded.message);
    const host = createWorkerHost({ data: worker.client });
    const unnamed = await host.profile({ dataset: 'wide_survey' }, signal);
    if (!unnamed.ok) throw new Error(unnamed.message);
    expect(unnamed.value.columns_found).toHaveLength(300);
    expect(Object.keys(unnamed.value.quality)).toHaveLength(300);
    expect(unnamed.value.issues).toContain('profiled the first 300 of 320 columns; name columns to profile others');
    // The tool's shape is unchanged (AGENT-CONTRACT.md).
    expect(Object.keys(unnamed.value).sort()).toEqual(['can_proceed', 'columns_found', 'columns_missing', 'dataset', 'issues', 'quality', 'row_count']);
    const named = await host.profile({ dataset: 'wide_survey', columns: ['c2', 'c320'] }, signal);
    if (!named.ok) throw new Error(named.message);
    expect(named.value.columns_found).toEqual(['c2', 'c320']);
    expect(named.value.quality.c320).toMatchObject({ dtype: 'BIGINT', missing: 0, unique: 4, min: 0, max: 957 });
    expect(named.value.issues.some((i) => i.startsWith('profiled the first'))).toBe(false);
  });
});
