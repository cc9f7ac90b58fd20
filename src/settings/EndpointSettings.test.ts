import { describe, expect, it } from 'vitest';
import { EndpointSettings } from './EndpointSettings.svelte';
import { keyFor } from './keyRing';
import { STORAGE_KEY } from './persist';

function memory(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
}

describe('EndpointSettings', () => {
  it('starts unconfigured, saves trimmed values and reloads them', () => {
    const areas = { local: memory(), session: memory() };
    const s = new EndpointSettings(areas);
    expect(s.configured).toBe(false);
    s.save({ baseUrl: ' http://localhost:11434/v1 ', apiKey: ' ', model: 'llama3.1 ', remember: true });
    expect(s.configured).toBe(true);
    expect(s.snapshot()).toEqual({ baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'llama3.1' });
    expect(areas.local.getItem(STORAGE_KEY)).toContain('llama3.1');
    const again = new EndpointSettings(areas);
    expect(again.snapshot()).toEqual(s.snapshot());
    expect(again.remember).toBe(true);
  });

  it('opens and closes its dialog', () => {
    const s = new EndpointSettings({ local: null, session: null });
    s.open();
    expect(s.dialogOpen).toBe(true);
    s.close();
    expect(s.dialogOpen).toBe(false);
    s.save({ baseUrl: 'https://x/v1', apiKey: 'k', model: 'm', remember: false });
    expect(s.saveWarning).toMatch(/could not|does not allow/);
  });
});

describe('No raw rows setting', () => {
  it('is off with 20 rows by default, and saved and reloaded with the endpoint', () => {
    const areas = { local: memory(), session: memory() };
    const s = new EndpointSettings(areas);
    expect(s.noRawRows).toBe(false);
    expect(s.rowsPerToolOutput).toBe(20);
    s.save({ baseUrl: 'https://x/v1', apiKey: 'k', model: 'm', remember: false, noRawRows: true, rowsPerToolOutput: 3 });
    // Sent with each run.
    expect(s.snapshot()).toEqual({ baseUrl: 'https://x/v1', apiKey: 'k', model: 'm', noRawRows: true, rowsPerToolOutput: 3 });
    const again = new EndpointSettings(areas);
    expect(again.noRawRows).toBe(true);
    expect(again.rowsPerToolOutput).toBe(3);
    again.save({ baseUrl: 'https://x/v1', apiKey: 'k', model: 'm', remember: false, noRawRows: false, rowsPerToolOutput: 20 });
    expect(again.snapshot()).toEqual({ baseUrl: 'https://x/v1', apiKey: 'k', model: 'm' });
  });

  it('ignores stored values the setting cannot take', () => {
    const session = memory();
    session.setItem(STORAGE_KEY, JSON.stringify({ baseUrl: 'https://x/v1', apiKey: '', model: 'm', noRawRows: 'yes', rowsPerToolOutput: -4 }));
    const s = new EndpointSettings({ local: memory(), session });
    expect(s.noRawRows).toBe(false);
    expect(s.rowsPerToolOutput).toBe(20);
  });
});

describe('a key belongs to its host', () => {
  it('sends no key to another origin, and keeps each origin\'s own key', () => {
    const areas = { local: memory(), session: memory() };
    const s = new EndpointSettings(areas);
    s.save({ baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-openai-key', model: 'm', remember: true });
    expect(s.snapshot().apiKey).toBe('sk-openai-key');
    // The same origin, another path: the same key.
    s.save({ baseUrl: 'https://api.openai.com/v2', apiKey: s.apiKey, model: 'm', remember: true });
    expect(s.snapshot().apiKey).toBe('sk-openai-key');
    // Another origin with no key entered for it: none is sent.
    s.save({ baseUrl: 'https://evil.example/v1', apiKey: '', model: 'm', remember: true });
    expect(s.snapshot()).toEqual({ baseUrl: 'https://evil.example/v1', apiKey: '', model: 'm' });
    // http and https, or another port, are other origins.
    s.save({ baseUrl: 'http://api.openai.com/v1', apiKey: '', model: 'm', remember: true });
    expect(s.snapshot().apiKey).toBe('');
    // Back at the first origin, its key is still there, after a reload too.
    s.save({ baseUrl: 'https://api.openai.com/v1', apiKey: keyFor(s.keys, 'https://api.openai.com/v1'), model: 'm', remember: true });
    expect(new EndpointSettings(areas).snapshot().apiKey).toBe('sk-openai-key');
    expect(s.secrets()).toEqual(['sk-openai-key']);
  });
});
