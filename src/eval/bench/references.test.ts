import { describe, expect, it } from 'vitest';
import { readReferences, saveReferences, type Reference } from './references';

const memory = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('reference scores', () => {
  it('keep what the user typed, across a reload', () => {
    const store = memory();
    const refs: Reference[] = [{ model: 'GPT-4 (paper)', suite: 'da-dev', accuracy: 0.783, source: 'arXiv 2401.05507' }];
    saveReferences(refs, store);
    expect(readReferences(store)).toEqual(refs);
  });
  it('drop entries that are not references and survive text that is not JSON', () => {
    const store = memory();
    store.setItem('dataseer.bench.references', JSON.stringify([{ model: 'm', suite: '', source: '', accuracy: 1.5 }, { model: 'ok', suite: '', source: '', accuracy: 0.5 }, 'x']));
    expect(readReferences(store).map((r) => r.model)).toEqual(['ok']);
    store.setItem('dataseer.bench.references', '{oops');
    expect(readReferences(store)).toEqual([]);
  });
});
