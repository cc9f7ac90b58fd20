/**
 * Edit / Regenerate on a real LangGraph thread in IdbSaver (fake-indexeddb): the fork point is
 * the checkpoint before the question, cutting back drops the later turns from every stored
 * checkpoint, the next run sees only the kept turns, and the kept checkpoints still read the
 * same after the new run reused their channel version numbers.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import { Annotation, END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph/web';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { findForkPoint, replaceQuestionText, validQuestionId } from './fork';
import { internalNote } from '../graph/nodeKit';

let n = 0;
const freshName = () => `fork-test-${Date.now()}-${n++}`;

const State = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** One entry per answered turn, like the agent's `finals`. */
  answers: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

/** Replies with what it saw: the questions so far, so a dropped turn would show. */
function echoGraph(saver: IdbSaver) {
  return new StateGraph(State)
    .addNode('reply', (state: typeof State.State) => {
      const seen = state.messages.filter((m: BaseMessage) => m.getType() === 'human').map((m) => m.text);
      const text = `saw [${seen.join(' | ')}]`;
      return { messages: [new AIMessage(text)], answers: [text] };
    })
    .addEdge(START, 'reply')
    .addEdge('reply', END)
    .compile({ checkpointer: saver });
}

const config = { configurable: { thread_id: 'th' } };
const ask = (graph: ReturnType<typeof echoGraph>, text: string, id: string) => graph.invoke({ messages: [new HumanMessage({ content: text, id })] }, config);

async function allStoredTexts(saver: IdbSaver): Promise<string[]> {
  const texts = new Set<string>();
  for await (const t of saver.list(config)) {
    for (const m of (t.checkpoint.channel_values.messages as BaseMessage[] | undefined) ?? []) texts.add(m.text);
  }
  return [...texts];
}

describe('forking a thread', () => {
  it('regenerates the last turn: the old answer is gone from storage and from what the graph sees', async () => {
    const saver = new IdbSaver({ dbName: freshName() });
    const graph = echoGraph(saver);
    await ask(graph, 'one', 'q1');
    await ask(graph, 'two', 'q2');
    await ask(graph, 'three', 'q3');

    const point = await findForkPoint(saver, 'th', 'q3');
    expect(point?.question.text).toBe('three');
    expect(point?.keptQuestionIds).toEqual(['q1', 'q2']);
    if (!point?.checkpointId) throw new Error('expected a checkpoint before the third question');
    await saver.truncateAfter('th', point.checkpointId);

    const cut = await graph.getState(config);
    expect((cut.values.messages as BaseMessage[]).map((m) => m.text)).toEqual(['one', 'saw [one]', 'two', 'saw [one | two]']);
    expect(cut.values.answers).toHaveLength(2);

    const out = await ask(graph, 'three again', 'q3b');
    expect((out.messages as BaseMessage[]).map((m) => m.text)).toEqual(['one', 'saw [one]', 'two', 'saw [one | two]', 'three again', 'saw [one | two | three again]']);
    expect(out.answers).toEqual(['saw [one]', 'saw [one | two]', 'saw [one | two | three again]']);
    expect(await allStoredTexts(saver)).not.toContain('three');

    // The fork point still reads as it did, though the new run reused its version numbers.
    const before = await saver.getTuple({ configurable: { thread_id: 'th', checkpoint_ns: '', checkpoint_id: point.checkpointId } });
    expect((before?.checkpoint.channel_values.messages as BaseMessage[]).map((m) => m.text)).toEqual(['one', 'saw [one]', 'two', 'saw [one | two]']);
    // History is one line again: every checkpoint's parent is the one before it.
    const history = [];
    for await (const s of graph.getStateHistory(config)) history.push(s);
    for (let i = 0; i < history.length - 1; i++) expect(history[i]?.parentConfig?.configurable?.checkpoint_id).toBe(history[i + 1]?.config.configurable?.checkpoint_id);
    await saver.destroy();
  });

  it('edits an earlier question: later turns are dropped, also for a fresh saver (a reload)', async () => {
    const dbName = freshName();
    const saver = new IdbSaver({ dbName });
    const graph = echoGraph(saver);
    await ask(graph, 'one', 'q1');
    await ask(graph, 'two', 'q2');
    await ask(graph, 'three', 'q3');
    const point = await findForkPoint(saver, 'th', 'q2');
    expect(point?.keptQuestionIds).toEqual(['q1']);
    if (!point?.checkpointId) throw new Error('expected a fork point');
    await saver.truncateAfter('th', point.checkpointId);
    await ask(graph, 'two, edited', 'q2b');
    await saver.close();

    const reloaded = new IdbSaver({ dbName });
    const state = await echoGraph(reloaded).getState(config);
    expect((state.values.messages as BaseMessage[]).map((m) => m.text)).toEqual(['one', 'saw [one]', 'two, edited', 'saw [one | two, edited]']);
    const stored = await allStoredTexts(reloaded);
    for (const gone of ['two', 'three', 'saw [one | two]']) expect(stored).not.toContain(gone);
    await reloaded.destroy();
  });

  it('finds the first question (no checkpoint before it), skips internal notes, and misses unknown ids', async () => {
    const saver = new IdbSaver({ dbName: freshName() });
    const graph = echoGraph(saver);
    await ask(graph, 'one', 'q1');
    await graph.invoke({ messages: [internalNote('guard note')] }, config);
    await ask(graph, 'two', 'q2');
    expect(await findForkPoint(saver, 'th', 'q1')).toMatchObject({ checkpointId: null, keptQuestionIds: [] });
    expect((await findForkPoint(saver, 'th', 'q2'))?.keptQuestionIds).toEqual(['q1']);
    expect(await findForkPoint(saver, 'th', 'nope')).toBeUndefined();
    expect(await findForkPoint(saver, 'other-thread', 'q1')).toBeUndefined();
    await expect(saver.truncateAfter('th', 'not-a-checkpoint')).rejects.toThrow(/not in thread/);
    await saver.destroy();
  });
});

describe('replaceQuestionText', () => {
  it('replaces the words and keeps attached images', () => {
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } };
    const old = new HumanMessage({ content: [{ type: 'text', text: 'old words' }, image], id: 'q1' });
    const next = replaceQuestionText(old, 'new words', 'q2');
    expect(next.id).toBe('q2');
    expect(next.content).toEqual([{ type: 'text', text: 'new words' }, image]);
    expect(replaceQuestionText(new HumanMessage('plain'), 'edited', 'q3').content).toBe('edited');
  });

  it('accepts only short, safe question ids', () => {
    expect(validQuestionId('3f2a-b_9')).toBe(true);
    expect(validQuestionId('')).toBe(false);
    expect(validQuestionId('a b')).toBe(false);
    expect(validQuestionId('x'.repeat(101))).toBe(false);
  });
});
