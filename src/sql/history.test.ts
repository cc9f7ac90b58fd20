import { describe, expect, it } from 'vitest';
import { addToHistory, readHistory, type HistoryStorage } from './history';

function memoryStorage(): HistoryStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}

describe('query history', () => {
  it('puts the latest query first and removes its earlier copy', () => {
    const s = memoryStorage();
    let h = addToHistory([], 'select 1', s);
    h = addToHistory(h, 'select 2', s);
    h = addToHistory(h, '  select 1  ', s);
    expect(h).toEqual(['select 1', 'select 2']);
    expect(readHistory(s)).toEqual(['select 1', 'select 2']);
  });

  it('ignores blank queries', () => {
    expect(addToHistory(['a'], '   ', undefined)).toEqual(['a']);
  });

  it('caps the number kept', () => {
    let h: string[] = [];
    for (let i = 0; i < 10; i++) h = addToHistory(h, `q${i}`, undefined, 3);
    expect(h).toEqual(['q9', 'q8', 'q7']);
  });

  it('survives corrupt storage', () => {
    const s = memoryStorage();
    s.data.set('dataseer:sql-history', '{not json');
    expect(readHistory(s)).toEqual([]);
    s.data.set('dataseer:sql-history', JSON.stringify(['ok', 3, null]));
    expect(readHistory(s)).toEqual(['ok']);
  });

  it('keeps working when storage throws', () => {
    const s: HistoryStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(addToHistory([], 'select 1', s)).toEqual(['select 1']);
  });
});
