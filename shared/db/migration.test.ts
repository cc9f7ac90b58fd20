import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { OLD_WORKSPACE_DATABASES, WORKSPACE_DB, WORKSPACE_STORES, workspaceView } from './workspaceDb';
import { OLD_SETTINGS_DATABASES, SETTINGS_DB, settingsView } from './settingsDb';
import { copyOldDatabases, type OldDatabase } from './idbMigrate';

/**
 * A profile of the previous build: every database it kept, in its own layout (names, versions,
 * key paths, indexes as the old store modules created them), with rows of every store.
 */
const OLD_LAYOUTS: { name: string; version: number; stores: Record<string, string | null> }[] = [
  { name: 'dataseer-datasets', version: 1, stores: { manifest: 'name', sources: null } },
  { name: 'dataseer-notebooks', version: 1, stores: { notebooks: 'id' } },
  { name: 'dataseer-knowledge', version: 2, stores: { dictionaries: 'dataset', rules: 'id', trusted: 'id', metrics: 'id' } },
  { name: 'dataseer-user-examples', version: 1, stores: { examples: 'id' } },
  { name: 'dataseer-bench', version: 1, stores: { runs: 'id', suites: 'id', scores: 'id' } },
  { name: 'dataseer-gauntlet', version: 1, stores: { runs: 'id' } },
  { name: 'dataseer-endpoint-profiles', version: 1, stores: { profiles: 'key' } },
];

/** More rows than one copy batch (200) in some stores, so batching is exercised. */
function rowsFor(db: string, store: string, keyPath: string | null): { key: IDBValidKey; value: unknown }[] {
  const count = store === 'manifest' || store === 'examples' ? 450 : 3;
  return Array.from({ length: count }, (_, i) => {
    const key = `${db}/${store}/${String(i).padStart(4, '0')}`;
    if (keyPath === null) return { key, value: new Blob([`bytes of ${key}`]) };
    const value: Record<string, unknown> = { [keyPath]: key, n: i, nested: { list: [i, `${i}`], when: new Date(Date.UTC(2026, 0, 1 + (i % 28))) } };
    if (store === 'rules') Object.assign(value, { text: `rule ${i}`, created_at: `2026-01-0${(i % 9) + 1}T00:00:00.000Z` });
    return { key, value };
  });
}

async function fillOldProfile(): Promise<Map<string, { key: IDBValidKey; value: unknown }[]>> {
  const written = new Map<string, { key: IDBValidKey; value: unknown }[]>();
  for (const layout of OLD_LAYOUTS) {
    const db = await openDB(layout.name, layout.version, {
      upgrade(db) {
        for (const [store, keyPath] of Object.entries(layout.stores)) db.createObjectStore(store, keyPath === null ? undefined : { keyPath });
      },
    });
    for (const [store, keyPath] of Object.entries(layout.stores)) {
      const rows = rowsFor(layout.name, store, keyPath);
      const tx = db.transaction(store, 'readwrite');
      await Promise.all([...rows.map((r) => (keyPath === null ? tx.store.put(r.value, r.key) : tx.store.put(r.value))), tx.done]);
      written.set(`${layout.name}:${store}`, rows);
    }
    db.close();
  }
  return written;
}

async function readAll(db: IDBPDatabase, store: string): Promise<{ key: IDBValidKey; value: unknown }[]> {
  const tx = db.transaction(store);
  const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll(), tx.done]);
  return keys.map((key, i) => ({ key, value: values[i] }));
}

/** Blobs compared by their text. */
async function comparable(rows: { key: IDBValidKey; value: unknown }[]): Promise<unknown[]> {
  return Promise.all(rows.map(async (r) => ({ key: r.key, value: r.value instanceof Blob ? { blob: await r.value.text() } : r.value })));
}

async function databaseNames(): Promise<string[]> {
  return (await indexedDB.databases()).map((d) => d.name ?? '').sort();
}

async function expectEverythingCopied(written: Map<string, { key: IDBValidKey; value: unknown }[]>): Promise<void> {
  const workspace = (await workspaceView(WORKSPACE_DB).open()) as unknown as IDBPDatabase;
  const settings = (await settingsView(SETTINGS_DB).open()) as unknown as IDBPDatabase;
  for (const [old, target] of [
    [OLD_WORKSPACE_DATABASES, workspace],
    [OLD_SETTINGS_DATABASES, settings],
  ] as const) {
    for (const { name, stores } of old) {
      for (const [from, to] of stores) {
        const before = written.get(`${name}:${from}`);
        expect(before, `${name}:${from} was filled`).toBeDefined();
        const after = await readAll(target, to);
        expect(await comparable(after), `${name}:${from} → ${to}`).toEqual(await comparable([...(before ?? [])].sort((a, b) => indexedDB.cmp(a.key, b.key))));
      }
    }
  }
}

