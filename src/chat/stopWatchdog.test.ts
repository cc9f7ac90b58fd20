/**
 * The page owns a run's lifecycle (issue 30): Stop returns the chat to idle within the grace even
 * when the agent worker does not answer, and a worker that keeps a stopped run unfinished is
 * replaced by a new one, which the next question reaches.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRequests } from '../../protocol/agent/wire';
import { serve, type Handlers } from '../../protocol/rpcServer';
import type { Endpoint } from '../../protocol/rpc';
import { AgentClient } from './AgentClient.svelte';
import { FakeWorker } from '../engines/testing/fakeWorker';

const settings = { baseUrl: 'http://x/v1', apiKey: 'sk-1', model: 'm' };
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 3000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await tick(5);
  }
}

/** How a spawned worker behaves: `stuck` accepts a run and then never answers anything again. */
type Behaviour = 'stuck' | 'no-start' | 'late' | 'good';

interface Spawned {
  worker: FakeWorker;
  emit(e: AgentEvent): void;
  calls: string[];
}

let clients: AgentClient[] = [];
afterEach(() => {
  for (const c of clients) c.dispose();
  clients = [];
});

function harness(behaviours: Behaviour[]) {
  const spawned: Spawned[] = [];
  let n = 0;
  const never = new Promise<never>(() => {});
  const spawn = () => {
    const behaviour = behaviours[spawned.length] ?? 'good';
    const channel = new MessageChannel();
    const worker = new FakeWorker(channel.port1);
    const calls: string[] = [];
    const ok = <T>(type: string, result: T) => {
      calls.push(type);
      return { result };
    };
    const handlers: Partial<Handlers<AgentRequests>> = {
      connectData: () => ok('connectData', {}),
      listThreads: () => ok('listThreads', []),
      start: async (p) => {
        calls.push('start');
        if (behaviour === 'no-start') return never;
        const runId = p.run_id ?? '';
        server.emit({ type: 'run_start', thread_id: p.thread_id, run_id: runId, mode: 'agent' });
        if (behaviour === 'good') setTimeout(() => server.emit({ type: 'run_end', thread_id: p.thread_id, run_id: runId }), 5);
        return { result: { run_id: runId } };
      },
      abort: (p) => {
        calls.push('abort');
        // A worker that is slow to wind down: it ends the run after Stop's grace, before it is judged stuck.
        if (behaviour === 'late') setTimeout(() => server.emit({ type: 'run_end', thread_id: 't', run_id: p.run_id }), 150);
        return { result: { aborted: behaviour !== 'stuck' } };
      },
    };
    const server = serve<AgentRequests, AgentEvent>(channel.port2 as unknown as Endpoint, handlers as Handlers<AgentRequests>);
    const s: Spawned = { worker, emit: (e) => server.emit(e), calls };
    spawned.push(s);
    return worker as unknown as Worker;
  };
  const client = new AgentClient({
    createWorker: spawn,
    connectData: async (attach) => await attach(new MessageChannel().port2),
    newId: () => `id-${++n}`,
    stopGraceMs: 100,
    stuckRunMs: 400,
  });
  clients.push(client);
  return { client, spawned };
}

describe('Stop during a stuck run', () => {
  it('returns the chat to idle within the grace, replaces the stuck worker, and the next question reaches a new one', async () => {
    const { client, spawned } = harness(['stuck', 'good']);
    await client.ask('Hangs?', settings);
    await until(() => spawned[0]?.calls.includes('start') ?? false);
    expect(client.running).toBe(true);
    await client.stop();
    // The worker never answers the abort: the page's watchdog ends the run after its grace.
    await until(() => !client.running);
    expect(client.turns[0]).toMatchObject({ question: 'Hangs?', state: 'stopped', error: { kind: 'aborted', retryable: true } });
    // The stopped run never ends in its worker: after stuckRunMs the worker is terminated.
    await until(() => spawned[0]?.worker.terminated ?? false);
    await client.ask('Still there?', settings);
    await until(() => !client.running);
    expect(spawned).toHaveLength(2);
    expect(spawned[1]?.calls).toContain('start');
    expect(client.turns[1]?.state).not.toBe('running');
  });

  it('a Stop while the worker never answers the start ends the turn too', async () => {
    const { client, spawned } = harness(['no-start']);
    const asked = client.ask('Never accepted?', settings);
    await until(() => spawned[0]?.calls.includes('start') ?? false);
    await client.stop();
    await asked;
    expect(client.running).toBe(false);
    expect(client.turns[0]?.state).toBe('stopped');
    await until(() => spawned[0]?.worker.terminated ?? false);
  });

  it('a worker that ends the stopped run late is kept, and the next run waits for it', async () => {
    const { client, spawned } = harness(['late']);
    await client.ask('Slow to stop?', settings);
    await until(() => spawned[0]?.calls.includes('start') ?? false);
    await client.stop();
    await until(() => !client.running);
    expect(client.turns[0]?.state).toBe('stopped');
    // Asked at once: the question waits for the late run_end, then goes to the same worker.
    const asked = client.ask('Next?', settings);
    await asked;
    await tick(500);
    expect(spawned).toHaveLength(1);
    expect(spawned[0]?.worker.terminated).toBe(false);
    expect(spawned[0]?.calls.filter((c) => c === 'start')).toHaveLength(2);
  });
});
