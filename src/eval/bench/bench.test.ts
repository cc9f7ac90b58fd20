// A brought benchmark end to end without a browser: files (loose, in a folder, in a zip) read as
// a suite, run against scripted answers whose right and wrong ones are known, scored, written as
// a score file, read back and compared. The sets are written here in each format's layout.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, StartRunRequest } from '../../../protocol/agent/wire';
import type { FinalOutput } from '../../../protocol/agent/final';
import { leaveOut, newBenchRun, promptFor, runBench, type BenchDeps } from './runner';
import { parseScoreFile, rowOf, scoreFromBench, SCORE_SCHEMA } from './scoreFile';
import { readSuite, type PickedFile, type Suite } from './suite';
import type { BenchRun } from './types';

const QUESTIONS = [
  { id: 1, question: 'What is the mean price?', concepts: ['Summary Statistics'], constraints: 'Round to two decimal places.', format: '@mean_price[value] where value is rounded to two decimals.', file_name: 'shop.csv', level: 'easy' },
  { id: 2, question: 'How many rows have a missing price, and is price skewed?', concepts: ['Comprehensive Data Preprocessing', 'Distribution Analysis'], constraints: 'Use skewness > 0.5.', format: '@missing[n] @skewed[yes|no]', file_name: 'shop.csv', level: 'medium' },
  { id: 3, question: 'Which city has most stores?', concepts: ['Summary Statistics'], constraints: '', format: '@city[name]', file_name: 'stores.csv', level: 'hard' },
  { id: 4, question: 'A question whose file was not brought.', concepts: [], constraints: '', format: '@x[v]', file_name: 'absent.csv', level: 'easy' },
].map((q) => JSON.stringify(q)).join('\n');
const LABELS = [
  { id: 1, common_answers: [['mean_price', '12.50']] },
  { id: 2, common_answers: [['missing', '3'], ['skewed', 'no']] },
  { id: 3, common_answers: [['city', 'Leeds']] },
  { id: 4, common_answers: [['x', '1']] },
].map((l) => JSON.stringify(l)).join('\n');
const SHOP = 'item,price\na,10\nb,15\nc,\n';
const STORES = 'city\nLeeds\nLeeds\nYork\n';

const file = (path: string, text: string): PickedFile => ({ path, blob: new Blob([text]) });
const dabenchFiles = (): PickedFile[] => [
  file('mini/da-dev-questions.jsonl', QUESTIONS),
  file('mini/da-dev-labels.jsonl', LABELS),
  file('mini/da-dev-tables/shop.csv', SHOP),
  file('mini/da-dev-tables/stores.csv', STORES),
];

const final = (answer: string): FinalOutput => ({ answer, confidence: 0.9, output_type: 'analysis', caveats: [], reasoning_trace: [], ungrounded_numbers: [], failed_attempts: [] });

async function suiteOf(picked: PickedFile[]): Promise<Suite> {
  const s = await readSuite(picked);
  if (typeof s === 'string') throw new Error(s);
  return s;
}

function deps(answer: (req: StartRunRequest) => AgentEvent[]): BenchDeps & { runs: BenchRun[]; asked: StartRunRequest[] } {
  let n = 0;
  const runs: BenchRun[] = [];
  const asked: StartRunRequest[] = [];
  return {
    runs,
    asked,
    store: { put: async (r) => void runs.push(structuredClone(r)) },
    newId: () => `t${++n}`,
    now: () => 1_000 * n,
    async run(req, onEvent) {
      asked.push(req);
      for (const e of answer(req)) onEvent(e);
      return null;
    },
    async privacyLog(threadId) {
      return [{ id: 1, thread_id: threadId, at: '', url: '', method: 'POST', body: '', status: 200, usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 } }];
    },
    async rename() {},
  };
}

const SETTINGS = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: '', model: 'mock-model' } as Parameters<typeof runBench>[3];

