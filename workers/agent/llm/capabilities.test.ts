import { describe, expect, it } from 'vitest';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { checkCapabilities, describeCapabilities } from './capabilities';
import { createChatModel, transientMemory } from './chatModel';
import type { WireObservations } from './wire/normalise';

const mock = useMockEndpoint();

async function probe(persona: string, replies: Parameters<typeof mock.script>[0], images = false) {
  await mock.script(replies, { persona });
  const observed: WireObservations = { reasoning: 'none', recoveredCalls: 0 };
  const model = createChatModel({ baseUrl: `${mock.url}/v1`, apiKey: 'k', model: 'probe-model' }, { memory: transientMemory(), observed, maxRetries: 0 });
  return checkCapabilities(model, observed, { images });
}

describe('capability check', () => {
  it('puts the findings in plain words', () => {
    expect(describeCapabilities({ tools: true, structured: 'function_calling', images: false, reasoning: 'inline_tags' })).toBe(
      'Tools: yes · Structured output: via function calling (JSON schema refused) · Images: no · Reasoning: inline tags',
    );
    expect(describeCapabilities({ tools: false, structured: 'json_schema', images: 'untested', reasoning: 'none' })).toBe(
      'Tools: no · Structured output: yes (JSON schema) · Images: not tested · Reasoning: none seen',
    );
  });

  it('DeepSeek: tools yes, structured via function calling, reasoning_content', async () => {
    const r = await probe('deepseek', [
      { type: 'tool_calls', calls: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }], reasoning: 'add them' },
      { type: 'structured', value: { answer: 5 } },
    ]);
    expect(r).toMatchObject({ tools: true, structured: 'function_calling', reasoning: 'reasoning_content', images: 'untested' });
  });

  it('a model that cannot see images says so, and the other findings stand', async () => {
    const r = await probe(
      'inline-think',
      [
        { type: 'tool_calls', calls: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }] },
        { type: 'structured', value: { answer: 5 } },
        { type: 'error', status: 400, message: 'Invalid content type. image_url is only supported by certain models.' },
      ],
      true,
    );
    expect(r).toMatchObject({ tools: true, structured: 'json_schema', images: false, reasoning: 'inline_tags' });
    expect(r.problems.join(' ')).toContain('does not accept images');
  });

  it('a refused key is reported as the key, not as a model that cannot use tools', async () => {
    // https://platform.openai.com/docs/guides/error-codes (401 "Incorrect API key provided")
    const r = await probe('bad-key', []);
    expect(r.failure?.kind).toBe('auth');
    expect(r.summary).toMatch(/^The key was refused by the endpoint \(HTTP 401: “Incorrect API key provided”\)\. Change the API key in Settings\.$/);
    expect(r.summary).not.toContain('Tools: no');
    expect(await mock.chatRequests()).toHaveLength(1);
  });

  it('a model the endpoint does not serve is named, with the fix', async () => {
    // Ollama: {"error":"model 'x' not found, try pulling it first"} — https://github.com/otwld/ollama-helm/issues/61
    const r = await probe('openai-compatible', [{ type: 'error', status: 404, message: "model 'probe-model' not found, try pulling it first" }]);
    expect(r.failure?.kind).toBe('not_found');
    expect(r.summary).toContain('Pick a model from the list');
  });
});
