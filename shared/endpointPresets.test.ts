import { describe, expect, it } from 'vitest';
import { ENDPOINT_PRESETS, networkAdvice, presetFor } from './endpointPresets';

describe('endpoint presets', () => {
  it('recognises a provider from a typed base URL', () => {
    expect(presetFor('https://contoso.openai.azure.com/openai/deployments/gpt4o')?.name).toBe('Azure OpenAI');
    expect(presetFor('http://127.0.0.1:11434/v1')?.name).toBe('Ollama');
    expect(presetFor('https://generativelanguage.googleapis.com/v1beta/openai')?.name).toBe('Google Gemini');
    expect(presetFor('https://example.com/v1')).toBeUndefined();
    expect(new Set(ENDPOINT_PRESETS.map((p) => p.name)).size).toBe(ENDPOINT_PRESETS.length);
  });

  it('says what to do when a provider cannot be reached from a page', () => {
    expect(networkAdvice('http://localhost:11434/v1')).toContain('OLLAMA_ORIGINS');
    expect(networkAdvice('https://api.deepseek.com/v1')).toContain('OpenRouter');
    expect(networkAdvice('https://my.proxy.example/v1')).toContain('CORS');
  });
});
