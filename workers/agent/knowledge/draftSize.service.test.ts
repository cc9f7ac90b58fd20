/**
 * Issue 37: the dictionary draft of a 2,000-column table (150 integer columns failed with "Out of
 * Memory Error: Allocation failure" and no request was sent). The draft's request to the scripted
 * endpoint stays bounded and says which columns it left out; describe_columns' listing of the
 * same table stays bounded too.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { createAgentService } from '../service/service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import { DRAFT_LINES_CHARS, DRAFT_OTHERS_CHARS, draftedColumns, estimateDraftTokens } from '../../../shared/knowledge/draftBudget';
import { describeColumns } from './describe';

const COLUMNS = 2000;
const names = Array.from({ length: COLUMNS }, (_, i) => `household_income_item_${i}`);
const rows = Array.from({ length: 50 }, (_, r) => names.map((_, i) => (i % 4 === 3 ? `answer_${(r + i) % 9}` : String((r * (i + 7)) % 97))).join(','));
const csv = `${names.join(',')}\n${rows.join('\n')}\n`;

const mock = useMockEndpoint();
const worker = useDataWorker({ text: csv, fileName: 'census.csv', loadId: 'census' });

describe('a 2,000-column table', { timeout: 300_000 }, () => {
  it('gets a bounded dictionary draft request that names what it left out, and a bounded describe_columns listing', async () => {
    // 60 other datasets: their join-key listing is bounded as well.
    for (let t = 0; t < 60; t++) {
      const cols = ['region_code', ...Array.from({ length: 7 }, (_, i) => `indicator_${t}_${i}`)];
      const out = await worker.loadText(`${cols.join(',')}\n${cols.map((_, i) => i).join(',')}\n`, `region_${t}.csv`);
      expect(out.ok).toBe(true);
    }
    const service = createAgentService({ data: worker.client, saver: new IdbSaver({ dbName: 'draft-size' }), library: new ExampleLibrary(), knowledge: new KnowledgeStore({ dbName: 'draft-size-k' }), emit: () => undefined, maxRetries: 2 });
    // Retries allowed: the in-process DuckDB holds the event loop for seconds, and a pooled
    // keep-alive socket the mock server closed meanwhile resets the first attempt.
    const described = draftedColumns(COLUMNS);
    await mock.script([
      {
        type: 'structured',
        when: 'data_dictionary',
        value: {
          row_meaning: 'one household',
          grain: '',
          caveats: [],
          joins: [],
          columns: names.slice(0, described).map((name) => ({ name, description: 'An income item.', unit: '', role: 'measure', codes: [], missing: [] })),
        },
      },
    ]);
    const draft = (await service.draftDictionary({ settings: { baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'mock-model' }, dataset: 'census' })).result;
    expect(draft.columns).toHaveLength(COLUMNS);
    expect(draft.columns[0]?.description).toBe('An income item.');
    expect(draft.columns[COLUMNS - 1]?.description).toBe('');

    const request = (await mock.chatRequests()).at(-1);
    const prompt = JSON.stringify((request?.body as { messages: { content: unknown }[] }).messages);
    expect(prompt).toContain(`and ${COLUMNS - described} more columns not shown here`);
    expect(prompt).toContain('more datasets');
    // Bounded whatever the width: the column lines, the other datasets and the instructions.
    expect(request?.raw_body.length ?? Infinity).toBeLessThan(DRAFT_LINES_CHARS + DRAFT_OTHERS_CHARS + 8_000);
    // The page's estimate (asked before drafting many datasets) is of the same size.
    const estimate = estimateDraftTokens(COLUMNS, 60);
    const sentTokens = (request?.raw_body.length ?? 0) / 4;
    expect(estimate.input).toBeGreaterThan(sentTokens * 0.5);
    expect(estimate.input).toBeLessThan(sentTokens * 2);

    const listing = await describeColumns({ data: worker.client, dictionary: async () => undefined }, { dataset: 'census' });
    expect(listing.ok).toBe(true);
    expect(JSON.stringify(listing).length).toBeLessThan(40_000);
  });
});
