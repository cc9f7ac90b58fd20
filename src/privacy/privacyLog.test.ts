import { describe, expect, it } from 'vitest';
import type { PrivacyLogEntry } from '../../protocol/agent/wire';
import { loadPrivacyLog, prettyBody, requestKind, sizeLabel, statusLabel, tokenTotals, tokensLabel } from './privacyLog';

const entry = (over: Partial<PrivacyLogEntry> = {}): PrivacyLogEntry => ({
  id: 1,
  thread_id: 't',
  at: '2026-01-01T00:00:00.000Z',
  url: 'https://llm.example/v1/chat/completions',
  method: 'POST',
  body: '{"model":"m","messages":[]}',
  status: 200,
  usage: { prompt_tokens: 100, completion_tokens: 7, total_tokens: 107 },
  ...over,
});

describe('privacy log helpers', () => {
  it('totals the tokens and counts the requests without usage', () => {
    expect(tokenTotals([entry(), entry({ usage: { prompt_tokens: 5, completion_tokens: null, total_tokens: 5 } }), entry({ usage: null })])).toEqual({
      input: 105,
      output: 7,
      unreported: 1,
      estimated: 0,
    });
    expect(tokenTotals([entry({ usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, estimated: true } })]).estimated).toBe(1);
    expect(tokensLabel(entry({ usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5, estimated: true } }))).toBe('~3 in / ~2 out (estimated)');
  });

  it('labels status, tokens, size and kind', () => {
    expect(statusLabel(entry())).toBe('HTTP 200');
    expect(statusLabel(entry({ status: null, error: 'fetch failed' }))).toBe('no response');
    expect(statusLabel(entry({ status: null }))).toBe('in flight');
    expect(tokensLabel(entry())).toBe('100 in / 7 out');
    expect(tokensLabel(entry({ usage: null }))).toBe('tokens not reported');
    expect(sizeLabel('é')).toBe('2 B');
    expect(sizeLabel('x'.repeat(2048))).toBe('2.0 KB');
    expect(requestKind(entry())).toBe('chat');
    expect(requestKind(entry({ body: '{"response_format":{"type":"json_schema","json_schema":{"name":"validation_report"}}}' }))).toBe('chat (validation_report)');
    expect(requestKind(entry({ url: 'https://llm.example/v1/embeddings' }))).toBe('embeddings');
  });

  it('indents JSON bodies and shows other text as sent', () => {
    expect(prettyBody('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(prettyBody('not json')).toBe('not json');
    expect(prettyBody('')).toBe('(no body)');
  });

  it('asks the agent worker for one thread', async () => {
    const calls: unknown[] = [];
    const rpc = { call: async (type: string, payload: unknown) => (calls.push([type, payload]), [entry()]) };
    const got = await loadPrivacyLog({ start: async () => rpc as never }, 'th-9');
    expect(got).toHaveLength(1);
    expect(calls).toEqual([['privacyLog', { thread_id: 'th-9' }]]);
  });
});
