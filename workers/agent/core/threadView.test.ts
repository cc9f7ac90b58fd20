import { describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { INTERNAL_FLAG, threadTitle, toThreadMessages } from './threadView';

const conversation = [
  new SystemMessage('You are Dataseer'),
  new HumanMessage('What is the   average\nmass per species of penguin in the data set I loaded?'),
  new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'run_sql', args: { sql: 'SELECT 1' } }] }),
  new ToolMessage({ content: '{"rows":[[1]]}', tool_call_id: 'c1', name: 'run_sql' }),
  new HumanMessage({ content: 'LOOP DETECTED: …', additional_kwargs: { [INTERNAL_FLAG]: true } }),
  new AIMessage('Adelie 3700.66 g.'),
];

describe('toThreadMessages', () => {
  it('keeps user, assistant (with tool calls) and tool messages, not system or internal ones', () => {
    expect(toThreadMessages(conversation)).toEqual([
      { role: 'user', content: 'What is the   average\nmass per species of penguin in the data set I loaded?' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'run_sql', args: { sql: 'SELECT 1' } }] },
      { role: 'tool', content: '{"rows":[[1]]}', tool_call_id: 'c1', tool_name: 'run_sql' },
      { role: 'assistant', content: 'Adelie 3700.66 g.' },
    ]);
  });
});

describe('threadTitle', () => {
  it('uses the first question on one line, shortened', () => {
    expect(threadTitle(conversation, 30)).toBe('What is the average mass per …');
    expect(threadTitle(conversation)).toBe('What is the average mass per species of penguin in the data…');
    expect(threadTitle([])).toBe('New conversation');
  });
});

describe('reasoning in a stored thread', () => {
  it('comes back with its assistant message, apart from the answer', () => {
    const view = toThreadMessages([new HumanMessage('q'), new AIMessage({ content: 'It is 5.', additional_kwargs: { reasoning_content: 'two plus three' } })]);
    expect(view[1]).toEqual({ role: 'assistant', content: 'It is 5.', reasoning: 'two plus three' });
  });
});
