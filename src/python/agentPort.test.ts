import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RpcClient } from '../../workers/protocol/rpcClient';
import type { PackageReport, PythonEvent, PythonRequests, RunOutcome } from '../../workers/protocol/python';
import type { CompletedRun, RunOptions } from './PythonClient.svelte';
import { servePythonPort, type PythonRunner } from './agentPort';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REPORT: PackageReport = { loaded: ['numpy'], onDemand: [], packageBaseUrl: 'https://cdn/' };

/** A stand-in for the page's PythonClient: `loop` runs until stopped. */
function fakeRunner(log: string[]) {
  let stopped = false;
  const runner: PythonRunner = {
    async run(code: string, opts: RunOptions = {}): Promise<CompletedRun> {
      log.push(`run ${opts.runId} background=${String(opts.background)}`);
      let outcome: RunOutcome = { ok: true, warnings: [], elapsedMs: 1, result: { kind: 'scalar', value: 344, repr: '344' } };
      if (code === 'loop') {
        while (!stopped) await sleep(5);
        outcome = { ok: false, error: { type: 'Interrupted', message: 'Stopped by the user.', traceback: '' }, elapsedMs: 9, restarted: false };
      }
      return { runId: opts.runId ?? 'x', code, loading: [], outcome, output: [{ stream: 'stdout', text: 'penguins: 344\n' }] };
    },
    stop(runId?: string) {
      log.push(`stop ${runId}`);
      stopped = true;
    },
    refreshPackages: () => Promise.resolve(REPORT),
  };
  return runner;
}

describe('servePythonPort', () => {
  const clients: RpcClient<PythonRequests, PythonEvent>[] = [];
  beforeAll(() => {
    Object.defineProperty(globalThis, 'crossOriginIsolated', { value: true, configurable: true });
  });
  afterEach(() => {
    for (const c of clients.splice(0)) c.dispose('test over');
  });

  function connect(runner: PythonRunner, events: PythonEvent[]) {
    const { port, interrupt } = servePythonPort(runner);
    const client = new RpcClient<PythonRequests, PythonEvent>(port, (e) => events.push(e));
    clients.push(client);
    return { client, interrupt };
  }

  it('runs through the page client in the background, with the output sent before the reply', async () => {
    const log: string[] = [];
    const events: PythonEvent[] = [];
    const { client } = connect(fakeRunner(log), events);
    const outcome = await client.call('run', { runId: 'agent-1', code: 'result = 344' });
    expect(outcome).toMatchObject({ ok: true, result: { value: 344 } });
    expect(events).toEqual([{ type: 'stdout', runId: 'agent-1', text: 'penguins: 344\n' }]);
    expect(log).toEqual(['run agent-1 background=true']);
  });

  it('stops only its own run when the agent writes to the interrupt buffer', async () => {
    const log: string[] = [];
    const { client, interrupt } = connect(fakeRunner(log), []);
    expect(interrupt).not.toBeNull();
    const pending = client.call('run', { runId: 'agent-2', code: 'loop' });
    await sleep(100);
    expect(log).not.toContain('stop agent-2');
    Atomics.store(new Int32Array(interrupt as SharedArrayBuffer), 0, 2);
    const outcome = await pending;
    expect(!outcome.ok && outcome.error.type).toBe('Interrupted');
    expect(log).toContain('stop agent-2');
  });

  it('reports packages and refuses to start or rewire Python', async () => {
    const { client } = connect(fakeRunner([]), []);
    expect(await client.call('packages', {})).toEqual(REPORT);
    await expect(client.call('init', { packageBaseUrl: '', interruptBuffer: null })).rejects.toThrow(/started by the page/);
  });
});
