/**
 * The chaos endpoint (issue 30): 300 seeded questions through the real agent service, each
 * request answered with one of the failure shapes of testing/mock-llm/personas/chaos.mjs (every
 * error body shape under statuses 400–529, an HTML page, truncated JSON, a stream without
 * [DONE], an error event in a 200 stream, choices: [], empty content, non-JSON tool arguments, a
 * stall — short here —, a 200 that is not JSON). Every run ends within its budget, nothing
 * escapes to the process, each conversation reloads with its question, and a failure names the
 * status or the provider's words. `npm run bench -- --only=chaos` prints the outcome counts.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockLlm, type MockLlm } from '../../../testing/mock-llm/server.mjs';
import { SHAPES } from '../../../testing/mock-llm/personas/chaos.mjs';
import { chaosCounts, driveChaos } from '../testing/chaosDrive';
import { useDataWorker } from '../testing/dataWorker';

const worker = useDataWorker({ text: 'city,sales\nOslo,3\nLima,5\nPune,8\n', fileName: 'sales.csv', loadId: 'c' });
let mock: MockLlm | undefined;
const uncaught: string[] = [];
const onRejection = (e: unknown) => uncaught.push(String(e));

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onRejection);
});
afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  process.off('uncaughtException', onRejection);
  await mock?.close();
});

describe('the chaos endpoint', () => {
  it('300 seeded questions: every run ends, nothing escapes, conversations reload, failures say why', { timeout: 900_000 }, async () => {
    if (!mock) throw new Error('the mock did not start');
    const take = () => uncaught.splice(0);
    const runs = [
      ...(await driveChaos({ mock, data: worker.client, questions: 220, seed: 30, stallMs: 150, budgetMs: 20_000, uncaught: take })),
      ...(await driveChaos({ mock, data: worker.client, questions: 80, seed: 31, stallMs: 150, budgetMs: 20_000, mode: 'pipeline', uncaught: take })),
    ];
    const counts = chaosCounts(runs);
    // Every shape was met at least once, so the run above is the envelope it claims to be.
    expect(runs.filter((r) => r.problems.length).map((r) => `Q${r.question} [${r.shapes.join(' ')}]: ${r.problems.join('; ')}`)).toEqual([]);
    const met = new Set(runs.flatMap((r) => r.shapes));
    expect(SHAPES.filter((s) => !met.has(s))).toEqual([]);
    expect(counts.questions).toBe(300);
  });
});
