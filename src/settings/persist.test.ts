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
    expect(loadEndpoint(a)).toEqual({ settings, remember: false });
  });

  it('remembers on this device, and forgets the other copy when the choice changes', () => {
    const a = areas();
    saveEndpoint(a, { settings, remember: false });
    saveEndpoint(a, { settings, remember: true });
    expect(a.session.getItem(STORAGE_KEY)).toBeNull();
    expect(loadEndpoint(a)).toEqual({ settings, remember: true });
    saveEndpoint(a, { settings: { ...settings, model: 'm2' }, remember: false });
    expect(a.local.getItem(STORAGE_KEY)).toBeNull();
    expect(loadEndpoint(a)?.settings.model).toBe('m2');
  });

  it('ignores corrupt entries and reports storage that refuses writes', () => {
    const a = areas();
    a.local.setItem(STORAGE_KEY, '{not json');
    expect(loadEndpoint(a)).toBeNull();
    a.local.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: 'u', apiKey: 3 }));
    expect(loadEndpoint(a)).toEqual({ settings: { baseUrl: 'u', apiKey: '', model: '' }, remember: true });
    const refusing = areas();
    refusing.session.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    const out = saveEndpoint(refusing, { settings, remember: false });
    expect(out.ok).toBe(false);
    expect(saveEndpoint({ local: null, session: null }, { settings, remember: true }).ok).toBe(false);
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
