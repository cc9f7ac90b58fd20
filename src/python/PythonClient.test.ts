import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../protocol/rpcServer';
import type { PythonEvent, PythonRequests, RunOutcome } from '../../protocol/python';
import { PythonClient, STATE_LOST_NOTE } from './PythonClient.svelte';
import { FakeWorker } from '../engines/testing/fakeWorker';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A stand-in Python worker over a MessageChannel: `loop` honours the interrupt, `stubborn` never answers. */
function fakeWorker(log: string[]): Worker {
  const { port1, port2 } = new MessageChannel();
  let interrupt: Int32Array | null = null;
  let alive = true;
  const sessions = new Set<string>();
  const ok = (value: number): RunOutcome => ({ ok: true, warnings: [], elapsedMs: 1, result: { kind: 'scalar', value, repr: String(value) } });
  const { emit } = serve<PythonRequests, PythonEvent>(port2, {
    init: ({ interruptBuffer }) => {
      interrupt = interruptBuffer ? new Int32Array(interruptBuffer) : null;
      return { result: { pyodideVersion: 'x', pythonVersion: '3.x', startupMs: 1, packages: { loaded: [], onDemand: [], packageBaseUrl: 'https://cdn/' } } };
    },
    connectData: () => ({ result: {} }),
    packages: () => ({ result: { loaded: [], onDemand: [], packageBaseUrl: 'https://cdn/' } }),
    run: async ({ runId, code, session }) => {
      log.push(code);
      if (session) {
        const sessionFresh = !sessions.has(session);
        sessions.add(session);
        return { result: { ...ok(Number(code)), sessionFresh } };
      }
      if (code === 'loop') {
        while (alive && (!interrupt || Atomics.load(interrupt, 0) !== 2)) await sleep(5);
        return { result: { ok: false, error: { type: 'KeyboardInterrupt', message: '', traceback: 'KeyboardInterrupt' }, elapsedMs: 100, restarted: false } };
      }
      if (code === 'stubborn') return new Promise(() => {});
      if (code === 'import numpy') emit({ type: 'packages', packages: { loaded: ['numpy'], onDemand: [], packageBaseUrl: 'https://cdn/' } });
      emit({ type: 'stdout', runId, text: `ran ${code}\n` });
      return { result: ok(Number(code)) };
    },
  });
  const worker = new FakeWorker(port1);
  const terminate = worker.terminate.bind(worker);
  worker.terminate = () => {
    alive = false;
    log.push('terminated');
    terminate();
    port2.close();
  };
  workers.push(worker);
  return worker.asWorker();
}

/** Every stand-in spawned, newest last (to crash one from the outside). */
const workers: FakeWorker[] = [];