describe('one workspace database and one settings database, from the previous build\'s seven', () => {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
  });

  it('every old layout is mapped: each old store goes to a store the new schema declares', () => {
    for (const layout of OLD_LAYOUTS) {
      const mapped = [...OLD_WORKSPACE_DATABASES, ...OLD_SETTINGS_DATABASES].find((d) => d.name === layout.name);
      expect(mapped?.stores.map(([from]) => from).sort(), layout.name).toEqual(Object.keys(layout.stores).sort());
    }
    for (const { stores } of OLD_WORKSPACE_DATABASES) for (const [, to] of stores) expect(Object.keys(WORKSPACE_STORES)).toContain(to);
  });

  it('a view may name only stores the schema declares (checked by the compiler)', () => {
    interface Notes extends DBSchema {
      notebooks: { key: string; value: { id: string } };
    }
    interface Stray extends DBSchema {
      not_a_store: { key: string; value: number };
    }
    expect(workspaceView<Notes>('view-check').name).toBe('view-check');
    // @ts-expect-error `not_a_store` is not in WORKSPACE_STORES
    expect(workspaceView<Stray>('view-check').name).toBe('view-check');
  });

  it('copies every row of every old database with its key, then deletes the old ones', async () => {
    const written = await fillOldProfile();
    expect(await databaseNames()).toEqual(OLD_LAYOUTS.map((l) => l.name).sort());
    await expectEverythingCopied(written);
    expect(await databaseNames()).toEqual([SETTINGS_DB, WORKSPACE_DB].sort());
  });

  it('a fresh profile gets the two databases and nothing else', async () => {
    await workspaceView().open();
    await settingsView().open();
    expect(await databaseNames()).toEqual([SETTINGS_DB, WORKSPACE_DB].sort());
  });

  it('an interrupted copy runs again on the next open: nothing lost, nothing doubled, old databases kept until done', async () => {
    const written = await fillOldProfile();
    const target = await openDB('dataseer-workspace-interrupted', 1, {
      upgrade(db) {
        for (const [name, keyPath] of Object.entries(WORKSPACE_STORES)) db.createObjectStore(name, keyPath === null ? undefined : { keyPath });
      },
    });
    // The first attempt stops after two databases (a store the target lacks stands for a closed tab).
    const broken: OldDatabase[] = [...OLD_WORKSPACE_DATABASES.slice(0, 2), { name: 'dataseer-knowledge', stores: [['rules', 'no_such_store']] }];
    await expect(copyOldDatabases(target, broken, 'mark')).rejects.toThrow();
    expect(await target.get('about', 'mark')).toBeUndefined();
    expect(await databaseNames()).toEqual(expect.arrayContaining(OLD_WORKSPACE_DATABASES.map((d) => d.name)));
    expect(await target.count('manifest')).toBe(450);
    // The next open copies everything.
    await copyOldDatabases(target, OLD_WORKSPACE_DATABASES, 'mark');
    for (const { name, stores } of OLD_WORKSPACE_DATABASES) {
      for (const [from, to] of stores) expect(await target.count(to), `${name}:${from}`).toBe(written.get(`${name}:${from}`)?.length);
    }
    for (const { name } of OLD_WORKSPACE_DATABASES) expect(await databaseNames()).not.toContain(name);
    target.close();
  });

  it('a copy marked done whose deletions did not happen deletes them on the next open, and copies nothing again', async () => {
    await fillOldProfile();
    const target = await openDB('dataseer-workspace-marked', 1, {
      upgrade(db) {
        for (const [name, keyPath] of Object.entries(WORKSPACE_STORES)) db.createObjectStore(name, keyPath === null ? undefined : { keyPath });
      },
    });
    await target.put('about', { key: 'mark', value: { at: 'then', from: ['dataseer-notebooks'] } });
    await copyOldDatabases(target, OLD_WORKSPACE_DATABASES, 'mark');
    expect(await target.count('notebooks')).toBe(0);
    expect(await databaseNames()).not.toContain('dataseer-notebooks');
    expect(await databaseNames()).toContain('dataseer-knowledge');
    target.close();
  });

  it('a named instance (tests, an isolated workspace) takes in nothing and leaves the old databases alone', async () => {
    await fillOldProfile();
    const other = (await workspaceView('dataseer-workspace-other').open()) as unknown as IDBPDatabase;
    expect(await other.count('manifest')).toBe(0);
    expect(await databaseNames()).toContain('dataseer-datasets');
  });
});
