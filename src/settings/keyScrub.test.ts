/**
 * The page's own stores hold no form of a key the user entered: a notebook cell opened from a
 * step whose code quotes the key, and a gauntlet item whose answer echoes it.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { leaks, storedText } from '../../shared/testing/secretForms';
import { IdbGauntletStore } from '../eval/gauntlet/store';
import type { GauntletRun, ItemResult } from '../eval/gauntlet/types';
import { IdbNotebookStore } from '../notebook/store';
import { emptyNotebook, newCell } from '../notebook/model';
import { keyScrub } from './keyScrub';

const KEY = 'sk-page-stores-Hn5+/Vb2';
const FORMS = `${KEY} ${encodeURIComponent(KEY)} ${JSON.stringify({ k: KEY })} ${Buffer.from(`z${KEY}`).toString('base64')}`;

async function dump(dbName: string, store: string): Promise<string> {
  const db = await openDB(dbName);
  const text = storedText(await db.getAll(store));
  db.close();
  return text;
}

describe('key scrubbing of the page’s stores', () => {
  it('the notebook', async () => {
    const keys = [KEY];
    const name = `nb-${Math.random()}`;
    const store = new IdbNotebookStore(name, keyScrub(() => keys));
    const cell = { ...newCell('python', `print("${KEY}")`), output: { kind: 'python' as const, stdout: FORMS, stderr: '', warnings: [], elapsedMs: 1 } };
    await store.save({ ...emptyNotebook(), cells: [cell] });
    const text = await dump(name, 'notebooks');
    expect(text).toContain('[redacted]');
    expect(leaks(text, KEY)).toEqual([]);
    expect((await store.load('main'))?.cells[0]?.source).toBe('print("[redacted]")');
  });

  it('the gauntlet, with a key entered after the store was made', async () => {
    const keys: string[] = [];
    const name = `gauntlet-${Math.random()}`;
    const store = new IdbGauntletStore(name, keyScrub(() => keys));
    keys.push(KEY);
    const item = { index: 0, id: 'q1', answer: FORMS, reason: `wrong: ${KEY}` } as unknown as ItemResult;
    const run = { id: 'r', model: 'm', base_url: 'https://x/v1', started: new Date().toISOString(), status: 'done', plan: [], items: [item] } as unknown as GauntletRun;
    await store.put(run);
    const text = await dump(name, 'gauntlet_runs');
    expect(text).toContain('[redacted]');
    expect(leaks(text, KEY)).toEqual([]);
  });
});
