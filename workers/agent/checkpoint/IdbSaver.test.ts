/**
 * IdbSaver beyond the conformance suite: a real graph that is reloaded through a fresh saver
 * (a page reload) and continued, which catches values revived without the saver's serde, plus
 * the conversation-list helpers the UI uses.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, isAIMessage, isHumanMessage, type BaseMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph/web';
import { IdbSaver } from './IdbSaver';

let n = 0;
const freshName = () => `saver-test-${Date.now()}-${n++}`;

/** A one-node graph whose node calls message methods, which plain revived objects lack. */
function echoGraph(saver: IdbSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode('reply', (state: typeof MessagesAnnotation.State) => {
      const humans = state.messages.filter((m: BaseMessage) => m.getType() === 'human');
      const last = humans[humans.length - 1];
      return { messages: [new AIMessage(`turn ${humans.length}: ${last ? last.text : ''}`)] };
    })
    .addEdge(START, 'reply')
    .addEdge('reply', END)
    .compile({ checkpointer: saver });
}

describe('IdbSaver with a graph', () => {
  it('reloads a thread through a new saver instance and continues it', async () => {
    const dbName = freshName();
    const config = { configurable: { thread_id: 'conv-1' } };

    const first = new IdbSaver({ dbName });
    const out1 = await echoGraph(first).invoke({ messages: [new HumanMessage('hello')] }, config);
    expect(out1.messages).toHaveLength(2);
    await first.close();

    // A new instance over the same database: nothing cached in memory survives.
    const second = new IdbSaver({ dbName });
    const graph = echoGraph(second);
    const restored = await graph.getState(config);
    const restoredMessages = restored.values.messages as [BaseMessage, BaseMessage];
    expect(restoredMessages).toHaveLength(2);
    expect(isHumanMessage(restoredMessages[0])).toBe(true);
    expect(isAIMessage(restoredMessages[1])).toBe(true);
    expect(restoredMessages[1].text).toBe('turn 1: hello');

    const out2 = await graph.invoke({ messages: [new HumanMessage('again')] }, config);
    const texts = (out2.messages as BaseMessage[]).map((m) => m.text);
    expect(texts).toEqual(['hello', 'turn 1: hello', 'again', 'turn 2: again']);

    const history = [];
    for await (const snap of graph.getStateHistory(config)) history.push(snap);
    // input + reply checkpoints for two turns, plus the initial empty input checkpoint each turn
    expect(history.length).toBeGreaterThanOrEqual(4);
    await second.destroy();
  });

  it('keeps threads apart, lists them newest first and deletes one', async () => {
    const saver = new IdbSaver({ dbName: freshName() });
    const graph = echoGraph(saver);
    await graph.invoke({ messages: [new HumanMessage('a')] }, { configurable: { thread_id: 'older' } });
    await new Promise((r) => setTimeout(r, 5));
    await graph.invoke({ messages: [new HumanMessage('b')] }, { configurable: { thread_id: 'newer' } });

    const threads = await saver.listThreads();
    expect(threads.map((t) => t.threadId)).toEqual(['newer', 'older']);
    expect(threads[0]?.checkpointCount).toBeGreaterThan(1);

    const older = await graph.getState({ configurable: { thread_id: 'older' } });
    expect((older.values.messages as BaseMessage[]).map((m) => m.text)).toEqual(['a', 'turn 1: a']);

    await saver.deleteThread('older');
    expect((await saver.listThreads()).map((t) => t.threadId)).toEqual(['newer']);
    expect(await saver.getTuple({ configurable: { thread_id: 'older' } })).toBeUndefined();
    const newer = await saver.getTuple({ configurable: { thread_id: 'newer' } });
    expect(newer?.checkpoint.channel_values.messages).toHaveLength(2);
    await saver.destroy();
  });

  it('refuses a put without a thread id', async () => {
    const saver = new IdbSaver({ dbName: freshName() });
    const cp = { v: 4, id: 'x', ts: new Date().toISOString(), channel_values: {}, channel_versions: {}, versions_seen: {} };
    await expect(saver.put({ configurable: {} }, cp, { source: 'input', step: -1, parents: {} }, {})).rejects.toThrow(/thread_id/);
    await saver.destroy();
  });
});
