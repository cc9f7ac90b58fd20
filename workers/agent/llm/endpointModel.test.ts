/**
 * The one model builder: a refusal is stored for the endpoint + model, and the next model built
 * for that pair leaves the parameter out from its first request (the scripted endpoint's
 * openai-reasoning persona, whose documented refusal of `temperature` is cited in
 * e2e/mock-llm/personas/providers.mjs).
 */
import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { checkSettings, endpointModel } from './endpointModel';
import { MemoryEndpointProfileStore } from './endpointProfile';

const mock = useMockEndpoint();

describe('endpointModel', () => {
  it('remembers a refused parameter for the endpoint + model, and the next model never sends it', async () => {
    await mock.script([{ type: 'text', content: 'one' }, { type: 'text', content: 'two' }], { persona: 'openai-reasoning' });
    const profiles = new MemoryEndpointProfileStore();
    const settings = { baseUrl: `${mock.url}/v1`, apiKey: 'sk-test', model: 'my-azure-deployment' };
    const first = await endpointModel(settings, profiles, () => ({ maxRetries: 0 }));
    expect(first.profile).toBeUndefined();
    expect((await first.model.invoke([new HumanMessage('q')])).text).toBe('one');
    await expect.poll(async () => (await profiles.get(settings.baseUrl, settings.model))?.refusedParams).toEqual(['temperature']);
    const second = await endpointModel(settings, profiles, () => ({ maxRetries: 0 }));
    expect(second.profile?.refusedParams).toEqual(['temperature']);
    expect((await second.model.invoke([new HumanMessage('q')])).text).toBe('two');
    const sent = (await mock.chatRequests()).map((r) => 'temperature' in (r.body as Record<string, unknown>));
    expect(sent).toEqual([true, false, false]);
  });

  it('refuses settings that cannot reach a model', () => {
    expect(() => checkSettings({ baseUrl: '', apiKey: '', model: '' })).toThrow(/Settings/);
  });
});
