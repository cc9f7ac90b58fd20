import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DatasetStorage, isQuotaError, type ManifestEntry } from './storage';

const entry = (name: string, sourceKey: string, loadedAt = 1): ManifestEntry => ({
  name,
  fileName: `${name}.csv`,
  format: 'csv',
  sourceKey,
  sizeBytes: 3,
  loadedAt,
});

describe('DatasetStorage (IndexedDB fallback)', () => {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
  });
  it('stores sources and manifest, renames and removes', async () => {
    const storage = await DatasetStorage.open({ useOpfs: false });
    expect(storage.sources.kind).toBe('indexeddb');
    let fraction = 0;
    await storage.sources.put('k1', new Blob(['a,b\n1,2\n']), (f) => (fraction = f));
    expect(fraction).toBe(1);
    await storage.putEntry(entry('b', 'k1', 2));
    await storage.putEntry(entry('a', 'k1', 1));
    expect((await storage.entries()).map((e) => e.name)).toEqual(['a', 'b']);
    const blob = await storage.sources.get('k1');
    expect(await blob?.text()).toBe('a,b\n1,2\n');

    await storage.rename('a', 'z');
    expect((await storage.entries()).map((e) => e.name)).toEqual(['z', 'b']);

    // Two sheets share a source: the bytes stay until the last one goes.
    await storage.remove('z');
    expect(await storage.sources.get('k1')).toBeDefined();
    await storage.remove('b');
    expect(await storage.sources.get('k1')).toBeUndefined();
    expect(await storage.entries()).toEqual([]);
  });

  it('sweeps orphaned bytes', async () => {
    const storage = await DatasetStorage.open({ useOpfs: false });
    await storage.sources.put('keep', new Blob(['x']));
    await storage.sources.put('orphan', new Blob(['y']));
    await storage.sweep(new Set(['keep']));
    expect(await storage.sources.get('keep')).toBeDefined();
    expect(await storage.sources.get('orphan')).toBeUndefined();
  });

  it('recognises quota errors', () => {
    const e = new Error('full');
    e.name = 'QuotaExceededError';
    expect(isQuotaError(e)).toBe(true);
    expect(isQuotaError(new Error('The quota has been exceeded.'))).toBe(true);
    expect(isQuotaError(new Error('other'))).toBe(false);
  });
});
