import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../../protocol/rpcClient';
import type { AgentPythonEvent, AgentPythonRequests, PackageReport, RunOutcome } from '../../protocol/python';
import type { CompletedRun, OutputChunk, RunOptions } from './PythonClient.svelte';
import { servePythonPort, type PythonRunner } from './agentPort';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const REPORT: PackageReport = { loaded: ['numpy'], onDemand: [], packageBaseUrl: 'https://cdn/' };

/** A stand-in for the page's PythonClient: prints as it goes; `loop` runs until stopped. */
function fakeRunner(log: string[]) {
  let stopped = false;
  /** The page client's package watchers, told a new list as a (re)started Python reports one. */
  const watchers = new Set<(report: PackageReport) => void>();
  const runner: PythonRunner = {
    async run(code: string, opts: RunOptions = {}): Promise<CompletedRun> {
      log.push(`run ${opts.runId} background=${String(opts.background)} sql=${opts.sqlPolicy}`);
      const output: OutputChunk[] = [];
      const print = (text: string) => {
        const chunk: OutputChunk = { stream: 'stdout', text };
        output.push(chunk);
        opts.onOutput?.(chunk);
      };
      print('penguins: ');
      await sleep(5);
      print('344\n');
      let outcome: RunOutcome = { ok: true, warnings: [], elapsedMs: 1, result: { kind: 'scalar', value: 344, repr: '344' } };
      if (code === 'loop') {
        while (!stopped) await sleep(5);
        outcome = { ok: false, error: { type: 'Interrupted', message: 'Stopped by the user.', traceback: '' }, elapsedMs: 9, restarted: false };
      }
      return { runId: opts.runId ?? 'x', code, loading: [], outcome, output };
    },
    stop(runId?: string) {
      log.push(`stop ${runId}`);
      stopped = true;
    },
    refreshPackages: () => Promise.resolve(REPORT),
    watchPackages(listener) {
      watchers.add(listener);
      return () => watchers.delete(listener);
    },
  };
  return Object.assign(runner, { watchers });
}

describe('servePythonPort', () => {
  const clients: RpcClient<AgentPythonRequests, AgentPythonEvent>[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.dispose('test over');
  });

  function connect(runner: PythonRunner, events: AgentPythonEvent[]) {
    const channel = new MessageChannel();
    const served = servePythonPort(runner, channel.port1);
    const client = new RpcClient<AgentPythonRequests, AgentPythonEvent>(channel.port2, (e) => events.push(e));
    clients.push(client);
    return { client, served };
  }

  it('runs through the page client in the background, read-only, streaming each chunk once before the reply', async () => {
    const log: string[] = [];
    const events: AgentPythonEvent[] = [];
    const { client } = connect(fakeRunner(log), events);
    const outcome = await client.call('run', { runId: 'agent-1', code: 'result = 344' });
    expect(outcome).toMatchObject({ ok: true, result: { value: 344 } });
    expect(events).toEqual([
      { type: 'stdout', runId: 'agent-1', text: 'penguins: ' },
      { type: 'stdout', runId: 'agent-1', text: '344\n' },
    ]);
    expect(log).toEqual(['run agent-1 background=true sql=read-only']);
  });

  it('stops its run with one stop message', async () => {
    const log: string[] = [];
    const { client } = connect(fakeRunner(log), []);
    const pending = client.call('run', { runId: 'agent-2', code: 'loop' });
    await sleep(50);
    expect(log).not.toContain('stop agent-2');
    await client.call('stop', { runId: 'agent-2' });
    const outcome = await pending;
    expect(!outcome.ok && outcome.error.type).toBe('Interrupted');
    expect(log).toContain('stop agent-2');
  });

  it('pushes each new package list to the agent, and stops when the port is closed', async () => {
    const events: AgentPythonEvent[] = [];
    const runner = fakeRunner([]);
    const { served } = connect(runner, events);
    const watchers = runner.watchers;
    expect(watchers.size).toBe(1);
    for (const w of watchers) w({ ...REPORT, loaded: ['numpy', 'pandas'] });
    await sleep(20);
    expect(events).toEqual([{ type: 'packages', loaded: ['numpy', 'pandas'] }]);
    served.close();
    expect(watchers.size).toBe(0);
  });

  it('reports packages, and a closed port serves nothing more', async () => {
    const { client, served } = connect(fakeRunner([]), []);
    expect(await client.call('packages', {})).toEqual(REPORT);
    served.close();
    await expect(client.call('packages', {}, [], { timeoutMs: 200 })).rejects.toThrow(/no answer/);
  });
});
