import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent, AgentRequests, StartRunRequest } from '../../protocol/agent/wire';
import type { FinalOutput } from '../../protocol/agent/final';
import type { ThreadView } from '../../protocol/agent/threadView';
import { serve, type Handlers } from '../../protocol/rpcServer';
import type { Endpoint } from '../../protocol/rpc';
import { AgentClient } from './AgentClient.svelte';
import { FakeWorker } from '../engines/testing/fakeWorker';


const settings = { baseUrl: 'http://x/v1', apiKey: 'sk-1', model: 'm' };
const final = (answer: string): FinalOutput => ({ answer, confidence: 0.9, output_type: 'analysis', caveats: [], reasoning_trace: [], ungrounded_numbers: [], failed_attempts: [] });
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 2000) {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await tick(5);
  }
}

interface Harness {
  client: AgentClient;
  worker: FakeWorker;
  emit: (e: AgentEvent) => void;
  calls: { type: string; payload: unknown }[];
  dataPorts: MessagePort[];
  runId: () => string;
}

let open: Harness[] = [];
afterEach(() => {
  for (const h of open) h.client.dispose();
  open = [];
});

function harness(over: Partial<Handlers<AgentRequests>> = {}): Harness {
  const channel = new MessageChannel();
  const worker = new FakeWorker(channel.port1);
  const calls: { type: string; payload: unknown }[] = [];
  const dataPorts: MessagePort[] = [];
  const record = <T>(type: string, payload: unknown, result: T) => {
    calls.push({ type, payload });
    return { result };
  };
  const handlers: Handlers<AgentRequests> = {
    connectData: (p) => record('connectData', p, {}),
    connectPython: (p) => record('connectPython', p, {}),
    start: (p) => record('start', p, { run_id: p.run_id ?? 'run-1' }),
    resume: (p) => record('resume', p, { run_id: p.run_id ?? 'run-2' }),
    abort: (p) => record('abort', p, { aborted: true }),
    listThreads: (p) => record('listThreads', p, [{ thread_id: 'th', title: 'Q', mode: 'agent' as const, updated_at: '2026-01-01T00:00:00Z' }]),
    loadThread: (p) => record('loadThread', p, null),
    deleteThread: (p) => record('deleteThread', p, []),
    rateAnswer: (p) => record('rateAnswer', p, { saved: p.rating === 'up', examples: 0 }),
    listModels: (p) => record('listModels', p, { ok: true as const, models: ['m'] }),
    renameThread: (p) => record('renameThread', p, [{ thread_id: p.thread_id, title: p.title, mode: 'agent' as const, updated_at: '2026-01-01T00:00:00Z' }]),
    searchThreads: (p) => record('searchThreads', p, []),
    privacyLog: (p) => record('privacyLog', p, []),
    modelContext: () => record('modelContext', {}, { text: '', tokens: 0, budget: 6000, share: 2400 }),
    draftDictionary: (p) => {
      throw new Error(`no draft for ${p.dataset} in this harness`);
    },
    cancelDraft: (p) => record('cancelDraft', p, { cancelled: false }),
    checkCapabilities: (p) =>
      record('checkCapabilities', p, { tools: true, structured: 'json_schema' as const, images: 'untested' as const, reasoning: 'none' as const, summary: 'Tools: yes', problems: [], checkedAt: 0 }),
    ...over,
  };
  const server = serve<AgentRequests, AgentEvent>(channel.port2 as unknown as Endpoint, handlers);
  let n = 0;
  const client = new AgentClient({
    createWorker: () => worker as unknown as Worker,
    connectData: async (attach) => {
      const channel = new MessageChannel();
      dataPorts.push(channel.port1);
      await attach(channel.port2);
    },
    newId: () => `id-${++n}`,
  });
  /** The id the client gave its latest run (in the last start or resume request). */
  const runId = () => {
    const last = calls.filter((c) => c.type === 'start' || c.type === 'resume').at(-1)?.payload as { run_id?: string } | undefined;
    return last?.run_id ?? '';
  };
  const h = { client, worker, emit: (e: AgentEvent) => server.emit(e), calls, dataPorts, runId };
  open.push(h);
  return h;
}

