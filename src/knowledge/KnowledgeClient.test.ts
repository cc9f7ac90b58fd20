import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { DataDictionary } from '../../protocol/agent/knowledge';
import type { DatasetInfo } from '../../protocol/data';
import { KnowledgeStore } from '../../shared/knowledge/store';
import { autoDraftSetting } from './autoDraft.svelte';
import { AUTO_DRAFT_AT_ONCE, KnowledgeClient } from './KnowledgeClient.svelte';

const ds = (name: string): DatasetInfo => ({ name, fileName: `${name}.csv`, format: 'csv', rowCount: 1, columns: [{ name: 'a', type: 'BIGINT' }], sizeBytes: 1, loadedAt: 0, persisted: true });
const dict = (dataset: string): DataDictionary => ({ dataset, status: 'draft', source: 'model', updated_at: '', row_meaning: '', grain: '', caveats: [], joins: [], columns: [] });
const flush = () => new Promise((r) => setTimeout(r, 20));

async function client(name: string) {
  const asked: string[] = [];
  let running = 0;
  let most = 0;
  const k = new KnowledgeClient({
    store: new KnowledgeStore({ dbName: name }),
    draft: async (dataset) => {
      asked.push(dataset);
      most = Math.max(most, ++running);
      await flush();
      running--;
      return dict(dataset);
    },
  });
  await k.load();
  k.canDraft = true;
  k.watch([], true);
  return { k, asked, most: () => most };
}

// Issue 37: the editor copies the stored dictionary with structuredClone, which refuses a Svelte proxy;
// a save replaces the record whole, so another dataset's dictionary stays the same object (its
// editor is not reset) and nothing tracks the fields of a 2,000-column dictionary one by one.
describe('the stored dictionaries', () => {
  it('are plain values, replaced whole by a save', async () => {
    const { k } = await client('kc-raw');
    k.canDraft = false; // no model draft replaces the dictionaries saved here
    k.watch([ds('a'), ds('b')], true);
    await k.save(dict('a'));
    const a = k.own('a');
    expect(a && structuredClone(a)).toMatchObject({ dataset: 'a' });
    const record = k.dictionaries;
    await k.save(dict('b'));
    expect(k.dictionaries).not.toBe(record);
    expect(k.own('a')).toBe(a);
    await k.remove('b');
    expect(Object.keys(k.dictionaries)).toEqual(['a']);
  });
});

// Issue 37: 51 files added at once fired 50 draft calls without asking.
describe('drafts of datasets added together', () => {
  it('drafts a few at once, without asking', async () => {
    const { k, asked } = await client('kc-few');
    k.watch(Array.from({ length: AUTO_DRAFT_AT_ONCE }, (_, i) => ds(`t${i}`)), true);
    expect(k.pendingDrafts).toEqual([]);
    await vi.waitFor(() => expect(asked).toHaveLength(AUTO_DRAFT_AT_ONCE));
  });
  it('holds many behind one confirmation, then drafts them one call at a time', async () => {
    const { k, asked, most } = await client('kc-many');
    const many = Array.from({ length: 51 }, (_, i) => ds(`t${i}`));
    k.watch(many, true);
    await flush();
    expect(asked).toEqual([]);
    expect(k.pendingDrafts).toHaveLength(51);
    await k.confirmPendingDrafts();
    expect(asked).toHaveLength(51);
    expect(most()).toBe(1);
    expect(k.pendingDrafts).toEqual([]);
  });
  it('counts files added before the engine was ready as new, once their loads end', async () => {
    const { k, asked } = await client('kc-early');
    // (client() saw the restored list, empty.) Loads in flight: nothing yet.
    k.watch([ds('a'), ds('b')], true, false);
    await flush();
    expect(asked).toEqual([]);
    k.watch([ds('a'), ds('b')], true, true);
    await vi.waitFor(() => expect(asked).toEqual(['a', 'b']));
  });
  it('sends nothing when dismissed, or when automatic drafts are off', async () => {
    const { k, asked } = await client('kc-off');
    k.watch(Array.from({ length: 10 }, (_, i) => ds(`t${i}`)), true);
    k.dismissPendingDrafts();
    autoDraftSetting.set(false);
    try {
      k.watch([...Array.from({ length: 10 }, (_, i) => ds(`t${i}`)), ds('one')], true);
      await flush();
      expect(k.pendingDrafts).toEqual([]);
      expect(asked).toEqual([]);
    } finally {
      autoDraftSetting.set(true);
    }
  });
});

