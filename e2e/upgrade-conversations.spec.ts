/**
 * A profile written by the previous build (four databases: checkpoints, thread meta, tool
 * outputs, privacy log) keeps its conversations after the upgrade to the one conversation
 * database. The old profile is made from a real conversation: the app answers a question (with
 * a tool call, a rating, a name and privacy log entries), its rows are read out, and a fresh
 * browser profile gets exactly those rows in the old databases' layout before the app first
 * starts there.
 */
import type { Page } from '@playwright/test';
import { DataApp, expect, test } from './support/fixtures';
import { ask, chat, configureEndpoint, expectIdle, openSteps, useMockLlm } from './support/mockLlm';

const mock = useMockLlm();

type Rows = Record<string, unknown[]>;

/** Every row of the conversation database, with byte arrays made JSON-safe. */
function dumpConversations(page: Page): Promise<Rows> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('dataseer-conversations');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const out: Record<string, unknown[]> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      if (name === 'about') continue;
      out[name] = await new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result as unknown[]);
        r.onerror = () => reject(r.error);
      });
    }
    db.close();
    return JSON.parse(JSON.stringify(out, (_k, v: unknown) => (v instanceof Uint8Array ? { __bytes: Array.from(v) } : v))) as Record<string, unknown[]>;
  });
}

/** Writes `rows` into the four databases the previous build used, in its layout. */
function writeOldProfile(page: Page, rows: Rows): Promise<void> {
  return page.evaluate(async (rows) => {
    const revive = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(revive);
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if (Array.isArray(o.__bytes)) return new Uint8Array(o.__bytes as number[]);
        return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, revive(x)]));
      }
      return v;
    };
    const layouts: [string, (db: IDBDatabase) => void, [string, string][]][] = [
      [
        'dataseer-checkpoints',
        (db) => {
          db.createObjectStore('checkpoints', { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id'] });
          db.createObjectStore('blobs', { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id'] });
          db.createObjectStore('channel_values', { keyPath: ['thread_id', 'checkpoint_ns', 'channel', 'version'] });
          db.createObjectStore('writes', { keyPath: ['thread_id', 'checkpoint_ns', 'checkpoint_id', 'task_id', 'idx'] });
        },
        [['checkpoints', 'checkpoints'], ['blobs', 'blobs'], ['channel_values', 'channel_values'], ['writes', 'writes']],
      ],
      [
        'dataseer-thread-meta',
        (db) => {
          db.createObjectStore('threads', { keyPath: 'thread_id' });
          db.createObjectStore('texts', { keyPath: 'thread_id' });
        },
        [['threads', 'threads'], ['texts', 'texts']],
      ],
      ['dataseer-tool-outputs', (db) => void db.createObjectStore('outputs', { keyPath: 'key' }).createIndex('thread_id', 'thread_id'), [['tool_outputs', 'outputs']]],
      [
        'dataseer-privacy-log',
        (db) => {
          db.createObjectStore('requests', { keyPath: 'id', autoIncrement: true }).createIndex('thread_id', 'thread_id');
          db.createObjectStore('bodies', { keyPath: 'id' });
        },
        [['privacy_requests', 'requests'], ['privacy_bodies', 'bodies']],
      ],
    ];
    for (const [name, upgrade, stores] of layouts) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name, 1);
        r.onupgradeneeded = () => upgrade(r.result);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const tx = db.transaction(stores.map(([, to]) => to), 'readwrite');
      for (const [from, to] of stores) for (const row of rows[from] ?? []) tx.objectStore(to).put(revive(row));
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }
  }, rows);
}

test('a profile in the previous build\'s four databases keeps its conversations, names, ratings, tool outputs and privacy log', async ({ app, page, browser }, testInfo) => {
  // The conversation, as the app writes it.
  await configureEndpoint(page, mock, { key: 'sk-e2e-upgrade' });
  await mock.script([
    { type: 'tool_calls', calls: [{ id: 't1', name: 'run_sql', arguments: { sql: 'SELECT 6 * 7 AS answer' } }] },
    { type: 'text', content: 'UPGRADE-ANSWER: the answer is 42.' },
    { type: 'structured', when: 'validation_report', value: { is_valid: true, issues: [], suggestions: [], confidence: 0.9 } },
  ]);
  const c = chat(page);
  await ask(page, 'What is six times seven?');
  await expect(c.answers.filter({ hasText: 'UPGRADE-ANSWER' })).toBeVisible({ timeout: 60_000 });
  await expectIdle(page);
  await c.answers.getByRole('button', { name: 'Not helpful', exact: true }).click();
  await expect(c.answers.getByRole('button', { name: 'Not helpful', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const item = c.threads.getByRole('listitem').filter({ has: page.getByRole('button', { name: 'What is six times seven?', exact: true }) });
  await item.getByRole('button', { name: 'Rename', exact: true }).click();
  await c.threads.getByRole('textbox', { name: 'Conversation name' }).fill('Upgraded study');
  await c.threads.getByRole('textbox', { name: 'Conversation name' }).press('Enter');
  await expect(c.threads.getByRole('button', { name: 'Upgraded study', exact: true })).toBeVisible();
  const rows = await dumpConversations(page);
  expect(rows.checkpoints?.length).toBeGreaterThan(0);
  expect(rows.tool_outputs?.some((r) => (r as { tool?: string }).tool === 'run_sql')).toBe(true);
  const requests = rows.privacy_requests?.length ?? 0;
  expect(requests).toBeGreaterThan(0);
  expect(app.pageErrors).toEqual([]);

  // A fresh browser profile holding those rows in the old layout, written before the app's first start there.
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const old = await context.newPage();
  await old.route('**/old-profile', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>old profile</title>' }));
  await old.goto('./old-profile');
  await writeOldProfile(old, rows);
  const upgraded = new DataApp(old);
  await upgraded.open();

  const u = chat(old);
  await u.threads.getByRole('button', { name: 'Upgraded study', exact: true }).click({ timeout: 60_000 });
  await expect(u.answers.filter({ hasText: 'UPGRADE-ANSWER' })).toBeVisible();
  await expect(u.answers.getByRole('button', { name: 'Not helpful', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const steps = await openSteps(old);
  await steps.getByText('run_sql').first().click();
  await expect(steps.getByRole('grid', { name: 'run_sql output' }).getByRole('gridcell', { name: '42', exact: true })).toBeVisible();
  await old.getByRole('button', { name: 'Privacy log', exact: true }).click();
  const log = old.getByRole('dialog', { name: 'Privacy log' });
  await expect(log.getByRole('list', { name: 'Requests' }).getByRole('listitem')).toHaveCount(requests);

  // The old databases are gone once their rows were copied.
  const names = await old.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
  expect(names).toContain('dataseer-conversations');
  for (const gone of ['dataseer-checkpoints', 'dataseer-thread-meta', 'dataseer-tool-outputs', 'dataseer-privacy-log']) expect(names).not.toContain(gone);
  expect(upgraded.pageErrors).toEqual([]);
  await context.close();
});
