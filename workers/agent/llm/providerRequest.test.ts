import { describe, expect, it } from 'vitest';
import { AZURE_API_VERSION } from '../../../shared/endpointPresets';
import { providerRequest } from './providerRequest';

describe('provider requests', () => {
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
});
