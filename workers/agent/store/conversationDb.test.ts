/**
 * The conversation database takes in a profile written by the previous build's four separate
 * databases (written here with that build's own store code, kept in testing/legacyStores), loses
 * nothing of it, deletes the old databases, and deletes a conversation in one transaction.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph/web';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { openExisting } from '../../../shared/idbStore';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { PrivacyLogStore } from '../privacy/PrivacyLogStore';
import { ThreadMetaStore } from '../threads/ThreadMetaStore';
import { ToolOutputStore } from '../threads/ToolOutputStore';
import { conversationDb, deleteConversation, type LegacyDatabases } from './conversationDb';
import { IdbSaver as OldSaver } from './testing/legacyStores/IdbSaver';
import { PrivacyLogStore as OldPrivacyLog } from './testing/legacyStores/PrivacyLogStore';
import { ThreadMetaStore as OldThreadMeta } from './testing/legacyStores/ThreadMetaStore';
import { ToolOutputStore as OldToolOutputs } from './testing/legacyStores/ToolOutputStore';

let n = 0;

function echoGraph(saver: BaseCheckpointSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('reply', (state: typeof MessagesAnnotation.State) => {
      const humans = state.messages.filter((m: BaseMessage) => m.getType() === 'human');
      return { messages: [new AIMessage(`turn ${humans.length}: ${humans.at(-1)?.text ?? ''}`)] };
    })
    .addEdge(START, 'reply')
    .addEdge('reply', END)
    .compile({ checkpointer: saver });
}

async function countCheckpoints(saver: BaseCheckpointSaver, thread: string): Promise<number> {
  let count = 0;
  for await (const _ of saver.list({ configurable: { thread_id: thread } })) count++;
  return count;
}

const toolEnd = (call: string, rows: number): AgentEvent =>
  ({ type: 'tool_end', run_id: 'r', call_id: call, tool: 'run_sql', elapsed_ms: 5, output: { columns: ['n'], rows: [[rows]], row_count: 1 } }) as unknown as AgentEvent;

/** A profile as the previous build left it: two conversations in each of the four databases. */
async function writeOldProfile(legacy: LegacyDatabases) {
  const saver = new OldSaver({ dbName: legacy.checkpoints });
  const graph = echoGraph(saver);
  for (const thread of ['a', 'b']) {
    const config = { configurable: { thread_id: thread } };
    await graph.invoke({ messages: [{ role: 'user', content: `hello ${thread}`, id: `q1-${thread}` }] }, config);
    await graph.invoke({ messages: [{ role: 'user', content: `again ${thread}`, id: `q2-${thread}` }] }, config);
  }
  const meta = new OldThreadMeta({ dbName: legacy.threadMeta });
  await meta.putIndex('a', { title: 'hello a', mode: 'agent', indexed_at: '2026-01-01T00:00:00.000Z' }, 'hello a again a');
  await meta.update('a', (row) => ({ ...row, name: 'My analysis', ratings: { 'q1-a': 'up', 'q2-a': 'down' } }));
  await meta.update('b', (row) => ({ ...row, ratings: { 'q1-b': 'up' }, usage: { 'q1-b': { input_tokens: 10, output_tokens: 2 } as never } }));
  const outputs = new OldToolOutputs(legacy.toolOutputs);
  outputs.record('a', toolEnd('c1', 1));
  outputs.record('a', toolEnd('c2', 2));
  outputs.record('b', toolEnd('c3', 3));
  await outputs.forThread('a');
  const log = new OldPrivacyLog({ dbName: legacy.privacyLog });
  for (const [thread, i] of [['a', 1], ['b', 2], ['a', 3]] as const) {
    log.sink(thread)({ at: `2026-01-01T00:00:0${i}.000Z`, url: 'https://llm.example/v1/chat/completions', method: 'POST', body: `{"n":${i}}` })({ status: 200, usage: null });
  }
  await Promise.all([log.settled('a'), log.settled('b')]);

  const seen = {
    threads: await saver.listThreads(),
    states: await Promise.all(['a', 'b'].map(async (t) => (await graph.getState({ configurable: { thread_id: t } })).values.messages.map((m: BaseMessage) => m.text))),
    history: await countCheckpoints(saver, 'a'),
    meta: await meta.all(),
    texts: await meta.texts(),
    outputs: [await outputs.forThread('a'), await outputs.forThread('b')],
    log: [await log.list('a'), await log.list('b')],
  };
  await Promise.all([saver.close(), meta.close(), log.close(), outputs.close()]);
  return seen;
}

function freshNames(): { name: string; legacy: LegacyDatabases } {
  const tag = `migrate-${Date.now()}-${n++}`;
  return { name: `${tag}-conversations`, legacy: { checkpoints: `${tag}-cp`, threadMeta: `${tag}-meta`, toolOutputs: `${tag}-out`, privacyLog: `${tag}-log` } };
}

