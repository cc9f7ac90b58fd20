/**
 * Bench rows for issue 30's chaos endpoint: seeded questions through the real agent service
 * (Node: DuckDB-WASM's Node build behind the data worker's handlers, fake IndexedDB), each
 * request answered with one of the persona's failure shapes; the outcome counts, the runs that
 * broke a rule (should be 0) and the slowest run. Loaded by bench/chaos.mjs through Vite's SSR loader.
 */
import 'fake-indexeddb/auto';
import type { MockLlm } from '../testing/mock-llm/server.mjs';
import { chaosCounts, driveChaos } from '../workers/agent/testing/chaosDrive';
import { startDataWorker } from '../workers/agent/testing/startDataWorker';

export async function measure(mock: MockLlm, questions: number): Promise<Record<string, number>> {
  const data = await startDataWorker({ text: 'city,sales\nOslo,3\nLima,5\nPune,8\n', fileName: 'sales.csv', loadId: 'bench' });
  const uncaught: string[] = [];
  const note = (e: unknown) => uncaught.push(String(e));
  process.on('unhandledRejection', note);
  try {
    const runs = await driveChaos({ mock, data: data.client, questions, seed: 30, stallMs: 150, budgetMs: 20_000, uncaught: () => uncaught.splice(0) });
    return chaosCounts(runs);
  } finally {
    process.off('unhandledRejection', note);
    data.close();
  }
}
