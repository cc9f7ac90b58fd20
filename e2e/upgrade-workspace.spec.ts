/**
 * A profile written by the previous build (a database per concern: notebooks, knowledge, user
 * examples, benchmark and gauntlet runs, datasets, endpoint profiles, beside the conversation
 * database) keeps everything after the upgrade to three databases (issue 36): conversations,
 * workspace, settings. The old profile is made from real use: the app answers a question, keeps a
 * workspace rule and a notebook cell; their rows are read out, and a fresh browser profile gets
 * exactly those rows in the old databases' layout before the app first starts there.
 */
import type { Page } from '@playwright/test';
import { DataApp, expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, expectIdle, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

type Dump = Record<string, Record<string, unknown[]>>;

/** Every row of the named databases' stores, with byte arrays made JSON-safe. */
function dump(page: Page, names: Record<string, string[]>): Promise<Dump> {
  return page.evaluate(async (names) => {
    const out: Record<string, Record<string, unknown[]>> = {};
    for (const [name, stores] of Object.entries(names)) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      out[name] = {};
      for (const store of stores) {
        out[name][store] = await new Promise<unknown[]>((resolve, reject) => {
          const r = db.transaction(store).objectStore(store).getAll();
          r.onsuccess = () => resolve(r.result as unknown[]);
          r.onerror = () => reject(r.error);
        });
      }
      db.close();
    }
    return JSON.parse(JSON.stringify(out, (_k, v: unknown) => (v instanceof Uint8Array ? { __bytes: Array.from(v) } : v))) as Dump;
  }, names);
}

interface OldLayout {
  name: string;
  version: number;
  /** Store → [key path, index names on `thread_id`?] */
  stores: Record<string, { keyPath: string | string[]; autoIncrement?: boolean; threadIndex?: boolean }>;
  /** Old store ← rows of this [database, store] of the dump. */
  rows: Record<string, [string, string]>;
}

const CONVERSATION_STORES = ['checkpoints', 'blobs', 'channel_values', 'writes', 'threads', 'texts', 'tool_outputs', 'privacy_requests', 'privacy_bodies'];

/** The previous build's databases, as its store modules created them. */
const OLD: OldLayout[] = [
  {
    // Unchanged by this upgrade: written as the previous build had it.
    name: 'dataseer-conversations',
    version: 1,
    stores: {
      checkpoints: { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id'] },
      blobs: { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id'] },
      channel_values: { keyPath: ['thread_id', 'checkpoint_ns', 'channel', 'version'] },
      writes: { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id', 'task_id', 'idx'] },
      threads: { keyPath: 'thread_id' },
      texts: { keyPath: 'thread_id' },
      tool_outputs: { keyPath: 'key', threadIndex: true },
      privacy_requests: { keyPath: 'id', autoIncrement: true, threadIndex: true },
      privacy_bodies: { keyPath: 'id' },
      about: { keyPath: 'key' },
    },
    rows: Object.fromEntries(CONVERSATION_STORES.map((s) => [s, ['dataseer-conversations', s]])),
  },
  {
    name: 'dataseer-knowledge',
    version: 2,
    stores: { dictionaries: { keyPath: 'dataset' }, rules: { keyPath: 'id' }, trusted: { keyPath: 'id' }, metrics: { keyPath: 'id' } },
    rows: { dictionaries: ['dataseer-workspace', 'dictionaries'], rules: ['dataseer-workspace', 'rules'], trusted: ['dataseer-workspace', 'trusted'], metrics: ['dataseer-workspace', 'metrics'] },
  },
  { name: 'dataseer-notebooks', version: 1, stores: { notebooks: { keyPath: 'id' } }, rows: { notebooks: ['dataseer-workspace', 'notebooks'] } },
  { name: 'dataseer-user-examples', version: 1, stores: { examples: { keyPath: 'id' } }, rows: { examples: ['dataseer-workspace', 'examples'] } },
  { name: 'dataseer-gauntlet', version: 1, stores: { runs: { keyPath: 'id' } }, rows: { runs: ['dataseer-workspace', 'gauntlet_runs'] } },
  { name: 'dataseer-bench', version: 1, stores: { runs: { keyPath: 'id' }, suites: { keyPath: 'id' }, scores: { keyPath: 'id' } }, rows: { runs: ['dataseer-workspace', 'bench_runs'], suites: ['dataseer-workspace', 'bench_suites'], scores: ['dataseer-workspace', 'bench_scores'] } },
  { name: 'dataseer-endpoint-profiles', version: 1, stores: { profiles: { keyPath: 'key' } }, rows: { profiles: ['dataseer-settings', 'endpoint_profiles'] } },
];

function writeOldProfile(page: Page, data: Dump): Promise<void> {
  return page.evaluate(
    async ({ data, layouts }) => {
      const revive = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(revive);
        if (v && typeof v === 'object') {
          const o = v as Record<string, unknown>;
          if (Array.isArray(o.__bytes)) return new Uint8Array(o.__bytes as number[]);
          return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, revive(x)]));
        }
        return v;
      };
      for (const layout of layouts) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(layout.name, layout.version);
          r.onupgradeneeded = () => {
            for (const [store, s] of Object.entries(layout.stores)) {
              const created = r.result.createObjectStore(store, { keyPath: s.keyPath, autoIncrement: s.autoIncrement ?? false });
              if (s.threadIndex) created.createIndex('thread_id', 'thread_id');
            }
          };
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        const tx = db.transaction(Object.keys(layout.stores), 'readwrite');
        for (const [store, [fromDb, fromStore]] of Object.entries(layout.rows)) for (const row of data[fromDb]?.[fromStore] ?? []) tx.objectStore(store).put(revive(row));
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      }
    },
    { data, layouts: OLD },
  );
}