// Issue 32: a rule's scope is the table's content; the badge says when the last prompt shortened a dictionary.
describe('rule scope and the last prompt', () => {
  it('scopes a rule by content: it follows a rename and is only offered to another file under the name', async () => {
    const { k } = await client('kc-scope');
    const survey = { ...ds('survey'), sizeBytes: 4096 };
    k.canDraft = false;
    k.watch([survey], true);
    expect(await k.addRule('Region 1 is the North.', 'typed', 'survey')).toBe(true);
    const rule = k.rules[0]!;
    expect(rule.fingerprint).toBeDefined();
    k.watch([{ ...survey, name: 'survey_w3' }], true);
    expect(k.scopeOf(rule)).toEqual({ kind: 'dataset', dataset: 'survey_w3' });
    k.watch([{ ...survey, sizeBytes: 99 }], true);
    expect(k.scopeOf(rule)).toEqual({ kind: 'offered', dataset: 'survey' });
    expect(await k.applyRuleTo(rule.id, 'survey')).toBe(true);
    expect(k.scopeOf(k.rules[0]!)).toEqual({ kind: 'dataset', dataset: 'survey' });
  });

  it('says how many columns the last prompt carried in full', async () => {
    const k = new KnowledgeClient({
      store: new KnowledgeStore({ dbName: 'kc-last' }),
      draft: async (d) => dict(d),
      preview: async () => ({ text: '', tokens: 0, budget: 8000, share: 3200, last_prompt: { at: '2026-01-01T00:00:00Z', left_out: [], levels: {}, described: { sensors: { shown: 12, total: 40 }, survey: { shown: 5, total: 5 } }, essential_left_out: [] } }),
    });
    expect(k.shortenedInLastPrompt('sensors')).toBeUndefined();
    await k.refreshLastPrompt();
    expect(k.shortenedInLastPrompt('sensors')).toBe('shortened in the last prompt: 12 of 40 columns');
    expect(k.shortenedInLastPrompt('survey')).toBeUndefined();
  });
});