describe('reading a suite', () => {
  it('reads DABench from a folder, matching files by base name and leaving out what cannot run', async () => {
    const s = await suiteOf(dabenchFiles());
    expect(s).toMatchObject({ name: 'mini', format: 'dabench', skipped: [{ id: '4', reason: 'no file absent.csv' }] });
    expect(s.items.map((i) => i.id)).toEqual(['1', '2', '3']);
    expect(Object.keys(s.files).sort()).toEqual(['shop.csv', 'stores.csv']);
  });
  it('reads the same set from a zip, skipping macOS resource forks', async () => {
    const zip = zipSync({ 'mini/q.jsonl': strToU8(QUESTIONS), 'mini/l.jsonl': strToU8(LABELS), 'mini/t/shop.csv': strToU8(SHOP), 'mini/t/stores.csv': strToU8(STORES), '__MACOSX/mini/t/._shop.csv': strToU8('junk') });
    const s = await suiteOf([{ path: 'mini-set.zip', blob: new Blob([zip]) }]);
    expect(s.name).toBe('mini-set');
    expect(s.items).toHaveLength(3);
    expect(await (s.files['shop.csv'] as Blob).text()).toBe(SHOP);
  });
  it('says what is missing: labels, or any question file', async () => {
    expect(await readSuite([file('q.jsonl', QUESTIONS), file('shop.csv', SHOP)])).toMatch(/no labels file/);
    expect(await readSuite([file('shop.csv', SHOP)])).toMatch(/No question file/);
    expect(await readSuite([{ path: 'broken.zip', blob: new Blob(['not a zip']) }])).toMatch(/could not be unzipped/);
  });
  it('reads a set ten times DABench’s size (2,570 questions over 640 files) with every question matched to its file', async () => {
    const files: PickedFile[] = [];
    const q: string[] = [];
    const l: string[] = [];
    for (let f = 0; f < 640; f++) files.push(file(`big/tables/t${f}.csv`, 'a,b\n1,2\n'));
    for (let i = 0; i < 2570; i++) {
      q.push(JSON.stringify({ id: i, question: `Q${i}?`, concepts: [`C${i % 7}`], constraints: '', format: `@v${i}[x]`, file_name: `t${i % 650}.csv`, level: ['easy', 'medium', 'hard'][i % 3] }));
      l.push(JSON.stringify({ id: i, common_answers: [[`v${i}`, String(i)]] }));
    }
    const s = await suiteOf([file('big/q.jsonl', q.join('\n')), file('big/l.jsonl', l.join('\n')), ...files]);
    // t640…t649 were never brought: the questions naming them are left out, each said.
    const missing = Array.from({ length: 2570 }, (_x, i) => i).filter((i) => i % 650 >= 640);
    expect(s.skipped).toHaveLength(missing.length);
    expect(s.items).toHaveLength(2570 - missing.length);
    expect(Object.keys(s.files)).toHaveLength(640);
    expect(s.items.every((it) => it.format === 'dabench' && it.files[0] === it.question.file_name)).toBe(true);
  });

  it('reads the generic format with its files', async () => {
    const g = [
      { id: 'n', question: 'How many stores?', files: ['stores.csv'], kind: 'number', expected: 3 },
      { id: 's', question: 'Which cities?', files: ['stores.csv'], kind: 'set', expected: ['Leeds', 'York'] },
    ].map((x) => JSON.stringify(x)).join('\n');
    const s = await suiteOf([file('mine.jsonl', g), file('stores.csv', STORES)]);
    expect(s).toMatchObject({ name: 'mine', format: 'generic', skipped: [] });
    expect(promptFor(s.items[0] as Suite['items'][number], new Map([['stores.csv', 'stores']]))).toBe('How many stores?\nThe file stores.csv is loaded as the table stores.');
    const d = deps(() => [{ type: 'final', output: final('There are 3 stores in Leeds and York.') } as AgentEvent]);
    const done = await runBench(newBenchRun('g', s, SETTINGS, 'agent', 0), s, new Map(), SETTINGS, d, new AbortController().signal);
    expect(done.items.map((i) => [i.id, i.kind, i.correct])).toEqual([['n', 'number', true], ['s', 'set', true]]);
  });
});

