/**
 * `Test connection`'s model list teaches the endpoint profile each model's window where the
 * server states it (vLLM's `max_model_len`: https://github.com/modal-labs/modal-examples/issues/843).
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { MemoryEndpointProfileStore } from '../llm/endpointProfile';
import { createAgentService } from './service';
import type { DataClient } from '../tools/workerHost';

describe('the model list', () => {
  it('records the windows it states', async () => {
    const profiles = new MemoryEndpointProfileStore();
    const fetchModels = (async () =>
      new Response(
        JSON.stringify({
          object: 'list',
          data: [
            { id: 'meta-llama/Meta-Llama-3.1-8B-Instruct', object: 'model', owned_by: 'vllm', max_model_len: 8096 },
            { id: 'other', object: 'model' },
          ],
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      )) as typeof fetch;
    const service = createAgentService({ data: {} as DataClient, saver: new IdbSaver({ dbName: 'svc-window' }), library: new ExampleLibrary(), emit: () => undefined, fetch: fetchModels, profiles });
    const baseUrl = 'http://127.0.0.1:8000/v1';
    const { result } = await service.listModels({ settings: { baseUrl, apiKey: '' } });
    expect(result).toEqual({ ok: true, models: ['meta-llama/Meta-Llama-3.1-8B-Instruct', 'other'] });
    expect((await profiles.get(baseUrl, 'meta-llama/Meta-Llama-3.1-8B-Instruct'))?.contextWindow).toBe(8096);
    expect(await profiles.get(baseUrl, 'other')).toBeUndefined();
  });
});
