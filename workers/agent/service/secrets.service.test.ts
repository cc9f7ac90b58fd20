/**
 * Secrets never stored: an endpoint that echoes the key in its error body (as some gateways do)
 * must not get it into the checkpoints (the `__error__` write), the privacy log or the events.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { SecretScrubber } from '../../../shared/secrets';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ScrubbingSerde } from '../checkpoint/scrubbingSerde';
import { ExampleLibrary } from '../examples/retrieval';
import { PrivacyLogStore } from '../privacy/PrivacyLogStore';
import { ToolOutputStore } from '../threads/ToolOutputStore';
import { leaks, storedText } from '../../../shared/testing/secretForms';
import { createAgentService } from './service';
import { useDataWorker } from '../testing/dataWorker';
import { useMockEndpoint } from '../testing/mockEndpoint';

const mock = useMockEndpoint();
const worker = useDataWorker({ text: 'a,b\n1,2\n', fileName: 't.csv', loadId: 't' });
const KEY = 'sk-echoed-9Hq2Lm7Pz';

async function everything(dbName: string): Promise<string> {
  const db = await openDB(dbName);
  const out: unknown[] = [];
  for (const store of db.objectStoreNames) out.push(await db.getAll(store));
  db.close();
  return JSON.stringify(out, (_k, v: unknown) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v));
}

describe('secrets', { timeout: 60_000 }, () => {
  it('an error that echoes the key is stored and shown with the key redacted', async () => {
    const secrets = new SecretScrubber();
    const saverDb = `secrets-saver-${Date.now()}`;
    const logDb = `secrets-log-${Date.now()}`;
    const events: AgentEvent[] = [];
    const service = createAgentService({
      data: worker.client,
      saver: new IdbSaver({ dbName: saverDb, serde: new ScrubbingSerde((t) => secrets.scrub(t)) }),
      privacyLog: new PrivacyLogStore({ dbName: logDb, scrub: (t) => secrets.scrub(t) }),
      secrets,
      library: new ExampleLibrary(),
      emit: (e) => events.push(e),
      maxRetries: 0,
    });
    await mock.script([{ type: 'error', status: 400, message: `Invalid request: the key ${KEY} has no access to this model` }]);
    await service.start({ settings: { baseUrl: `${mock.url}/v1`, apiKey: KEY, model: 'mock-model' }, thread_id: 'th', question: 'q?', mode: 'agent' });
    await service.idle();
    const error = events.find((e) => e.type === 'error');
    expect(error?.type === 'error' && error.message).toContain('[redacted]');
    expect(JSON.stringify(events)).not.toContain(KEY);
    await new Promise((r) => setTimeout(r, 100));
    const stored = await everything(saverDb);
    expect(stored).toContain('[redacted]');
    expect(stored).not.toContain(KEY);
    expect(await everything(logDb)).not.toContain(KEY);
  });
});

describe('a key echoed into tool calls', { timeout: 60_000 }, () => {
  it('is in no store: tool outputs, checkpoint writes, privacy log — raw, escaped, base64 or URL-encoded', async () => {
    const secrets = new SecretScrubber();
    const stamp = `${Date.now()}-${Math.random()}`;
    const saverDb = `echo-saver-${stamp}`;
    const logDb = `echo-log-${stamp}`;
    const outputsDb = `echo-outputs-${stamp}`;
    const events: AgentEvent[] = [];
    const service = createAgentService({
      data: worker.client,
      saver: new IdbSaver({ dbName: saverDb, serde: new ScrubbingSerde(secrets) }),
      privacyLog: new PrivacyLogStore({ dbName: logDb, scrub: (t) => secrets.scrub(t) }),
      toolOutputs: new ToolOutputStore(outputsDb, (v) => secrets.scrubValue(v)),
      secrets,
      library: new ExampleLibrary(),
      emit: (e) => events.push(e),
      maxRetries: 0,
    });
    // A hostile endpoint puts the key into the SQL, so the results hold it in several forms.
    const sql = `SELECT '${KEY}' AS raw, to_base64('${KEY}'::BLOB) AS b64, to_base64(('xy' || '${KEY}')::BLOB) AS b64_shifted, url_encode('${KEY}') AS url, '{"k":"${KEY}"}' AS json`;
    await mock.script([
      { type: 'tool_calls', calls: [{ name: 'run_sql', arguments: { sql } }] },
      { type: 'text', content: `Your key is ${KEY}.` },
    ]);
    await service.start({ settings: { baseUrl: `${mock.url}/v1`, apiKey: KEY, model: 'mock-model' }, thread_id: 'echo', question: 'q?', mode: 'agent' });
    await service.idle();
    // The run really carried the key through a tool (so the stores below had it to hold).
    const end = events.find((e) => e.type === 'tool_end');
    expect(leaks(JSON.stringify(end), KEY).length).toBeGreaterThan(1);
    await new Promise((r) => setTimeout(r, 100));
    for (const db of [saverDb, logDb, outputsDb]) {
      const text = storedText(await everythingRaw(db));
      expect(text.length, db).toBeGreaterThan(100);
      expect(leaks(text, KEY), db).toEqual([]);
    }
    // The stored tool output is still a table, with the key's cell redacted.
    const outputs = await new ToolOutputStore(outputsDb).forThread('echo');
    expect(JSON.stringify(outputs)).toContain('[redacted]');
  });
});

async function everythingRaw(dbName: string): Promise<unknown[]> {
  const db = await openDB(dbName);
  const out: unknown[] = [];
  for (const store of db.objectStoreNames) out.push(await db.getAll(store));
  db.close();
  return out;
}
