import { describe, expect, it } from 'vitest';
import type { AgentEvent, StartRunRequest } from '../../../protocol/agent/wire';
import type { FinalOutput } from '../../../protocol/agent/final';
import expectedJson from './expected.json';
import type { ExpectedAnswer } from './expected';
import { QUESTIONS } from './questions';
import { newRun, planItems, runGauntlet, selectQuestions, type GauntletDeps } from './runner';
import { percentile, runCsv, runJson, summarise } from './report';
import type { GauntletStore } from './store';
import type { GauntletRun } from './types';

const expected = expectedJson as Record<string, ExpectedAnswer>;
const final = (answer: string): FinalOutput => ({ answer, confidence: 0.9, output_type: 'analysis', caveats: [], reasoning_trace: [], ungrounded_numbers: [], failed_attempts: [] });

class MemoryStore implements GauntletStore {
  runs = new Map<string, GauntletRun>();
  async list() { return [...this.runs.values()]; }
  async put(run: GauntletRun) { this.runs.set(run.id, structuredClone(run)); }
  async remove(id: string) { this.runs.delete(id); }
}

function deps(answer: (req: StartRunRequest) => AgentEvent[], store = new MemoryStore()): GauntletDeps & { store: MemoryStore; asked: StartRunRequest[] } {
  let n = 0;
  const asked: StartRunRequest[] = [];
  return {
    asked,
    store,
    expected,
    newId: () => `t${++n}`,
    now: () => 1_000 * n,
    async run(req, onEvent) {
      asked.push(req);
      for (const e of answer(req)) onEvent(e);
      return null;
    },
    async privacyLog(threadId) {
      return [{ id: 1, thread_id: threadId, at: '', url: '', method: 'POST', body: '', status: 200, usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }];
    },
    async rename() {},
  };
}

const settings = { baseUrl: 'http://x/v1', apiKey: 'k', model: 'm' };

describe('planning', () => {
  it('selects all, a category, ids, or a random sample of distinct questions', () => {
    expect(selectQuestions({ kind: 'all' })).toHaveLength(QUESTIONS.length);
    expect(selectQuestions({ kind: 'category', category: 'visualization' }).every((q) => q.category === 'visualization')).toBe(true);
    const r = selectQuestions({ kind: 'random', count: 10 });
    expect(new Set(r.map((q) => q.id)).size).toBe(10);
    expect(planItems(r.slice(0, 2), ['agent', 'pipeline'], 2)).toHaveLength(8);
  });
});

describe('runGauntlet', () => {
  const qs = selectQuestions({ kind: 'ids', ids: ['desc_penguin_count', 'cmp_heaviest_species', 'desc_dry_days'] });

  it('scores each item, stores it, and reports accuracy by mode', async () => {
    const d = deps((req) => [{ type: 'final', run_id: 'x', output: final(req.question.includes('How many penguins') ? 'There are 344.' : req.question.includes('Which penguin') ? 'Gentoo.' : 'About 800.') }]);
    const run = newRun('r1', settings, planItems(qs, ['agent', 'pipeline'], 1), 0);
    const done = await runGauntlet(run, settings, d, new AbortController().signal);
    expect(done.status).toBe('done');
    expect(done.items.map((i) => i.correct)).toEqual([true, true, false, false, true, true]);
    expect(done.items[2]).toMatchObject({ failure: 'wrong_figure', tokens_in: 100, tokens_out: 10, requests: 1 });
    const s = summarise(done.items, { input: 1, output: 10 });
    expect(s.byMode).toEqual([{ key: 'agent', n: 3, correct: 2, accuracy: 2 / 3 }, { key: 'pipeline', n: 3, correct: 2, accuracy: 2 / 3 }]);
    expect(s.cost).toEqual({ total: (600 * 1 + 60 * 10) / 1e6, perCorrect: (600 + 600) / 1e6 / 4 });
    expect((await d.store.list())[0]?.items).toHaveLength(6);
    const json = JSON.parse(runJson(done)) as { items: unknown[]; model: string };
    expect(json.items).toHaveLength(6);
    expect(JSON.stringify(json)).not.toContain('"k"');
    expect(runCsv(done).split('\r\n')).toHaveLength(8);
  });

  it('stops between items without scoring the stopped one, then resumes where it was', async () => {
    const stop = new AbortController();
    let calls = 0;
    const d = deps(() => {
      calls++;
      if (calls === 2) stop.abort();
      return [{ type: 'final', run_id: 'x', output: final('344 Gentoo 838') }];
    });
    const run = newRun('r2', settings, planItems(qs, ['agent'], 1), 0);
    const stopped = await runGauntlet(run, settings, d, stop.signal);
    expect(stopped.status).toBe('stopped');
    expect(stopped.items.map((i) => i.id)).toEqual(['desc_penguin_count']);
    const resumed = await runGauntlet(stopped, settings, d, new AbortController().signal);
    expect(resumed.status).toBe('done');
    expect(resumed.items.map((i) => i.id)).toEqual(['desc_penguin_count', 'desc_dry_days', 'cmp_heaviest_species']);
    expect(resumed.items.every((i) => i.correct)).toBe(true);
  });

  it('an item stopped from the chat (aborted) stops the gauntlet unscored', async () => {
    const d = deps(() => [{ type: 'error', run_id: 'x', message: 'Stopped.', retryable: true, kind: 'aborted' }]);
    const done = await runGauntlet(newRun('r4', settings, planItems(qs, ['agent'], 1), 0), settings, d, new AbortController().signal);
    expect(done.status).toBe('stopped');
    expect(done.items).toEqual([]);
  });

  it('a run that could not start is a provider error with its reason', async () => {
    const d = deps(() => []);
    d.run = async () => 'The agent could not start: boom';
    const done = await runGauntlet(newRun('r3', settings, planItems(qs.slice(0, 1), ['agent'], 1), 0), settings, d, new AbortController().signal);
    expect(done.items[0]).toMatchObject({ correct: false, failure: 'provider_error', reason: 'The agent could not start: boom' });
  });
});

describe('percentile', () => {
  it('uses the nearest rank', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentile([], 90)).toBe(0);
  });
});
