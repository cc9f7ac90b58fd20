import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { PrivacyLogStore } from './PrivacyLogStore';
import type { SentRequest } from './recordingFetch';

let n = 0;
const stores: PrivacyLogStore[] = [];
function fresh(opts: { maxEntries?: number; maxBytes?: number } = {}) {
  const s = new PrivacyLogStore({ dbName: `privacy-test-${Date.now()}-${n++}`, ...opts });
  stores.push(s);
  return s;
}
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

const req = (body: string, i = 0): SentRequest => ({ at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), url: 'https://llm.example/v1/chat/completions', method: 'POST', body });

describe('PrivacyLogStore', () => {
  it('lists a thread in the order sent, waiting for outcomes still to come', async () => {
    const store = fresh();
    const sink = store.sink('t1');
    const finishA = sink(req('{"a":1}', 1));
    const finishB = sink(req('{"b":2}', 2));
    sink(req('{"other":true}', 3));
    // B ends first; the log is still in the order the requests were sent.
    finishB({ status: 200, usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } });
    setTimeout(() => finishA({ status: 500, usage: null, error: 'boom' }), 30);
    const other = store.sink('t2');
    other(req('{"t2":1}'))({ status: 200, usage: null });

    const list = await store.list('t1', 1000);
    expect(list.map((e) => [e.body, e.status, e.usage?.total_tokens ?? null, e.error ?? null])).toEqual([
      ['{"a":1}', 500, null, 'boom'],
      ['{"b":2}', 200, 6, null],
      // never finished: listed after the wait, without a status
      ['{"other":true}', null, null, null],
    ]);
    expect(list.every((e) => e.thread_id === 't1' && e.method === 'POST')).toBe(true);
    expect(list[0]?.id).toBeLessThan(list[1]?.id ?? 0);
    expect((await store.list('t2')).map((e) => e.body)).toEqual(['{"t2":1}']);
  });

  it('keeps the newest entries within the entry bound', async () => {
    const store = fresh({ maxEntries: 3 });
    const sink = store.sink('t');
    for (let i = 0; i < 6; i++) sink(req(`{"i":${i}}`, i))({ status: 200, usage: null });
    expect((await store.list('t')).map((e) => e.body)).toEqual(['{"i":3}', '{"i":4}', '{"i":5}']);
  });

  it('keeps the newest entries within the byte bound, and always the newest one', async () => {
    const store = fresh({ maxBytes: 100 });
    const sink = store.sink('t');
    sink(req('x'.repeat(20)))({ status: 200, usage: null }); // 40 bytes as UTF-16
    sink(req('y'.repeat(20)))({ status: 200, usage: null });
    sink(req('z'.repeat(20)))({ status: 200, usage: null });
    expect((await store.list('t')).map((e) => e.body[0])).toEqual(['y', 'z']);
    sink(req('w'.repeat(500)))({ status: 200, usage: null });
    expect((await store.list('t')).map((e) => e.body[0])).toEqual(['w']);
  });

  it('deletes a thread with its bodies and leaves the others', async () => {
    const store = fresh();
    store.sink('gone')(req('{"secret":"row value"}'))({ status: 200, usage: null });
    store.sink('kept')(req('{"k":1}'))({ status: 200, usage: null });
    await store.settled('gone');
    await store.deleteThread('gone');
    expect(await store.list('gone')).toEqual([]);
    expect((await store.list('kept')).map((e) => e.body)).toEqual(['{"k":1}']);
    // Nothing of the deleted thread is left in either store.
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open(store.dbName);
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = <T>(name: string) =>
      new Promise<T[]>((resolve, reject) => {
        const r = db.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result as T[]);
        r.onerror = () => reject(r.error);
      });
    expect(JSON.stringify(await all('privacy_requests'))).not.toContain('gone');
    expect(JSON.stringify(await all('privacy_bodies'))).not.toContain('row value');
    db.close();
  });
});