describe('AgentClient', () => {
  it('connects the worker to the data worker and lists threads', async () => {
    const h = harness();
    await h.client.refreshThreads();
    expect(h.client.status).toBe('ready');
    expect(h.dataPorts).toHaveLength(1);
    expect(h.calls.map((c) => c.type)).toEqual(['connectData', 'listThreads']);
    expect(h.client.threads.map((t) => t.thread_id)).toEqual(['th']);
  });

  it('runs a question: the key travels in the start request, events fill the turn, run_end ends it', async () => {
    const h = harness();
    await h.client.ask('  How many?  ', settings);
    expect(h.client.running).toBe(true);
    expect(h.client.turns).toHaveLength(1);
    const start = h.calls.find((c) => c.type === 'start');
    // The client names the run, so its events are routed from the first one.
    expect(start?.payload).toEqual({ settings, thread_id: 'id-1', question: 'How many?', mode: 'agent', question_id: 'id-2', run_id: 'id-3' });
    h.emit({ type: 'run_start', thread_id: 'id-1', run_id: 'id-3', mode: 'agent' });
    h.emit({ type: 'token', text: 'Three', run_id: 'id-3' });
    h.emit({ type: 'run_end', thread_id: 'id-1', run_id: 'id-3' });
    await until(() => !h.client.running);
    expect(h.client.turns[0]).toMatchObject({ question: 'How many?', text: 'Three', state: 'done' });
    // The same conversation continues with the next question.
    await h.client.ask('And?', settings);
    expect(h.calls.filter((c) => c.type === 'start').at(-1)?.payload).toMatchObject({ thread_id: 'id-1' });
  });

  it('a Stop pressed before the worker accepted the run aborts it as soon as it has', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const h = harness({
      start: async (p) => {
        await gate;
        return { result: { run_id: p.run_id ?? '' } };
      },
    });
    const asked = h.client.ask('Slow?', settings);
    await until(() => h.calls.some((c) => c.type === 'connectData'));
    await h.client.stop();
    expect(h.calls.some((c) => c.type === 'abort')).toBe(false);
    release();
    await asked;
    await until(() => h.calls.some((c) => c.type === 'abort'));
    expect(h.calls.find((c) => c.type === 'abort')?.payload).toEqual({ run_id: 'id-3' });
  });

  it('keeps the question when the start is refused, and flags events that break the contract', async () => {
    const h = harness({
      start: () => {
        throw new Error('Set the base URL and model in Settings first.');
      },
    });
    await h.client.ask('Q?', settings);
    expect(h.client.running).toBe(false);
    expect(h.client.turns[0]).toMatchObject({ question: 'Q?', state: 'failed', error: { message: 'Set the base URL and model in Settings first.' } });
    h.emit({ type: 'token' } as unknown as AgentEvent);
    await until(() => h.client.protocolError !== null);
    expect(h.client.protocolError).toMatch(/malformed event/);
  });

  it('ends the run with a retryable error when the worker crashes', async () => {
    const h = harness();
    await h.client.ask('Q?', settings);
    h.worker.crash('out of memory');
    await until(() => !h.client.running);
    expect(h.client.status).toBe('failed');
    expect(h.client.turns[0]?.error).toMatchObject({ retryable: true });
    expect(h.client.turns[0]?.error?.message).toMatch(/out of memory/);
    expect(h.worker.terminated).toBe(true);
  });

  it('opens a stored thread with its mode, and retry resumes it with the settings', async () => {
    const view: ThreadView = {
      thread_id: 'th',
      mode: 'pipeline',
      interrupted: true,
      finals: [],
      messages: [{ role: 'user', content: 'Unfinished?' }],
    };
    const h = harness({ loadThread: () => ({ result: view }) });
    await h.client.openThread('th');
    expect(h.client.threadId).toBe('th');
    expect(h.client.mode).toBe('pipeline');
    expect(h.client.turns[0]).toMatchObject({ question: 'Unfinished?', state: 'interrupted' });
    await h.client.retry(settings);
    expect(h.calls.find((c) => c.type === 'resume')?.payload).toEqual({ settings, thread_id: 'th', run_id: h.runId() });
    expect(h.client.turns[0]?.state).toBe('running');
    h.client.newConversation();
    expect(h.client.turns).toHaveLength(1); // a run is in progress: nothing is discarded
  });

  it('regenerates the last answer: the view changes once the worker accepts, events held meanwhile', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const starts: StartRunRequest[] = [];
    const h = harness({
      start: async (p) => {
        starts.push(p);
        if (p.replaces) {
          // The worker emits run_start before its reply arrives.
          h.emit({ type: 'run_start', thread_id: p.thread_id, run_id: p.run_id ?? '', mode: 'agent' });
          await gate;
        }
        return { result: { run_id: p.run_id ?? '' } };
      },
    });
    await h.client.ask('Q1?', settings);
    const firstRun = starts.at(-1)?.run_id ?? '';
    h.emit({ type: 'final', output: final('A1'), run_id: firstRun });
    h.emit({ type: 'run_end', thread_id: 'id-1', run_id: firstRun });
    await until(() => !h.client.running);
    const oldId = h.client.turns[0]?.id;

    const pending = h.client.regenerate(settings);
    await tick();
    const forkRun = starts.at(-1)?.run_id ?? '';
    // Not accepted yet: the old answer is still shown.
    expect(h.client.turns[0]?.final?.answer).toBe('A1');
    expect(h.client.running).toBe(true);
    release();
    expect(await pending).toEqual({ ok: true });
    expect(h.client.turns).toHaveLength(1);
    expect(h.client.turns[0]).toMatchObject({ question: 'Q1?', final: null, state: 'running' });
    expect(h.client.turns[0]?.id).not.toBe(oldId);
    expect(starts.at(-1)).toMatchObject({ thread_id: 'id-1', question: 'Q1?', replaces: oldId, question_id: h.client.turns[0]?.id });
    h.emit({ type: 'final', output: final('A2'), run_id: forkRun });
    h.emit({ type: 'run_end', thread_id: 'id-1', run_id: forkRun });
    await until(() => !h.client.running);
    expect(h.client.turns[0]).toMatchObject({ state: 'done', final: { answer: 'A2' } });
  });

  it('ignores a late event of a run that already ended', async () => {
    const h = harness();
    await h.client.ask('Second?', settings);
    const run = h.runId();
    h.emit({ type: 'run_start', thread_id: 'id-1', run_id: run, mode: 'agent' });
    h.emit({ type: 'token', text: 'stale text of run 1', run_id: 'run-1' });
    h.emit({ type: 'token', text: 'Fresh.', run_id: run });
    h.emit({ type: 'run_end', thread_id: 'id-1', run_id: 'run-1' });
    await new Promise((r) => setTimeout(r, 30));
    expect(h.client.running).toBe(true);
    expect(h.client.turns.at(-1)?.text).toBe('Fresh.');
    h.emit({ type: 'run_end', thread_id: 'id-1', run_id: run });
    await until(() => !h.client.running);
  });

  it('edits an earlier question: later turns go; a refusal keeps the conversation as it was', async () => {
    let refuse = false;
    const starts: StartRunRequest[] = [];
    const h = harness({
      start: (p) => {
        starts.push(p);
        if (p.replaces && refuse) throw new Error('This question is not in the saved conversation any more.');
        return { result: { run_id: p.run_id ?? '' } };
      },
    });
    for (const q of ['One?', 'Two?', 'Three?']) {
      await h.client.ask(q, settings);
      h.emit({ type: 'run_end', thread_id: 'id-1', run_id: starts.at(-1)?.run_id ?? '' });
      await until(() => !h.client.running);
    }
    const second = h.client.turns[1]?.id as string;
    refuse = true;
    expect(await h.client.editQuestion(second, 'Two, edited?', settings)).toEqual({ ok: false, message: 'This question is not in the saved conversation any more.' });
    expect(h.client.turns.map((t) => t.question)).toEqual(['One?', 'Two?', 'Three?']);
    expect(h.client.running).toBe(false);
    expect(await h.client.editQuestion(second, '   ', settings)).toMatchObject({ ok: false });
    refuse = false;
    expect(await h.client.editQuestion(second, ' Two, edited? ', settings)).toEqual({ ok: true });
    expect(h.client.turns.map((t) => t.question)).toEqual(['One?', 'Two, edited?']);
    expect(starts.at(-1)).toMatchObject({ question: 'Two, edited?', replaces: second });
  });

  it('rates an answer by its question id and keeps the rating on the turn; renames and searches threads', async () => {
    const h = harness({ searchThreads: (p) => ({ result: p.query === 'pen' ? [{ thread_id: 'th', title: 'Q', mode: 'agent', updated_at: '' }] : [] }) });
    await h.client.ask('Rated?', settings);
    h.emit({ type: 'final', output: final('Yes'), run_id: h.runId() });
    h.emit({ type: 'run_end', thread_id: 'id-1', run_id: h.runId() });
    await until(() => !h.client.running);
    const turn = h.client.turns[0];
    await h.client.rate(turn?.id as string, 'up');
    expect(h.calls.find((c) => c.type === 'rateAnswer')?.payload).toMatchObject({ thread_id: 'id-1', question_id: turn?.id, rating: 'up', final: { answer: 'Yes' } });
    expect(h.client.turns[0]?.rating).toBe('up');

    expect(await h.client.renameThread('th', 'Named')).toEqual({ ok: true });
    expect(h.client.threads[0]?.title).toBe('Named');
    await h.client.search('pen');
    expect(h.client.searchMatches).toEqual(['th']);
    await h.client.search('');
    expect(h.client.searchMatches).toBeNull();
  });
});

