/**
 * Conversation controls through the agent service's handlers, in Node: the real agent graph
 * and @langchain/openai client against the scripted endpoint, IdbSaver and the thread meta
 * store on fake-indexeddb. What the endpoint receives after Regenerate or Edit question is the
 * proof that a dropped turn is gone from what the model sees.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../protocol/agent/wire';
import { IdbSaver } from '../checkpoint/IdbSaver';
import { ExampleLibrary } from '../examples/retrieval';
import { UserExampleStore } from '../examples/userExamples';
import { createAgentService } from './service';
import { useMockEndpoint } from '../testing/mockEndpoint';
import { ThreadMetaStore } from '../threads/ThreadMetaStore';
import type { DataClient } from '../tools/workerHost';

const mock = useMockEndpoint();

/** No datasets: these conversations never reach the data worker beyond listing. */
const data: DataClient = {
  call: (async (type: string) => {
    if (type === 'list') return [];
    throw new Error(`not used in this test: ${type}`);
  }) as DataClient['call'],
};

let n = 0;
function makeService() {
  const events: AgentEvent[] = [];
  const tag = `conv-${Date.now()}-${n++}`;
  const saver = new IdbSaver({ dbName: `${tag}-cp` });
  const threadMeta = new ThreadMetaStore({ dbName: `${tag}-meta` });
  const service = createAgentService({
    data,
    saver,
    threadMeta,
    library: new ExampleLibrary(),
    userExamples: new UserExampleStore({ dbName: `${tag}-ex` }),
    emit: (e) => events.push(e),
    maxRetries: 0,
  });
  return { service, events, saver, threadMeta };
}
const settings = () => ({ baseUrl: `${mock.url}/v1`, apiKey: 'sk-conv', model: 'mock-model' });

async function reply(text: string) {
  await mock.script([{ type: 'text', content: text }]);
}
async function lastChatMessages(): Promise<string> {
  const reqs = await mock.chatRequests();
  const body = reqs.at(-1)?.body as { messages: { role: string; content: unknown }[] };
  // Only the conversation: the system prompt lists examples and context, not turns.
  return JSON.stringify(body.messages.filter((m) => m.role !== 'system'));
}

type Service = ReturnType<typeof makeService>['service'];
async function turn(service: Service, thread: string, question: string, answer: string, extra: { question_id?: string; replaces?: string } = {}) {
  await reply(answer);
  await service.start({ settings: settings(), thread_id: thread, question, mode: 'agent', ...extra });
  await service.idle();
}

