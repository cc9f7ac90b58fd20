/**
 * The privacy log and "No raw rows" through the agent service, in Node: the real data worker
 * handlers (DuckDB-WASM) over a MessageChannel, the real @langchain/openai client against the
 * scripted endpoint, which records the raw bytes it received.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { ScriptedReply } from '../../../testing/mock-llm/server.mjs';
import type { EndpointSettings } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { createAgentService } from '../service/service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { PrivacyLogStore } from './PrivacyLogStore';

const KEY = 'sk-privacy-Hx7pQ2';
/** A value only row 2 holds: in the samples and the full result, never in a shaped output. */
const SECRET = 'Quixotic Zebulon';
const csv = ['id,name,city,amount', ...Array.from({ length: 50 }, (_, i) => `${i + 1},${i === 1 ? SECRET : `Person ${i + 1}`},${['Oslo', 'Lima', 'Pune'][i % 3]},${(i * 7) % 31}`)].join('\n');

const mock = useMockEndpoint();
const worker = useDataWorker({ text: csv, fileName: 'people.csv', loadId: 'p' });
let n = 0;

function makeService() {
  const saver = new IdbSaver({ dbName: `privacy-svc-${Date.now()}-${n}` });
  const privacyLog = new PrivacyLogStore({ dbName: `privacy-log-${Date.now()}-${n++}` });
  let id = 0;
  const service = createAgentService({ data: worker.client, saver, privacyLog, library: new ExampleLibrary(), emit: () => undefined, maxRetries: 0, newId: () => `run-${++id}` });
  return { service, saver, privacyLog };
}
const settings = (extra: Partial<EndpointSettings> = {}): EndpointSettings => ({ baseUrl: `${mock.url}/v1`, apiKey: KEY, model: 'mock-model', ...extra });

const SQL = 'SELECT id, name, amount FROM people ORDER BY id DESC';
const replies = (): ScriptedReply[] => [
  { type: 'tool_calls', calls: [{ id: 'p1', name: 'profile_data', arguments: { dataset: 'people' } }] },
  { type: 'tool_calls', calls: [{ id: 's1', name: 'run_sql', arguments: { sql: SQL } }] },
  // Answers without validating: the guard's forced validation quotes the last result to the critic.
  { type: 'text', content: 'There are 50 people.' },
  { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
];

interface Msg {
  role: string;
  content: string;
  tool_call_id?: string;
}
const messagesOf = (body: string) => (JSON.parse(body) as { messages: Msg[] }).messages;

describe('privacy log through the agent service', { timeout: 60_000 }, () => {
  it('logs every request exactly as the endpoint received it, in order, with usage and no key', async () => {
    const { service, saver, privacyLog } = makeService();
    await mock.script(replies());
    await service.start({ settings: settings(), thread_id: 'open', question: 'How many people?', mode: 'agent' });
    await service.idle();

    const received = (await mock.recorded()).filter((r) => r.method === 'POST');
    const log = (await service.privacyLog({ thread_id: 'open' })).result;
    expect(received.length).toBeGreaterThanOrEqual(4);
    expect(log.map((e) => e.body)).toEqual(received.map((r) => r.raw_body));
    expect(log.map((e) => e.url)).toEqual(received.map((r) => `${mock.url}${r.path}`));
    expect(log.every((e) => e.status === 200 && e.method === 'POST')).toBe(true);
    // Streamed calls ask for usage; the mock reports it in the last chunk.
    expect(log.every((e) => (e.usage?.prompt_tokens ?? 0) > 0)).toBe(true);
    expect(JSON.stringify(log)).not.toContain(KEY);
    expect(received.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    // Without the setting the row values do reach the model (the control for the test below).
    expect(received.some((r) => r.raw_body.includes(SECRET))).toBe(true);

    await service.deleteThread({ thread_id: 'open' });
    expect((await service.privacyLog({ thread_id: 'open' })).result).toEqual([]);
    await saver.destroy();
    await privacyLog.close();
  });

  it('under No raw rows sends schemas, profiles and at most N rows per tool output', async () => {
    const { service, saver, privacyLog } = makeService();
    await mock.script(replies());
    await service.start({ settings: settings({ noRawRows: true, rowsPerToolOutput: 3 }), thread_id: 'closed', question: 'How many people?', mode: 'agent' });
    await service.idle();

    const received = (await mock.recorded()).filter((r) => r.method === 'POST');
    expect(received.length).toBeGreaterThanOrEqual(4);
    for (const r of received) expect(r.raw_body).not.toContain(SECRET);
    const last = received.filter((r) => r.path === '/v1/chat/completions' && !r.raw_body.includes('validation_report')).at(-1);
    const msgs = messagesOf(last?.raw_body ?? '{}');
    // the context: columns and types, no sample values
    expect(msgs[0]?.content).toContain('### people (50 rows, 4 columns)\nid BIGINT\nname VARCHAR\ncity VARCHAR\namount BIGINT');
    const profile = JSON.parse(msgs.find((m) => m.tool_call_id === 'p1')?.content ?? '{}') as { quality: Record<string, { sample: unknown[]; max?: unknown }> };
    expect(Object.values(profile.quality).every((q) => q.sample.length === 0)).toBe(true);
    expect(profile.quality.amount?.max).toBe(30);
    const sql = JSON.parse(msgs.find((m) => m.tool_call_id === 's1')?.content ?? '{}') as { rows: unknown[][]; row_count: number };
    const amount = (id: number) => ((id - 1) * 7) % 31;
    expect(sql.rows).toEqual([50, 49, 48].map((id) => [id, `Person ${id}`, amount(id)]));
    expect(sql.row_count).toBe(50);
    // The privacy log shows the same bytes.
    const log = (await service.privacyLog({ thread_id: 'closed' })).result;
    expect(log.map((e) => e.body)).toEqual(received.map((r) => r.raw_body));
    await saver.destroy();
    await privacyLog.close();
  });

  it('turned on mid-thread, also shapes the outputs stored before', async () => {
    const { service, saver, privacyLog } = makeService();
    await mock.script(replies());
    await service.start({ settings: settings(), thread_id: 'switch', question: 'How many people?', mode: 'agent' });
    await service.idle();
    expect((await mock.recorded()).some((r) => r.raw_body.includes(SECRET))).toBe(true);

    await mock.reset();
    await mock.script([{ type: 'text', content: 'Still 50.' }]);
    await service.start({ settings: settings({ noRawRows: true, rowsPerToolOutput: 3 }), thread_id: 'switch', question: 'And now?', mode: 'agent' });
    await service.idle();
    const received = (await mock.recorded()).filter((r) => r.method === 'POST');
    expect(received.length).toBeGreaterThanOrEqual(1);
    for (const r of received) expect(r.raw_body).not.toContain(SECRET);
    const msgs = messagesOf(received[0]?.raw_body ?? '{}');
    // The earlier run's SQL output is in the history, cut to 3 rows.
    const sql = JSON.parse(msgs.find((m) => m.tool_call_id === 's1')?.content ?? '{}') as { rows: unknown[][] };
    expect(sql.rows).toHaveLength(3);
    // The stored thread keeps what was sent then; only the request is shaped.
    const view = (await service.loadThread({ thread_id: 'switch' })).result;
    expect(JSON.stringify(view?.messages)).toContain(SECRET);
    await saver.destroy();
    await privacyLog.close();
  });
});
