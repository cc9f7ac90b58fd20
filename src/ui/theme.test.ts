import { describe, expect, it } from 'vitest';
import { readTheme, saveTheme } from './theme';

function memory(): Storage {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) } as Storage;
}

describe('the theme', () => {
  it('is the system one until the user picks another, and is kept', () => {
    const s = memory();
    expect(readTheme(s)).toBe('system');
    saveTheme('dark', s);
    expect(readTheme(s)).toBe('dark');
  });

  it('reads an unknown stored value as the system one', () => {
    const s = memory();
    s.setItem('dataseer:theme', 'sepia');
    expect(readTheme(s)).toBe('system');
  });
});
