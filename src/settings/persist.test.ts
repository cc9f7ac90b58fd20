import { describe, expect, it } from 'vitest';
import { baseUrlProblem } from '../../workers/agent/llm/chatModel';
import { loadEndpoint, saveEndpoint, STORAGE_KEY, type StorageAreas } from './persist';
import { PRESETS } from './presets';

/** A Web Storage over a Map (Node has none). */
class MemoryStorage implements Storage {
  #m = new Map<string, string>();
  get length() {
    return this.#m.size;
  }
  clear() {
    this.#m.clear();
  }
  getItem(k: string) {
    return this.#m.get(k) ?? null;
  }
  key(i: number) {
    return [...this.#m.keys()][i] ?? null;
  }
  removeItem(k: string) {
    this.#m.delete(k);
  }
  setItem(k: string, v: string) {
    this.#m.set(k, v);
  }
}

const areas = (): StorageAreas & { local: MemoryStorage; session: MemoryStorage } => ({ local: new MemoryStorage(), session: new MemoryStorage() });
const settings = { baseUrl: 'https://api.example.com/v1', apiKey: 'sk-secret', model: 'm1' };
const keys = { 'https://api.example.com': 'sk-secret' };

describe('endpoint persistence', () => {
  it('keeps a context budget when set, and drops one that is not a positive integer', () => {
    const a = areas();
    saveEndpoint(a, { settings: { ...settings, contextTokens: 1500 }, remember: false });
    expect(loadEndpoint(a)?.settings.contextTokens).toBe(1500);
    a.session.setItem(STORAGE_KEY, JSON.stringify({ ...settings, contextTokens: -3 }));
    expect(loadEndpoint(a)?.settings).toEqual(settings);
  });

  it('keeps the settings for the session only unless asked to remember them', () => {
    const a = areas();
    expect(saveEndpoint(a, { settings, remember: false })).toEqual({ ok: true });
    expect(a.local.getItem(STORAGE_KEY)).toBeNull();
    expect(loadEndpoint(a)).toEqual({ settings, keys, remember: false });
  });

  it('remembers on this device, and forgets the other copy when the choice changes', () => {
    const a = areas();
    saveEndpoint(a, { settings, remember: false });
    saveEndpoint(a, { settings, remember: true });
    expect(a.session.getItem(STORAGE_KEY)).toBeNull();
    expect(loadEndpoint(a)).toEqual({ settings, keys, remember: true });
    saveEndpoint(a, { settings: { ...settings, model: 'm2' }, remember: false });
    expect(a.local.getItem(STORAGE_KEY)).toBeNull();
    expect(loadEndpoint(a)?.settings.model).toBe('m2');
  });

  it('ignores corrupt entries and reports storage that refuses writes', () => {
    const a = areas();
    a.local.setItem(STORAGE_KEY, '{not json');
    expect(loadEndpoint(a)).toBeNull();
    a.local.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: 'u', apiKey: 3 }));
    expect(loadEndpoint(a)).toEqual({ settings: { baseUrl: 'u', apiKey: '', model: '' }, keys: {}, remember: true });
    const refusing = areas();
    refusing.session.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const out = saveEndpoint(refusing, { settings, remember: false });
    expect(out.ok).toBe(false);
    expect(saveEndpoint({ local: null, session: null }, { settings, remember: true }).ok).toBe(false);
  });

  it('stores the key only under the origin it was entered for', () => {
    const a = areas();
    saveEndpoint(a, { settings, keys: { 'https://openrouter.ai': 'sk-or-other' }, remember: true });
    const stored = JSON.parse(a.local.getItem(STORAGE_KEY) ?? '{}') as Record<string, unknown>;
    expect(stored.apiKey).toBeUndefined();
    expect(stored.keys).toEqual({ 'https://openrouter.ai': 'sk-or-other', 'https://api.example.com': 'sk-secret' });
    // The base URL moved to another origin (edited by hand in storage): no key goes with it.
    a.local.setItem(STORAGE_KEY, JSON.stringify({ ...stored, baseUrl: 'https://evil.example/v1' }));
    expect(loadEndpoint(a)?.settings.apiKey).toBe('');
  });

  it('migrates a key saved before keys had origins to its saved base URL\'s origin', () => {
    const a = areas();
    a.local.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: 'https://api.example.com/v1/', apiKey: 'sk-old-format', model: 'm1' }));
    expect(loadEndpoint(a)).toEqual({
      settings: { baseUrl: 'https://api.example.com/v1/', apiKey: 'sk-old-format', model: 'm1' },
      keys: { 'https://api.example.com': 'sk-old-format' },
      remember: true,
    });
    // Rejected: origins that are not what a URL's origin spells, and non-string keys.
    a.local.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: 'https://api.example.com/v1', model: 'm', keys: { 'https://api.example.com/v1': 'sk-x', 'https://api.example.com': 7 } }));
    expect(loadEndpoint(a)?.keys).toEqual({});
  });

  it('offers the providers of the issue, each with a base URL the worker accepts', () => {
    expect(PRESETS.map((p) => baseUrlProblem(p.baseUrl))).toEqual(PRESETS.map(() => undefined));
    expect(PRESETS.map((p) => p.name)).toEqual([
      'OpenAI',
      'Azure OpenAI',
      'OpenRouter',
      'Groq',
      'DeepSeek',
      'Together',
      'Mistral',
      'xAI',
      'Google Gemini',
      'Anthropic',
      'Ollama',
      'LM Studio',
      'llama.cpp',
      'vLLM',
    ]);
  });
});
