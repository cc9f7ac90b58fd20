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
