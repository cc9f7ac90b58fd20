import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { IdbEndpointProfileStore, MemoryEndpointProfileStore, profileKey } from './endpointProfile';

describe('endpoint profiles', () => {
  it('keys by base URL without credentials or query, and by model', () => {
    expect(profileKey('https://u:secret@api.example.com/v1/?api-version=1', 'm')).toBe('https://api.example.com/v1#m');
    expect(profileKey('https://api.example.com/v1', 'm')).not.toBe(profileKey('https://api.example.com/v1', 'n'));
  });

  for (const [name, make] of [
    ['memory', () => new MemoryEndpointProfileStore()],
    ['IndexedDB', () => new IdbEndpointProfileStore({ dbName: `profiles-${Math.random()}` })],
  ] as const) {
    it(`${name}: unions refused parameters and keeps other findings`, async () => {
      const store = make();
      expect(await store.get('https://a/v1', 'm')).toBeUndefined();
      await store.update('https://a/v1', 'm', { refusedParams: ['temperature'] });
      await store.update('https://a/v1/', 'm', { refusedParams: ['stream_options'], structuredRung: 'json_object' });
      const p = await store.get('https://a/v1', 'm');
      expect(p?.refusedParams).toEqual(['stream_options', 'temperature']);
      expect(p?.structuredRung).toBe('json_object');
      await store.clear();
      expect(await store.get('https://a/v1', 'm')).toBeUndefined();
    });
  }
});
