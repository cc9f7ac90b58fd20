/**
 * Checkpoint writes hold no form of the key: a message that quotes it (raw, escaped, base64 or
 * URL-encoded), a Uint8Array channel value (JSON writes it as a byte list) and a top-level bytes
 * value (stored as raw bytes) — and every value still reads back.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph/web';
import { SecretScrubber } from '../../../shared/secrets';
import { leaks, storedText } from '../../../shared/testing/secretForms';
import { IdbSaver } from './IdbSaver';
import { ScrubbingSerde } from './scrubbingSerde';

const KEY = 'sk-checkpoint-Lm4+/Rt8';

describe('ScrubbingSerde', () => {
  it('leaves no form of the key in any checkpoint write, and the thread reloads', async () => {
    const secrets = new SecretScrubber();
    secrets.add(KEY);
    const dbName = `scrub-serde-${Date.now()}`;
    const saver = new IdbSaver({ dbName, serde: new ScrubbingSerde(secrets) });
    const quoted = `${KEY} ${encodeURIComponent(KEY)} ${Buffer.from(`ab${KEY}`).toString('base64')} ${JSON.stringify({ k: KEY })}`;
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('reply', () => ({ messages: [new AIMessage({ content: quoted, additional_kwargs: { blob: new TextEncoder().encode(`<${KEY}>`) } })] }))
      .addEdge(START, 'reply')
      .addEdge('reply', END)
      .compile({ checkpointer: saver });
    const config = { configurable: { thread_id: 't' } };
    await graph.invoke({ messages: [new HumanMessage('hi')] }, config);
    await saver.putWrites({ configurable: { thread_id: 't', checkpoint_ns: '', checkpoint_id: (await saver.getTuple(config))?.checkpoint.id } }, [['raw', new TextEncoder().encode(`x${KEY}`)]], 'task');
    const db = await openDB(dbName);
    const all: unknown[] = [];
    for (const store of db.objectStoreNames) all.push(await db.getAll(store));
    db.close();
    const text = storedText(all);
    expect(text).toContain('[redacted]');
    expect(leaks(text, KEY)).toEqual([]);
    // Still readable: the reply comes back as a message with the key's places redacted.
    const back = await new IdbSaver({ dbName, serde: new ScrubbingSerde(secrets) }).getTuple(config);
    const messages = (back?.checkpoint.channel_values as { messages: AIMessage[] }).messages;
    expect(messages.at(-1)?.text).toContain('[redacted]');
    expect(back?.pendingWrites?.find((w) => w[1] === 'raw')?.[2]).toEqual(new TextEncoder().encode(`x${'*'.repeat(KEY.length)}`));
  });
});
