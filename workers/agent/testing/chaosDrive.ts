/**
 * Test- and bench-only: drives seeded questions through the real agent service against the
 * scripted endpoint's `chaos` persona (testing/mock-llm/personas/chaos.mjs), one conversation per
 * question, and judges each run: it ended (one run_start, one run_end, last) within its budget,
 * its conversation reloads with the question, and a failure's message names the status or the
 * provider's words of the request that ended it. No test runner needed (the bench uses it too).
 */
import type { AgentEvent } from '../../../protocol/agent/wire';
import type { MockLlm } from '../../../testing/mock-llm/server.mjs';
import { chaosShape, statusOf, wordsOf } from '../../../testing/mock-llm/personas/chaos.mjs';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { MemoryEndpointProfileStore } from '../llm/endpointProfile';
import { createAgentService } from '../service/service';
import type { DataClient } from '../tools/workerHost';

export type ChaosOutcome = 'answered' | 'failed' | 'stopped';

export interface ChaosRun {
  question: number;
  outcome: ChaosOutcome;
  /** The shapes of the run's requests, in order. */
  shapes: string[];
  message?: string;
  elapsedMs: number;
  /** What was wrong with the run (empty: nothing). */
  problems: string[];
}

export interface ChaosOptions {
  mock: MockLlm;
  data: DataClient;
  questions: number;
  seed: number;
  /** How long the persona's stall holds a request. */
  stallMs: number;
  /** Each run's budget; a run that has not ended by budget + 5 s is a problem (and is stopped). */
  budgetMs: number;
  mode?: 'agent' | 'pipeline';
  /** Errors that escaped to the process (unhandled rejections) since the drive began. */
  uncaught?: () => string[];
}

/** Whether the message names the status (as "HTTP 503" or a bare 503) or quotes the words. */
function namesCause(message: string, shape: string): boolean {
  const status = statusOf(shape);
  const words = wordsOf(shape);
  return (status >= 400 && new RegExp(`\\b${status}\\b`).test(message)) || (words !== undefined && message.includes(words));
}

export async function driveChaos(o: ChaosOptions): Promise<ChaosRun[]> {
  const { mock } = o;
  await fetch(`${mock.url}/__reset`, { method: 'POST' });
  await fetch(`${mock.url}/__script`, { method: 'POST', body: JSON.stringify({ persona: 'chaos', persona_options: { seed: o.seed, stall_ms: o.stallMs } }) });
  const events: AgentEvent[] = [];
  const saver = new IdbSaver({ dbName: `chaos-${o.seed}-${Date.now()}` });
  let id = 0;
  const service = createAgentService({
    data: o.data,
    saver,
    library: new ExampleLibrary(),
    profiles: new MemoryEndpointProfileStore(),
    emit: (e) => events.push(e),
    maxRetries: 0,
    newId: () => `chaos-${++id}`,
  });
  const settings = { baseUrl: `${mock.url}/v1`, apiKey: 'sk-chaos', model: 'chaos-model' };
  const runs: ChaosRun[] = [];
  try {
    for (let q = 0; q < o.questions; q++) {
      events.length = 0;
      const before = Number(mock.state.memo.n ?? 0);
      const question = `Question ${q}: how many rows does the table have?`;
      const thread = `chaos-thread-${q}`;
      const t0 = Date.now();
      const problems: string[] = [];
      const { result } = await service.start({ settings, thread_id: thread, question, mode: o.mode ?? 'agent' });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), o.budgetMs + 5000)));
      const ended = await Promise.race([service.idle().then(() => 'ended' as const), late]);
      clearTimeout(timer);
      if (ended === 'late') {
        problems.push(`did not end within ${o.budgetMs + 5000} ms`);
        await service.abort({ run_id: result.run_id });
        await service.idle();
      }
      const elapsedMs = Date.now() - t0;
      const after = Number(mock.state.memo.n ?? 0);
      const shapes = Array.from({ length: after - before }, (_, i) => chaosShape(o.seed, before + i));
      const starts = events.filter((e) => e.type === 'run_start').length;
      const ends = events.filter((e) => e.type === 'run_end').length;
      if (starts !== 1 || ends !== 1 || events.at(-1)?.type !== 'run_end') problems.push(`events ${events.map((e) => e.type).join(',')}`);
      const error = events.find((e): e is Extract<AgentEvent, { type: 'error' }> => e.type === 'error');
      const final = events.some((e) => e.type === 'final');
      const outcome: ChaosOutcome = error ? (error.kind === 'aborted' ? 'stopped' : 'failed') : final ? 'answered' : 'failed';
      if (!error && !final) problems.push('ended with neither an answer nor an error');
      if (error) {
        if (!error.message.trim()) problems.push('an empty error message');
        const last = shapes.at(-1);
        // The request that ended the run failed with a status or words: the message carries them.
        if (last && (statusOf(last) >= 400 || wordsOf(last)) && !namesCause(error.message, last) && !shapes.some((s) => namesCause(error.message, s))) {
          problems.push(`message names neither the status nor the words of ${last}: ${error.message}`);
        }
      }
      const view = (await service.loadThread({ thread_id: thread })).result;
      const first = view?.messages[0];
      if (!first || first.role !== 'user' || first.content !== question) problems.push('the conversation does not reload with its question');
      for (const u of o.uncaught?.() ?? []) problems.push(`uncaught: ${u}`);
      runs.push({ question: q, outcome, shapes, ...(error ? { message: error.message } : {}), elapsedMs, problems });
      // The recorded requests are not needed past each question (the persona counts its own).
      mock.state.requests.length = 0;
    }
  } finally {
    await service.idle();
    await saver.destroy();
  }
  return runs;
}

/** Outcome counts, and how many runs ended through each kind of last shape. */
export function chaosCounts(runs: readonly ChaosRun[]): Record<string, number> {
  const counts: Record<string, number> = { questions: runs.length, answered: 0, failed: 0, stopped: 0, problems: 0 };
  for (const r of runs) {
    counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    if (r.problems.length) counts.problems = (counts.problems ?? 0) + 1;
  }
  counts.requests = runs.reduce((n, r) => n + r.shapes.length, 0);
  counts.slowest_ms = runs.reduce((m, r) => Math.max(m, r.elapsedMs), 0);
  return counts;
}