describe('conversation controls', { timeout: 60_000 }, () => {
  it('regenerates the last answer in place: the old answer is neither shown nor sent', async () => {
    const { service, saver, threadMeta } = makeService();
    await turn(service, 't', 'First question?', 'ANSWER-ONE', { question_id: 'q1' });
    await turn(service, 't', 'Second question?', 'ANSWER-TWO-OLD', { question_id: 'q2' });
    await turn(service, 't', 'Second question?', 'ANSWER-TWO-NEW', { question_id: 'q2b', replaces: 'q2' });

    const sent = await lastChatMessages();
    expect(sent).toContain('ANSWER-ONE');
    expect(sent).toContain('Second question?');
    expect(sent).not.toContain('ANSWER-TWO-OLD');

    const view = (await service.loadThread({ thread_id: 't' })).result;
    expect(view?.messages.filter((m) => m.role === 'user').map((m) => m.id)).toEqual(['q1', 'q2b']);
    expect(view?.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(['ANSWER-ONE', 'ANSWER-TWO-NEW']);
    expect(view?.finals.map((f) => f.answer)).toEqual(['ANSWER-ONE', 'ANSWER-TWO-NEW']);
    expect(view?.interrupted).toBe(false);
    expect((await service.listThreads({})).result).toHaveLength(1);
    await saver.destroy();
    await threadMeta.destroy();
  });

  it('edits an earlier question: later turns and their ratings are dropped; the title follows', async () => {
    const { service, saver, threadMeta } = makeService();
    await turn(service, 't', 'How many penguins?', 'ANSWER-A', { question_id: 'q1' });
    await turn(service, 't', 'And by island?', 'ANSWER-B', { question_id: 'q2' });
    const final = (await service.loadThread({ thread_id: 't' })).result?.finals[1];
    if (!final) throw new Error('no final');
    await service.rateAnswer({ thread_id: 't', question: 'And by island?', final, rating: 'down', question_id: 'q2' });
    expect((await service.loadThread({ thread_id: 't' })).result?.ratings).toEqual({ q2: 'down' });

    await turn(service, 't', 'How many birds?', 'ANSWER-C', { question_id: 'q1b', replaces: 'q1' });
    const sent = await lastChatMessages();
    for (const gone of ['How many penguins?', 'ANSWER-A', 'And by island?', 'ANSWER-B']) expect(sent).not.toContain(gone);
    expect(sent).toContain('How many birds?');

    const view = (await service.loadThread({ thread_id: 't' })).result;
    expect(view?.messages.map((m) => m.content)).toEqual(['How many birds?', 'ANSWER-C']);
    expect(view?.ratings).toBeUndefined();
    expect((await service.listThreads({})).result.map((t) => t.title)).toEqual(['How many birds?']);
    await saver.destroy();
    await threadMeta.destroy();
  });

  it('refuses to fork from a question the thread does not have, and leaves the thread alone', async () => {
    const { service, saver, threadMeta } = makeService();
    await turn(service, 't', 'Kept?', 'KEPT', { question_id: 'q1' });
    await expect(service.start({ settings: settings(), thread_id: 't', question: 'x', mode: 'agent', replaces: 'nope' })).rejects.toThrow(/not in the saved conversation/);
    expect(() => service.start({ settings: settings(), thread_id: 't', question: '  ', mode: 'agent', replaces: 'q1' })).toThrow(/empty/);
    expect(() => service.start({ settings: settings(), thread_id: 't', question: 'x', mode: 'agent', question_id: 'has space' })).toThrow(/question id/);
    expect((await service.loadThread({ thread_id: 't' })).result?.messages.map((m) => m.content)).toEqual(['Kept?', 'KEPT']);
    // The refused fork released the run slot.
    await turn(service, 't', 'Next?', 'NEXT', { question_id: 'q2' });
    expect((await service.loadThread({ thread_id: 't' })).result?.finals).toHaveLength(2);
    await saver.destroy();
    await threadMeta.destroy();
  });

  it('renames, searches titles, questions and answers, keeps ratings, and forgets deleted threads', async () => {
    const { service, saver, threadMeta } = makeService();
    await turn(service, 'a', 'Average temperature in Zürich?', 'It was 9.3 degrees.', { question_id: 'qa' });
    await turn(service, 'b', 'Which island has most penguins?', 'Biscoe has the most.', { question_id: 'qb' });

    await expect(service.renameThread({ thread_id: 'a', title: '   ' })).rejects.toThrow(/Enter a name/);
    await expect(service.renameThread({ thread_id: 'a', title: 'x'.repeat(201) })).rejects.toThrow(/at most 200/);
    await expect(service.renameThread({ thread_id: 'missing', title: 'Name' })).rejects.toThrow(/no longer stored/);
    const renamed = (await service.renameThread({ thread_id: 'a', title: '  Swiss   weather ' })).result;
    expect(renamed.find((t) => t.thread_id === 'a')?.title).toBe('Swiss weather');

    const ids = async (query: string) => (await service.searchThreads({ query })).result.map((t) => t.thread_id).sort();
    expect(await ids('swiss')).toEqual(['a']);
    expect(await ids('zurich')).toEqual(['a']);
    expect(await ids('BISCOE')).toEqual(['b']);
    expect(await ids('penguins island')).toEqual(['b']);
    expect(await ids('penguins zurich')).toEqual([]);
    expect(await ids('  ')).toEqual(['a', 'b']);

    const final = (await service.loadThread({ thread_id: 'b' })).result?.finals[0];
    if (!final) throw new Error('no final');
    await service.rateAnswer({ thread_id: 'b', question: 'Which island has most penguins?', final, rating: 'up', question_id: 'qb' });

    // A fresh service over the same stores (a page reload): name, rating and index persist.
    const again = createAgentService({ data, saver, threadMeta, library: new ExampleLibrary(), userExamples: new UserExampleStore({ dbName: `${threadMeta.dbName}-ex2` }), emit: () => {} });
    expect((await again.listThreads({})).result.find((t) => t.thread_id === 'a')?.title).toBe('Swiss weather');
    expect((await again.loadThread({ thread_id: 'b' })).result?.ratings).toEqual({ qb: 'up' });
    expect((await again.searchThreads({ query: 'biscoe' })).result.map((t) => t.thread_id)).toEqual(['b']);

    await again.deleteThread({ thread_id: 'b' });
    expect((await again.searchThreads({ query: 'biscoe' })).result).toEqual([]);
    expect(await threadMeta.get('b')).toBeUndefined();
    await saver.destroy();
    await threadMeta.destroy();
  });
});