// Issue 32: a trusted query's tables are DuckDB's binder's, not names found in its text.
describe('marking a query as trusted', () => {
  it('stores the tables the binder found, and refuses what the agent could not run', async () => {
    const asked: string[] = [];
    const k = new KnowledgeClient({
      store: new KnowledgeStore({ dbName: 'kc-trusted' }),
      draft: async (d) => dict(d),
      newId: () => `t${asked.length}`,
      tablesOf: async (sql) => {
        asked.push(sql);
        return sql.startsWith('DELETE') ? { ok: false, message: 'refused: it deletes rows (DuckDB plans a DELETE step)' } : { ok: true, tables: ['customers'] };
      },
    });
    await k.load();
    k.watch([ds('orders'), ds('customers')], true);
    // "orders" is only a CTE's name here: the binder says it reads customers.
    expect(await k.addTrusted('  Customers by region ', 'WITH orders AS (SELECT * FROM customers) SELECT region, count(*) FROM orders GROUP BY 1')).toBeNull();
    expect(k.trusted.map((q) => [q.question, q.datasets])).toEqual([['Customers by region', ['customers']]]);
    const refused = await k.addTrusted('Clean up', 'DELETE FROM orders');
    expect(refused).toMatch(/^Not trusted: the agent could not run this query \(it deletes rows/);
    expect(k.trusted).toHaveLength(1);
    expect(await k.addTrusted('', 'SELECT 1')).toMatch(/Write the question/);
    expect(asked).toHaveLength(2);
    // Kept: a new client reads it back with its tables.
    const again = new KnowledgeClient({ store: new KnowledgeStore({ dbName: 'kc-trusted' }), draft: async (d) => dict(d) });
    await again.load();
    expect(again.trusted.map((q) => q.datasets)).toEqual([['customers']]);
  });

  it('says so when the tables cannot be found, and stores nothing', async () => {
    const k = new KnowledgeClient({ store: new KnowledgeStore({ dbName: 'kc-trusted-down' }), draft: async (d) => dict(d), tablesOf: async () => Promise.reject(new Error('The data worker stopped')) });
    await k.load();
    expect(await k.addTrusted('Total', 'SELECT 1')).toBe('The tables this query reads could not be found: The data worker stopped');
    expect(k.trusted).toEqual([]);
  });
});

describe('trusted queries marked before the binder', () => {
  it('get the tables DuckDB binds once those are loaded, and keep the guess until then', async () => {
    const store = new KnowledgeStore({ dbName: 'kc-trusted-old' });
    // Guessed from names: "orders" appears only as a CTE's name.
    await store.putTrusted({ id: 'old', question: 'Customers by region', sql: 'WITH orders AS (SELECT * FROM customers) SELECT * FROM orders', datasets: ['orders', 'customers'], created_at: '2026-01-01T00:00:00Z' });
    let loaded = ['orders'];
    const k = new KnowledgeClient({
      store,
      draft: async (d) => dict(d),
      tablesOf: async () => (loaded.includes('customers') ? { ok: true, tables: ['customers'] } : { ok: false, message: 'refused: it reads customers, which is not a loaded dataset' }),
    });
    await k.load();
    k.watch(loaded.map(ds), true);
    await flush();
    expect(k.trusted[0]?.datasets).toEqual(['orders', 'customers']);
    loaded = ['orders', 'customers'];
    k.watch(loaded.map(ds), true);
    await vi.waitFor(() => expect(k.trusted[0]).toMatchObject({ datasets: ['customers'], bound: true }));
    expect((await store.trusted())[0]).toMatchObject({ datasets: ['customers'], bound: true });
  });
});

// Issue 37: a draft in flight can be cancelled; the other datasets' drafts and dictionaries are untouched.
describe('cancelling a dictionary draft', () => {
  it('aborts its call, saves nothing (even if the answer still arrives), says so, and leaves the others', async () => {
    const cancelled: string[] = [];
    const answer = new Map<string, () => void>();
    const k = new KnowledgeClient({
      store: new KnowledgeStore({ dbName: 'kc-cancel' }),
      // Each draft waits to be let go; a cancelled one still answers, as a late reply would.
      draft: (dataset) => new Promise((resolve) => answer.set(dataset, () => resolve(dict(dataset)))),
      cancelDraft: async (dataset) => {
        cancelled.push(dataset);
      },
    });
    await k.load();
    // Present from the start (restored): not drafted on their own.
    k.watch([ds('orders'), ds('people')], true);
    k.canDraft = true;
    const orders = k.requestDraft('orders');
    const people = k.requestDraft('people');
    await flush();
    expect(k.drafting).toEqual({ orders: true, people: true });
    await k.cancelDraft('orders');
    expect(cancelled).toEqual(['orders']);
    answer.get('orders')!();
    answer.get('people')!();
    await Promise.all([orders, people]);
    expect(k.own('orders')).toBeUndefined();
    expect(k.draftNotes.orders).toBe('Draft cancelled: the dictionary is as it was.');
    expect(k.errors.orders).toBeUndefined();
    expect(k.own('people')?.status).toBe('draft');
    expect(k.draftNotes.people).toBeUndefined();
    // Nothing to cancel once it ended; a new draft clears the note and works.
    await k.cancelDraft('orders');
    expect(cancelled).toEqual(['orders']);
    const again = k.requestDraft('orders');
    await flush();
    expect(k.draftNotes.orders).toBeUndefined();
    answer.get('orders')!();
    await again;
    expect(k.own('orders')?.status).toBe('draft');
  });
});
