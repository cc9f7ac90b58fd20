/**
 * The scripted endpoint gives every response and tool call its own id — across servers, resets and
 * scenarios — because LangGraph's message reducer treats two messages with one id as one: a reply
 * numbered `chatcmpl-mock-1` by a second scenario replaced the first scenario's reply in the state.
 */
import { describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { messagesStateReducer } from '@langchain/langgraph/web';
import { startMockLlm } from '../../../testing/mock-llm/server.mjs';
import { mockEndpointClient } from '../../../testing/mock-llm/client';
import { createChatModel } from '../llm/chatModel';

const settingsFor = (url: string) => ({ baseUrl: `${url}/v1`, apiKey: 'sk-test', model: 'mock-model' });

describe('scripted endpoint ids', () => {
  it('never repeats a response or tool-call id across two servers and a reset, so LangGraph keeps both replies', async () => {
    const a = await startMockLlm({ port: 0 });
    const b = await startMockLlm({ port: 0 });
    try {
      const replies = [
        { type: 'text' as const, content: 'first' },
        { type: 'tool_calls' as const, calls: [{ name: 'run_sql', arguments: { sql: 'SELECT 1' } }] },
      ];
      const ids: string[] = [];
      const callIds: string[] = [];
      const messages = [];
      for (const server of [a, b, a]) {
        const mock = mockEndpointClient(() => server.url);
        await mock.reset();
        await mock.script(replies);
        const model = createChatModel(settingsFor(server.url));
        for (let i = 0; i < replies.length; i++) {
          const reply = await model.invoke([new HumanMessage('q')]);
          ids.push(String(reply.id));
          callIds.push(...(reply.tool_calls ?? []).map((c) => String(c.id)));
          messages.push(reply);
        }
      }
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
      expect(new Set(callIds).size).toBe(3);
      // What a conversation holds after the three scenarios: every reply, none merged away.
      expect(messagesStateReducer([], messages)).toHaveLength(6);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
