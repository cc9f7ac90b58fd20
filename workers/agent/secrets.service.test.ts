/**
 * Secrets never stored: an endpoint that echoes the key in its error body (as some gateways do)
 * must not get it into the checkpoints (the `__error__` write), the privacy log or the events.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import type { AgentEvent } from '../protocol/agent/wire';
import { SecretScrubber } from '../protocol/secrets';
import { IdbSaver } from './checkpoint/IdbSaver';
import { ScrubbingSerde } from './checkpoint/scrubbingSerde';
import { ExampleLibrary } from './examples/retrieval';
import { PrivacyLogStore } from './privacy/PrivacyLogStore';
import { createAgentService } from './service';
import { useDataWorker } from './testing/dataWorker';
import { useMockEndpoint } from './testing/mockEndpoint';

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