describe('PythonClient', () => {
  let client: PythonClient | null = null;
  beforeAll(() => {
    // Node has SharedArrayBuffer; tell the client it may use it as in an isolated page.
    Object.defineProperty(globalThis, 'crossOriginIsolated', { value: true, configurable: true });
  });
  afterEach(() => client?.dispose());

  it('tells package watchers the list at start and each time it changes, until they stop watching', async () => {
    client = new PythonClient({ createWorker: () => fakeWorker([]) });
    const seen: string[][] = [];
    const unwatch = client.watchPackages((r) => seen.push(r.loaded));
    expect(seen).toEqual([]);
    await client.start();
    await client.run('import numpy');
    expect(seen).toEqual([[], ['numpy']]);
    const late: string[][] = [];
    client.watchPackages((r) => late.push(r.loaded));
    expect(late).toEqual([['numpy']]);
    unwatch();
    await client.restart();
    expect(seen).toEqual([[], ['numpy']]);
    expect(late).toEqual([['numpy'], []]);
  });

  it('runs code, streams output into the record and returns it', async () => {
    const log: string[] = [];
    client = new PythonClient({ createWorker: () => fakeWorker(log) });
    const run = await client.run('7');
    expect(run.outcome).toMatchObject({ ok: true, result: { kind: 'scalar', value: 7 } });
    expect(run.output).toEqual([{ stream: 'stdout', text: 'ran 7\n' }]);
    expect(client.status).toBe('ready');
  });

  it('says once that a session lost its state when Python restarted under it, and never for a new session', async () => {
    client = new PythonClient({ createWorker: () => fakeWorker([]) });
    const warningsOf = async (code: string, session: string) => {
      const { outcome } = await (client as PythonClient).run(code, { session });
      return outcome.ok ? outcome.warnings : ['failed'];
    };
    expect(await warningsOf('1', 'notebook')).toEqual([]);
    expect(await warningsOf('2', 'notebook')).toEqual([]);
    await client.restart();
    expect(await warningsOf('3', 'notebook')).toEqual([STATE_LOST_NOTE]);
    expect(await warningsOf('4', 'notebook')).toEqual([]);
    expect(await warningsOf('5', 'conversation:new')).toEqual([]);
  });

  it('the background warm-up waits while something else is busy, then starts', async () => {
    let spawned = 0;
    let busy = true;
    client = new PythonClient({ createWorker: () => (spawned++, fakeWorker([])), isBusy: () => busy });
    client.warmAfterFirstPaint(10);
    await sleep(80);
    expect(spawned).toBe(0);
    busy = false;
    for (let i = 0; i < 200 && spawned === 0; i++) await sleep(25);
    expect(spawned).toBe(1);
  });

  it('interrupts at the time limit and keeps the worker', async () => {
    const log: string[] = [];
    let spawned = 0;
    client = new PythonClient({ createWorker: () => (spawned++, fakeWorker(log)) });
    const run = await client.run('loop', { timeLimitMs: 50 });
    expect(run.outcome.ok).toBe(false);
    if (!run.outcome.ok) {
      expect(run.outcome.error.type).toBe('TimeoutError');
      expect(run.outcome.restarted).toBe(false);
    }
    expect(client.lastRecovery?.how).toBe('interrupted');
    expect((await client.run('1')).outcome.ok).toBe(true);
    expect(spawned).toBe(1);
  });

  it('terminates and replaces a worker that ignores the interrupt', async () => {
    const log: string[] = [];
    let spawned = 0;
    client = new PythonClient({ createWorker: () => (spawned++, fakeWorker(log)) });
    const started = Date.now();
    const run = await client.run('stubborn', { timeLimitMs: 50 });
    expect(Date.now() - started).toBeLessThan(50 + 2000 + 1000);
    expect(run.outcome.ok).toBe(false);
    if (!run.outcome.ok) {
      expect(run.outcome.error.type).toBe('TimeoutError');
      expect(run.outcome.restarted).toBe(true);
    }
    expect(log).toContain('terminated');
    expect(spawned).toBe(2);
    expect(client.lastRecovery?.how).toBe('restarted');
    expect((await client.run('2')).outcome).toMatchObject({ ok: true, result: { value: 2 } });
  });

  it('Stop interrupts the run in progress', async () => {
    client = new PythonClient({ createWorker: () => fakeWorker([]) });
    const pending = client.run('loop', { timeLimitMs: 10_000 });
    while (client.status !== 'running') await sleep(5);
    client.stop();
    const run = await pending;
    expect(!run.outcome.ok && run.outcome.error.type).toBe('Interrupted');
  });

  it("a halt names the halted run, so the page cancels that run's DuckDB query by id and nothing else (issue 37)", async () => {
    const halted: string[] = [];
    client = new PythonClient({ createWorker: () => fakeWorker([]), onHalt: (runId) => halted.push(runId) });
    expect((await client.run('1', { runId: 'quiet' })).outcome.ok).toBe(true);
    const stopped = client.run('loop', { runId: 'stopped', timeLimitMs: 10_000 });
    while (client.status !== 'running') await sleep(5);
    client.stop();
    await stopped;
    await client.run('loop', { runId: 'timed-out', timeLimitMs: 50 });
    // A finished run is never halted; the time limit halts its run as Stop does.
    expect(halted).toEqual(['stopped', 'timed-out']);
  });

  it('stop(runId) halts only that run, and the interrupt it leaves does not stop the next run', async () => {
    client = new PythonClient({ createWorker: () => fakeWorker([]) });
    const first = client.run('loop', { runId: 'a', timeLimitMs: 10_000 });
    while (client.status !== 'running') await sleep(5);
    client.stop('b');
    await sleep(60);
    expect(client.status).toBe('running');
    client.stop('a');
    expect(!(await first).outcome.ok).toBe(true);
    // The fake worker never clears the buffer: the client must, before it sends the next run.
    const second = client.run('loop', { runId: 'c', timeLimitMs: 10_000, background: true });
    await sleep(100);
    expect(client.status).toBe('running');
    expect(client.current?.runId).toBe('a');
    client.stop();
    const run = await second;
    expect(!run.outcome.ok && run.outcome.error.type).toBe('Interrupted');
  });

  it('stop(runId) of a run still queued ends it without running; onOutput gets each chunk as it arrives', async () => {
    const log: string[] = [];
    client = new PythonClient({ createWorker: () => fakeWorker(log) });
    const first = client.run('loop', { runId: 'console', timeLimitMs: 10_000 });
    const chunks: string[] = [];
    const queued = client.run('5', { runId: 'agent', background: true, onOutput: (c) => chunks.push(c.text) });
    const streamed = client.run('6', { runId: 'agent-2', background: true, onOutput: (c) => chunks.push(c.text) });
    while (client.status !== 'running') await sleep(5);
    client.stop('agent');
    client.stop('console');
    const q = await queued;
    expect(!q.outcome.ok && q.outcome.error).toMatchObject({ type: 'Interrupted', message: 'Stopped by the user before it ran.' });
    expect((await first).outcome.ok).toBe(false);
    expect((await streamed).outcome).toMatchObject({ ok: true, result: { value: 6 } });
    expect(log).not.toContain('5');
    expect(chunks).toEqual(['ran 6\n']);
  });

  it('a worker that crashes mid-run fails that run clearly; the next run gets a fresh worker', async () => {
    const log: string[] = [];
    client = new PythonClient({ createWorker: () => fakeWorker(log) });
    const pending = client.run('stubborn', { timeLimitMs: 10_000 });
    while (client.status !== 'running') await sleep(5);
    workers.at(-1)?.crash('simulated fault');
    const run = await pending;
    expect(!run.outcome.ok && run.outcome.error).toMatchObject({ type: 'WorkerError', message: 'simulated fault — the Python worker was restarted.' });
    expect((await client.run('3')).outcome).toMatchObject({ ok: true, result: { value: 3 } });
  });
});