describe('the conversation database', () => {
  it('takes in every conversation, checkpoint, rating, tool output and privacy entry of the old databases, then deletes them', async () => {
    const { name, legacy } = freshNames();
    const before = await writeOldProfile(legacy);
    expect(before.threads.map((t) => t.threadId).sort()).toEqual(['a', 'b']);

    conversationDb(name, legacy);
    const saver = new IdbSaver({ dbName: name });
    const meta = new ThreadMetaStore({ dbName: name });
    const outputs = new ToolOutputStore(name);
    const log = new PrivacyLogStore({ dbName: name });
    const graph = echoGraph(saver);

    expect(await saver.listThreads()).toEqual(before.threads);
    const states = await Promise.all(['a', 'b'].map(async (t) => (await graph.getState({ configurable: { thread_id: t } })).values.messages.map((m: BaseMessage) => m.text)));
    expect(states).toEqual(before.states);
    expect(states[0]).toEqual(['hello a', 'turn 1: hello a', 'again a', 'turn 2: again a']);
    expect(await countCheckpoints(saver, 'a')).toBe(before.history);
    expect(await meta.all()).toEqual(before.meta);
    expect((await meta.get('a'))?.ratings).toEqual({ 'q1-a': 'up', 'q2-a': 'down' });
    expect(await meta.texts()).toEqual(before.texts);
    expect([await outputs.forThread('a'), await outputs.forThread('b')]).toEqual(before.outputs);
    expect(Object.keys(before.outputs[0] ?? {})).toEqual(['c1', 'c2']);
    expect([await log.list('a'), await log.list('b')]).toEqual(before.log);
    expect(before.log[0]).toHaveLength(2);

    for (const old of Object.values(legacy)) expect(await openExisting(old), old).toBeUndefined();

    // The migrated conversation carries on, and a new log entry is numbered after the copied ones.
    const out = await graph.invoke({ messages: [{ role: 'user', content: 'third a' }] }, { configurable: { thread_id: 'a' } });
    expect(out.messages.at(-1)?.text).toBe('turn 3: third a');
    log.sink('a')({ at: '2026-01-01T00:00:09.000Z', url: 'https://llm.example/v1/chat/completions', method: 'POST', body: '{"n":9}' })({ status: 200, usage: null });
    const ids = (await log.list('a')).map((e) => e.id);
    expect(ids).toHaveLength(3);
    expect(ids[2]).toBeGreaterThan(Math.max(...before.log.flat().map((e) => e.id)));
    await saver.destroy();
  });

  it('copies once: a second open finds the copy done and keeps what changed since', async () => {
    const { name, legacy } = freshNames();
    await writeOldProfile(legacy);
    const meta = new ThreadMetaStore({ dbName: name });
    conversationDb(name, legacy);
    await meta.update('a', (row) => ({ ...row, name: 'Renamed after the upgrade' }));
    await conversationDb(name).close();
    // An old profile written again (a tab of the previous build) is not copied over newer rows.
    await writeOldProfile(legacy);
    expect((await meta.get('a'))?.name).toBe('Renamed after the upgrade');
    await meta.destroy();
  });

  it('opens empty and creates none of the old databases when there were none', async () => {
    const { name, legacy } = freshNames();
    conversationDb(name, legacy);
    const saver = new IdbSaver({ dbName: name });
    expect(await saver.listThreads()).toEqual([]);
    for (const old of Object.values(legacy)) expect(await openExisting(old)).toBeUndefined();
    await saver.destroy();
  });

  it('deletes a conversation from checkpoints, meta, tool outputs and privacy log in one transaction', async () => {
    const { name, legacy } = freshNames();
    await writeOldProfile(legacy);
    conversationDb(name, legacy);
    const saver = new IdbSaver({ dbName: name });
    const meta = new ThreadMetaStore({ dbName: name });
    const outputs = new ToolOutputStore(name);
    const log = new PrivacyLogStore({ dbName: name });
    const db = await conversationDb(name).open();
    const transactions: string[][] = [];
    const original = db.transaction.bind(db);
    db.transaction = ((stores: string | string[], mode?: IDBTransactionMode) => {
      if (mode === 'readwrite') transactions.push([stores].flat());
      return original(stores as never, mode);
    }) as typeof db.transaction;

    await deleteConversation('a', [saver, meta, outputs, log]);

    expect(transactions).toHaveLength(1);
    expect(transactions[0]?.sort()).toEqual(['blobs', 'channel_values', 'checkpoints', 'privacy_bodies', 'privacy_requests', 'texts', 'threads', 'tool_outputs', 'writes']);
    expect((await saver.listThreads()).map((t) => t.threadId)).toEqual(['b']);
    expect(await meta.get('a')).toBeUndefined();
    expect(await outputs.forThread('a')).toEqual({});
    expect(await log.list('a')).toEqual([]);
    expect(Object.keys(await outputs.forThread('b'))).toEqual(['c3']);
    expect(await log.list('b')).toHaveLength(1);
    expect((await meta.get('b'))?.ratings).toEqual({ 'q1-b': 'up' });
    db.transaction = original;
    await saver.destroy();
  });
});
