import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { DBSchema } from 'idb';
import { IdbStore, deleteDatabase, openExisting } from './idbStore';

interface Db extends DBSchema {
  items: { key: string; value: { id: string } };
}

let n = 0;
const store = (name = `idb-store-${n++}`) =>
  new IdbStore<Db>({ name, version: 1, upgrade: (db) => void db.createObjectStore('items', { keyPath: 'id' }) });

describe('IdbStore', () => {
  it('shares one connection, reopens after close and gives way to a deletion elsewhere', async () => {
    const a = store();
    const first = await a.open();
    expect(await a.open()).toBe(first);
    await first.put('items', { id: 'x' });
    await a.close();
    expect(await (await a.open()).get('items', 'x')).toEqual({ id: 'x' });
    // Another context deletes it: the open connection closes instead of blocking.
    await deleteDatabase(a.name);
    expect(await openExisting(a.name)).toBeUndefined();
    expect(await (await a.open()).get('items', 'x')).toBeUndefined();
    await a.destroy();
  });

  it('hands out the connection only after `ready`, and retries an open that failed', async () => {
    const order: string[] = [];
    let fail = true;
    const s = new IdbStore<Db>({
      name: `idb-ready-${n++}`,
      version: 1,
      upgrade: (db) => void db.createObjectStore('items', { keyPath: 'id' }),
      ready: async () => {
        if (fail) throw new Error('not yet');
        order.push('ready');
      },
    });
    await expect(s.open()).rejects.toThrow('not yet');
    fail = false;
    await s.open().then(() => order.push('open'));
    expect(order).toEqual(['ready', 'open']);
    await s.destroy();
  });

  it('openExisting never creates a database', async () => {
    const name = `idb-none-${n++}`;
    expect(await openExisting(name)).toBeUndefined();
    expect(await openExisting(name)).toBeUndefined();
    const s = store(name);
    await s.open();
    await s.close();
    const found = await openExisting(name);
    expect(found?.objectStoreNames.contains('items')).toBe(true);
    found?.close();
    await s.destroy();
  });
});
