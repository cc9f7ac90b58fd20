import { describe, expect, it } from 'vitest';
import { PlaceHistory } from './PlaceHistory.svelte';
import type { Place } from './place';

/** Just enough of a window: a hash, a history that records entries, and its two events. */
function fakeWindow(hash = '') {
  const entries = [hash];
  let index = 0;
  const listeners = new Map<string, Set<() => void>>();
  const fire = (type: string) => listeners.get(type)?.forEach((l) => l());
  const win = {
    location: {
      get hash() {
        return entries[index] ?? '';
      },
    },
    history: {
      state: null,
      pushState: (_s: unknown, _t: string, url: string) => {
        entries.splice(index + 1, entries.length, url);
        index += 1;
      },
      replaceState: (_s: unknown, _t: string, url: string) => {
        entries[index] = url;
      },
    },
    addEventListener: (type: string, l: () => void) => listeners.set(type, (listeners.get(type) ?? new Set()).add(l)),
    removeEventListener: (type: string, l: () => void) => listeners.get(type)?.delete(l),
  };
  const back = () => {
    index -= 1;
    fire('popstate');
    fire('hashchange');
  };
  return { win: win as unknown as Window, entries, back };
}

describe('PlaceHistory', () => {
  it('starts where the hash points', () => {
    const { win } = fakeWindow('#view=python&c=t1');
    expect(new PlaceHistory(win).place).toEqual({ view: 'python', conversation: 't1', dataset: null });
  });

  it('pushes steps, replaces corrections, and hears back once per move', () => {
    const { win, entries, back } = fakeWindow('');
    const places = new PlaceHistory(win);
    const heard: Place[] = [];
    places.onNavigate((p) => heard.push(p));
    places.go({ conversation: 't1' });
    places.go({ view: 'sql' });
    places.go({ dataset: 'penguins' }, 'replace');
    expect(entries).toEqual(['', '#view=ask&c=t1', '#view=sql&c=t1&d=penguins']);
    back();
    expect(places.place).toEqual({ view: 'ask', conversation: 't1', dataset: null });
    // popstate and hashchange both fire for one step back; listeners hear it once.
    expect(heard).toEqual([{ view: 'ask', conversation: 't1', dataset: null }]);
    places.dispose();
  });

  it('does not add an entry for a move to where it already is', () => {
    const { win, entries } = fakeWindow('#view=data');
    const places = new PlaceHistory(win);
    places.go({ view: 'data' });
    expect(entries).toEqual(['#view=data']);
  });
});
