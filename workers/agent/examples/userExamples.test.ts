/**
 * Thumbs-up examples: kept in IndexedDB, loaded beside the curated library, and found by the
 * same search that serves `search_examples` and the prompt's top examples.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { FinalOutput } from '../../../protocol/agent/final';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { createAgentService } from '../service/service';
import type { DataClient } from '../tools/workerHost';
import { EXAMPLES } from './library';
import { ExampleLibrary } from './retrieval';
import { UserExampleStore, exampleFromAnswer, loadUserExamples, userExampleId } from './userExamples';

const question = 'Which glacier lost the most ice per decade?';
const final: FinalOutput = {
  answer: 'Columbia glacier lost the most: 12.4 m per decade.',
  confidence: 0.9,
  output_type: 'analysis',
  code: ['SELECT glacier, regr_slope(thickness, year) * 10 AS per_decade FROM ice GROUP BY glacier ORDER BY per_decade LIMIT 1'],
  caveats: [],
  reasoning_trace: ['run_sql: slope of thickness over year per glacier', 'validate_results: valid'],
  ungrounded_numbers: [],
  failed_attempts: [],
};
let n = 0;
const dbName = () => `user-examples-test-${Date.now()}-${n++}`;

describe('user examples', () => {
  it('builds an example from a rated answer: question, approach, code', () => {
    const e = exampleFromAnswer('t1', question, final);
    expect(e).toMatchObject({ id: userExampleId('t1', question), question, tags: ['saved', 'analysis'] });
    expect(e.approach).toContain('slope of thickness');
    expect(e.code_pattern).toContain('regr_slope');
    expect(userExampleId('t1', question)).not.toBe(userExampleId('t2', question));
  });

  it('persists, reloads into a fresh library, and is retrieved beside the curated examples', async () => {
    const name = dbName();
    const store = new UserExampleStore({ dbName: name });
    await store.put(exampleFromAnswer('t1', question, final));
    await store.close();

    const library = new ExampleLibrary();
    expect(library.search('glacier ice lost per decade', 3).some((h) => h.example.id.startsWith('user-'))).toBe(false);
    const loaded = await loadUserExamples(new UserExampleStore({ dbName: name }), library);
    expect(loaded).toBe(1);
    expect(library.size).toBe(EXAMPLES.length + 1);
    const hits = library.search('glacier ice lost per decade', 3);
    expect(hits[0]?.example.id).toBe(userExampleId('t1', question));
    // Curated examples still answer their own kind of question.
    const curated = EXAMPLES[0];
    if (curated) expect(library.search(curated.question, 3).map((h) => h.example.id)).toContain(curated.id);
  });

  it('rateAnswer saves on Helpful, and a later Not helpful removes it from the library and the store', async () => {
    const store = new UserExampleStore({ dbName: dbName() });
    const library = new ExampleLibrary();
    const service = createAgentService({
      // Rating never reaches the data worker.
      data: {} as DataClient,
      saver: new IdbSaver({ dbName: dbName() }),
      library,
      userExamples: store,
      emit: () => undefined,
    });
    const up = await service.rateAnswer({ thread_id: 't1', question, final, rating: 'up' });
    expect(up).toEqual({ result: { saved: true, examples: EXAMPLES.length + 1 } });
    expect(library.search('glacier ice per decade', 3)[0]?.example.question).toBe(question);
    expect((await store.all()).map((e) => e.question)).toEqual([question]);

    const down = await service.rateAnswer({ thread_id: 't1', question, final, rating: 'down' });
    expect(down).toEqual({ result: { saved: false, examples: EXAMPLES.length } });
    expect(library.get(userExampleId('t1', question))).toBeUndefined();
    expect(await store.all()).toEqual([]);
  });
});