const WORKSPACE_STORES = ['dictionaries', 'rules', 'trusted', 'metrics', 'notebooks', 'examples', 'gauntlet_runs', 'bench_runs', 'bench_suites', 'bench_scores'];

test("a profile in the previous build's separate databases keeps its conversations, knowledge and notebook in three", async ({ app, page, browser }, testInfo) => {
  test.setTimeout(240_000);
  // A conversation, a rule and a notebook cell, as the app writes them.
  await configureEndpoint(page, mock, { key: 'sk-e2e-upgrade-workspace' });
  await mock.script([{ type: 'text', content: 'WORKSPACE-UPGRADE-ANSWER: kept.' }]);
  const c = chat(page);
  await ask(page, 'Will this survive the upgrade?');
  await expect(c.answers.filter({ hasText: 'WORKSPACE-UPGRADE-ANSWER' })).toBeVisible({ timeout: 60_000 });
  await expectIdle(page);

  await app.loadSample('penguins');
  await app.expectDataset('penguins');
  await app.selectDataset('penguins');
  await app.openView('Data');
  const rules = page.getByRole('region', { name: 'Workspace rules' });
  await rules.getByRole('textbox', { name: 'New rule' }).fill('Masses are in grams');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules.getByRole('list', { name: 'Workspace rules' })).toContainText('Masses are in grams');

  await app.openView('Notebook');
  const notebook = page.getByRole('region', { name: 'Notebook', exact: true });
  await notebook.getByRole('button', { name: 'Add Markdown cell', exact: true }).click();
  await notebook.getByRole('textbox', { name: 'Markdown cell 1', exact: true }).fill('UPGRADE-NOTE kept across databases');

  const names = { 'dataseer-conversations': CONVERSATION_STORES, 'dataseer-workspace': WORKSPACE_STORES, 'dataseer-settings': ['endpoint_profiles'] };
  // The notebook is written a moment after the edit.
  await expect.poll(async () => JSON.stringify((await dump(page, names))['dataseer-workspace']?.notebooks ?? []), { timeout: 10_000 }).toContain('UPGRADE-NOTE');
  const rows = await dump(page, names);
  expect(rows['dataseer-conversations']?.threads?.length).toBeGreaterThan(0);
  expect(rows['dataseer-workspace']?.rules?.length).toBe(1);
  expect(app.pageErrors).toEqual([]);

  // A fresh browser profile holding those rows in the old layout, written before the app's first start there.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const old = await context.newPage();
  await old.route('**/old-profile', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>old profile</title>' }));
  await old.goto('./old-profile');
  await writeOldProfile(old, rows);
  const upgraded = new DataApp(old);
  await upgraded.open();

  // The conversation.
  const u = chat(old);
  await u.threads.getByRole('button', { name: 'Will this survive the upgrade?', exact: true }).click({ timeout: 60_000 });
  await expect(u.answers.filter({ hasText: 'WORKSPACE-UPGRADE-ANSWER' })).toBeVisible();
  // The notebook.
  await upgraded.openView('Notebook');
  await expect(old.getByRole('region', { name: 'Notebook', exact: true }).getByRole('textbox', { name: 'Markdown cell 1', exact: true })).toHaveText('UPGRADE-NOTE kept across databases', { timeout: 30_000 });
  // Knowledge: rules are the workspace's, shown beside any dataset.
  await upgraded.loadSample('penguins');
  await upgraded.expectDataset('penguins');
  await upgraded.selectDataset('penguins');
  await upgraded.openView('Data');
  await expect(old.getByRole('list', { name: 'Workspace rules' })).toContainText('Masses are in grams');

  // Every row came across.
  const kept = { 'dataseer-conversations': CONVERSATION_STORES, 'dataseer-workspace': WORKSPACE_STORES };
  const after = await dump(old, kept);
  for (const [db, stores] of Object.entries(kept)) {
    for (const store of stores) if (store !== 'notebooks') expect(after[db]?.[store], `${db}.${store}`).toEqual(rows[db]?.[store]);
  }
  // The endpoint profiles are the agent's to open, on its first run: then the last old database goes too.
  await configureEndpoint(old, mock, { key: 'sk-e2e-upgrade-workspace' });
  await mock.script([{ type: 'text', content: 'AFTER-UPGRADE: still answering.' }]);
  await old.getByRole('button', { name: 'New conversation', exact: true }).click();
  await ask(old, 'And after?');
  await expect(u.answers.filter({ hasText: 'AFTER-UPGRADE' })).toBeVisible({ timeout: 60_000 });
  await expectIdle(old);
  expect((await dump(old, { 'dataseer-settings': ['endpoint_profiles'] }))['dataseer-settings']?.endpoint_profiles?.length).toBeGreaterThanOrEqual(rows['dataseer-settings']?.endpoint_profiles?.length ?? 0);
  const databases = await old.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? '').sort());
  expect(databases).toEqual(['dataseer-conversations', 'dataseer-settings', 'dataseer-workspace']);
  expect(upgraded.pageErrors).toEqual([]);
  await context.close();
});
