import { describe, expect, it } from 'vitest';
import { AZURE_API_VERSION, ENDPOINT_PRESETS, networkAdvice, presetFor, providerRequest } from './endpointPresets';

describe('endpoint presets', () => {
  it('recognises a provider from a typed base URL', () => {
    expect(presetFor('https://contoso.openai.azure.com/openai/deployments/gpt4o')?.name).toBe('Azure OpenAI');
    expect(presetFor('http://127.0.0.1:11434/v1')?.name).toBe('Ollama');
    expect(presetFor('https://generativelanguage.googleapis.com/v1beta/openai')?.name).toBe('Google Gemini');
    expect(presetFor('https://example.com/v1')).toBeUndefined();
    expect(new Set(ENDPOINT_PRESETS.map((p) => p.name)).size).toBe(ENDPOINT_PRESETS.length);
  });

  it('sends an Azure key in api-key with an api-version, never as a bearer token', () => {
    const h = new Headers({ authorization: 'Bearer az-key-1' });
    const url = providerRequest('https://contoso.openai.azure.com/openai/deployments/gpt4o/chat/completions', h, 'https://contoso.openai.azure.com/openai/deployments/gpt4o');
    expect(new URL(url).searchParams.get('api-version')).toBe(AZURE_API_VERSION);
    expect(h.get('api-key')).toBe('az-key-1');
    expect(h.has('authorization')).toBe(false);
    const h2 = new Headers({ authorization: 'Bearer k' });
    const url2 = providerRequest('https://c.openai.azure.com/openai/deployments/d/chat/completions', h2, 'https://c.openai.azure.com/openai/deployments/d?api-version=2025-01-01-preview');
    expect(new URL(url2).searchParams.get('api-version')).toBe('2025-01-01-preview');
  });

  it('leaves other providers as they are, and acknowledges browser calls to Anthropic', () => {
    const h = new Headers({ authorization: 'Bearer sk' });
    expect(providerRequest('https://api.openai.com/v1/chat/completions', h, 'https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(h.get('authorization')).toBe('Bearer sk');
    const a = new Headers({ authorization: 'Bearer sk-ant' });
    providerRequest('https://api.anthropic.com/v1/chat/completions', a, 'https://api.anthropic.com/v1');
    expect(a.get('anthropic-dangerous-direct-browser-access')).toBe('true');
  });

  it('says what to do when a provider cannot be reached from a page', () => {
    expect(networkAdvice('http://localhost:11434/v1')).toContain('OLLAMA_ORIGINS');
    expect(networkAdvice('https://api.deepseek.com/v1')).toContain('OpenRouter');
    expect(networkAdvice('https://my.proxy.example/v1')).toContain('CORS');
  });
});
