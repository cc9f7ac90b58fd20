/**
 * A workspace too wide for the prompt (issue 24): one 500-column table and 50 more datasets,
 * answered within an 8k-token window. The prompt carries a compact index, and the model fetches
 * the columns it needs with describe_columns (here scripted) before querying them.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { createAgentService } from '../service/service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import { emptyDictionary } from '../../../protocol/agent/knowledge';

const WIDE_COLUMNS = 500;
const header = Array.from({ length: WIDE_COLUMNS }, (_, i) => `sensor_reading_${i}`).join(',');
const rows = Array.from({ length: 20 }, (_, r) => Array.from({ length: WIDE_COLUMNS }, (_, i) => (r * 7 + i) % 97).join(','));
const wideCsv = `${header}\n${rows.join('\n')}\n`;

const mock = useMockEndpoint();
const worker = useDataWorker({ text: wideCsv, fileName: 'wide.csv', loadId: 'wide' });
const WINDOW = 8000;

describe('a 500-column table and 50 datasets', { timeout: 240_000 }, () => {
  it('fit an 8k-token window; describe_columns gives the columns the index leaves out', async () => {
    for (let t = 0; t < 50; t++) {
      const cols = Array.from({ length: 10 }, (_, i) => `attribute_${i}`);
      const text = `${cols.join(',')}\n${Array.from({ length: 5 }, (_, r) => cols.map((_, i) => (i % 2 ? `label_${r}` : String(r * i))).join(',')).join('\n')}\n`;
      const out = await worker.loadText(text, `table_${t}.csv`);
      expect(out.ok).toBe(true);
    }
    const knowledge = new KnowledgeStore({ dbName: 'wide-knowledge' });
    const dict = emptyDictionary('wide', Array.from({ length: WIDE_COLUMNS }, (_, i) => `sensor_reading_${i}`));
    dict.status = 'accepted';
    dict.columns[417] = { name: 'sensor_reading_417', description: 'Outdoor temperature', unit: '°C', role: 'measure', codes: [], missing: ['96'] };
    await knowledge.putDictionary(dict);

    const events: AgentEvent[] = [];
    const saver = new IdbSaver({ dbName: 'wide-saver' });
    const service = createAgentService({ data: worker.client, saver, library: new ExampleLibrary(), knowledge, emit: (e) => events.push(e), maxRetries: 0 });
    await mock.script([
      { type: 'tool_calls', calls: [{ name: 'describe_columns', arguments: { dataset: 'wide', search: 'temperature' } }] },
      { type: 'tool_calls', calls: [{ name: 'describe_columns', arguments: { dataset: 'wide', columns: ['sensor_reading_417'] } }] },
      { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql: 'SELECT avg(sensor_reading_417) AS t FROM wide WHERE sensor_reading_417 <> 96' } }] },
      { type: 'text', content: 'The average outdoor temperature is as the query shows.' },
      { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
    ]);
    await service.start({ settings: { baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'mock-model', contextTokens: WINDOW }, thread_id: 'wide', question: 'What is the average outdoor temperature?', mode: 'agent' });
    await service.idle();

    expect(events.find((e) => e.type === 'error')).toBeUndefined();
    const ends = events.filter((e) => e.type === 'tool_end');
    const [search, detail] = ends.filter((e) => e.type === 'tool_end' && e.tool === 'describe_columns');
    expect(search?.type === 'tool_end' && search.output).toMatchObject({ total_columns: 500, columns: [{ name: 'sensor_reading_417', type: 'BIGINT', description: 'Outdoor temperature' }] });
    expect(detail?.type === 'tool_end' && detail.output).toMatchObject({ columns: [{ name: 'sensor_reading_417', unit: '°C', missing: ['96'], nulls: 0 }] });
    expect(ends.some((e) => e.type === 'tool_end' && e.tool === 'run_sql')).toBe(true);

    const requests = await mock.chatRequests();
    expect(requests.length).toBeGreaterThanOrEqual(4);
    const system = JSON.stringify((requests[0]?.body as { messages: { content: unknown }[] }).messages[0]?.content);
    expect(system).toContain('call describe_columns with dataset \\"wide\\"');
    for (let t = 0; t < 50; t++) expect(system).toContain(`### table_${t} (5 rows, 10 columns)`);
    // Every request, tool schemas included, within the window (about four characters a token).
    const tokens = requests.map((r) => Math.ceil(r.raw_body.length / 4));
    console.log(`wide workspace: request tokens ${tokens.join(', ')} (window ${WINDOW})`);
    for (const t of tokens) expect(t).toBeLessThanOrEqual(WINDOW);

    // "What the model sees": the same block, counted against the same budget.
    const seen = (await service.modelContext({ settings: { baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'mock-model', contextTokens: WINDOW } })).result;
    expect(seen).toMatchObject({ budget: WINDOW, share: 3200 });
    expect(seen.tokens).toBeLessThanOrEqual(seen.share);
    expect(system).toContain(JSON.stringify(seen.text).slice(1, 200));
    await saver.destroy();
  });
});
