import { describe, expect, it } from 'vitest';
import { opfsSnapshots, snapshotKey, startInterpreter, type SnapshotOption, type SnapshotStore } from './snapshot';

class MemoryStore implements SnapshotStore {
  readonly files = new Map<string, Uint8Array>();
  readonly log: string[] = [];
  failWrites = false;
  async read(key: string) {
    this.log.push(`read ${key}`);
    return this.files.get(key);
  }
  async write(key: string, bytes: Uint8Array) {
    this.log.push(`write ${key}`);
    if (this.failWrites) throw new Error('quota');
    this.files.clear();
    this.files.set(key, bytes);
  }
  async drop(key: string) {
    this.log.push(`drop ${key}`);
    this.files.delete(key);
  }
}

/** A stand-in for loadPyodide: refuses snapshots it did not make, like a build-id mismatch. */
function fakeLoader(opts: { snapshots?: boolean } = {}) {
  const calls: string[] = [];
  const ran: string[] = [];
  const load = async (option: SnapshotOption) => {
    if ('_loadSnapshot' in option) {
      calls.push('restore');
      if (new TextDecoder().decode(option._loadSnapshot) !== 'heap') throw new Error('Snapshot build id mismatch');
    } else calls.push('fresh');
    const interpreter = { runPython: (code: string) => void ran.push(code) };
    return opts.snapshots === false ? interpreter : { ...interpreter, makeMemorySnapshot: () => new TextEncoder().encode('heap') };
  };
  return { load, calls, ran };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('startInterpreter', () => {
  it('starts fully the first time, imports the usual modules and saves a snapshot; the next start restores it', async () => {
    const store = new MemoryStore();
    const first = fakeLoader();
    const a = await startInterpreter(first.load, store, 'k1');
    await settle();
    expect(a.startedFrom).toBe('fresh');
    expect(first.ran[0]).toContain('import statistics');
    expect(new TextDecoder().decode(store.files.get('k1'))).toBe('heap');

    const second = fakeLoader();
    const b = await startInterpreter(second.load, store, 'k1');
    expect(b.startedFrom).toBe('snapshot');
    expect(second.calls).toEqual(['restore']);
    // A restored interpreter already has those imports: nothing runs before the worker's own setup.
    expect(second.ran).toEqual([]);
  });

  it('drops a snapshot the interpreter refuses, starts fully and saves a good one', async () => {
    const store = new MemoryStore();
    store.files.set('k1', new TextEncoder().encode('another build'));
    const loader = fakeLoader();
    const r = await startInterpreter(loader.load, store, 'k1');
    await settle();
    expect(r.startedFrom).toBe('fresh');
    expect(loader.calls).toEqual(['restore', 'fresh']);
    expect(store.log).toContain('drop k1');
    expect(new TextDecoder().decode(store.files.get('k1'))).toBe('heap');
  });

  it('still starts when the snapshot cannot be written, and leaves no file behind', async () => {
    const store = new MemoryStore();
    store.failWrites = true;
    const r = await startInterpreter(fakeLoader().load, store, 'k1');
    await settle();
    expect(r.startedFrom).toBe('fresh');
    expect(store.log).toEqual(['read k1', 'write k1', 'drop k1']);
  });

  it('takes the snapshot at once but writes it when told', async () => {
    const store = new MemoryStore();
    let write: (() => void) | undefined;
    await startInterpreter(fakeLoader().load, store, 'k1', (w) => (write = w));
    await settle();
    expect(store.files.size).toBe(0);
    write?.();
    await settle();
    expect(new TextDecoder().decode(store.files.get('k1'))).toBe('heap');
  });

  it('starts normally with a Pyodide that cannot make snapshots', async () => {
    const store = new MemoryStore();
    const r = await startInterpreter(fakeLoader({ snapshots: false }).load, store, 'k1');
    await settle();
    expect(r.startedFrom).toBe('fresh');
    expect(store.files.size).toBe(0);
  });
});

describe('snapshotKey', () => {
  const asm = 'https://x.test/app/assets/pyodide.asm-A1.mjs';
  const wasm = 'https://x.test/app/assets/pyodide.asm-B2.wasm';
  const urls = [asm, wasm];
  it('names one file per build of the core files, wherever the app is served from', () => {
    const key = snapshotKey('314.0.7', urls);
    expect(key).toMatch(/^pyodide-314\.0\.7-[0-9a-f]{16}\.snapshot$/);
    expect(snapshotKey('314.0.7', urls)).toBe(key);
    expect(snapshotKey('314.0.7', urls.map((u) => u.replace('x.test', 'y.test')))).toBe(key);
    expect(snapshotKey('314.0.7', [asm, wasm.replace('B2', 'C3')])).not.toBe(key);
    expect(snapshotKey('314.0.8', urls)).not.toBe(key);
  });
});

describe('opfsSnapshots', () => {
  it('keeps nothing, and fails nothing, where there is no private file system', async () => {
    const store = opfsSnapshots(undefined);
    await store.write('k', new Uint8Array([1]));
    expect(await store.read('k')).toBeUndefined();
    await store.drop('k');
  });
});