describe('running and scoring a suite', () => {
  it('scores exactly the known right and wrong answers, per question and per sub-answer', async () => {
    const s = await suiteOf(dabenchFiles());
    const answers: Record<string, string> = {
      'What is the mean price?': 'The mean is @mean_price[12.5].', // right (12.5 == 12.50 as numbers)
      'How many rows have a missing price, and is price skewed?': '@missing[3] @skewed[No]', // 1 of 2: case matters
      'Which city has most stores?': 'Leeds has the most stores.', // no format: wrong
    };
    const d = deps((req) => {
      const q = Object.keys(answers).find((k) => req.question.startsWith(`Question: ${k}`)) as string;
      return [{ type: 'final', output: final(answers[q] as string) } as AgentEvent];
    });
    const run = newBenchRun('r1', s, SETTINGS, 'agent', 0);
    const done = await runBench(run, s, new Map([['shop.csv', 'shop'], ['stores.csv', 'stores']]), SETTINGS, d, new AbortController().signal);
    expect(done.status).toBe('done');
    expect(done.items.map((i) => [i.id, i.correct, i.failure])).toEqual([['1', true, null], ['2', false, 'wrong_figure'], ['3', false, 'no_figure']]);
    expect(done.items[1]?.sub?.map((x) => x.correct)).toEqual([true, false]);
    expect(d.asked[0]?.question).toContain('Format: @mean_price[value]');
    expect(d.asked[0]?.question).toContain('loaded as the table shop');

    const score = scoreFromBench(done, { input: 1, output: 10 });
    expect(score).toMatchObject({ schema: SCORE_SCHEMA, suite: 'mini', format: 'dabench', model: 'mock-model', endpoint_kind: 'local', mode: 'agent' });
    const back = parseScoreFile(JSON.stringify(score));
    if (typeof back === 'string') throw new Error(back);
    const row = rowOf(back);
    expect(row).toMatchObject({ n: 3, correct: 1, accuracy: 1 / 3, failures: [{ failure: 'wrong_figure', n: 1 }, { failure: 'no_figure', n: 1 }] });
    expect(row.subAccuracy).toBeCloseTo(2 / 4, 10);
    // Each item: 1000 tokens in at $1/M + 100 out at $10/M = $0.002; three items, one right.
    expect(row.cost).toBeCloseTo(0.006, 10);
    expect(row.costPerCorrect).toBeCloseTo(0.006, 10);
    expect(JSON.stringify(score)).not.toContain('127.0.0.1');
  });

  it('stops between items and resumes with the first unscored one, never repeating one', async () => {
    const s = await suiteOf(dabenchFiles());
    const stop = new AbortController();
    const d = deps(() => {
      if (d.asked.length === 2) stop.abort();
      return [{ type: 'final', output: final('@mean_price[12.50]') } as AgentEvent];
    });
    const tables = new Map<string, string>();
    const stopped = await runBench(newBenchRun('r2', s, SETTINGS, 'pipeline', 0), s, tables, SETTINGS, d, stop.signal);
    expect(stopped.status).toBe('stopped');
    expect(stopped.items.map((i) => i.id)).toEqual(['1']);
    const resumed = await runBench(stopped, s, tables, SETTINGS, d, new AbortController().signal);
    expect(resumed.status).toBe('done');
    expect(resumed.items.map((i) => i.id)).toEqual(['1', '2', '3']);
    expect(d.asked.map((r) => r.mode)).toEqual(['pipeline', 'pipeline', 'pipeline', 'pipeline']);
  });

  it('leaves out the unscored questions of a file that would not load, and runs the rest', async () => {
    const s = await suiteOf(dabenchFiles());
    const run = newBenchRun('r3', s, SETTINGS, 'agent', 0);
    const scoredFirst = { ...run, items: [{ index: 0, id: '1', level: 'easy', concepts: [], thread_id: 't', correct: true, reason: '', failure: null, tokens_in: 0, tokens_out: 0, tokens_estimated: false, requests: 1, ms: 1, answer: '' }] };
    expect(leaveOut(scoredFirst, s, []).plan).toEqual(['1', '2', '3']);
    const left = leaveOut(scoredFirst, s, ['shop.csv']);
    expect(left.plan).toEqual(['1', '3']);
    expect(left.items.map((i) => [i.id, i.index])).toEqual([['1', 0]]);
    const d = deps(() => [{ type: 'final', output: final('@city[Leeds]') } as AgentEvent]);
    const done = await runBench(left, s, new Map(), SETTINGS, d, new AbortController().signal);
    expect(done.items.map((i) => [i.id, i.correct])).toEqual([['1', true], ['3', true]]);
    expect(d.asked).toHaveLength(1);
  });

  it('refuses a file that is not a score file', () => {
    expect(parseScoreFile('{"schema":"other"}')).toMatch(/not a score file/);
    expect(parseScoreFile('nope')).toMatch(/not JSON/);
    expect(parseScoreFile(JSON.stringify({ schema: SCORE_SCHEMA, suite: 's', format: 'dabench', model: 'm', endpoint_kind: 'local', mode: 'agent', date: 'd', status: 'done', items: [{ id: 'x' }] }))).toMatch(/item 1/);
  });
});
