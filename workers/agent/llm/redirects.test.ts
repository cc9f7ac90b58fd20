/**
 * Model requests do not follow redirects (issue #31): a 307/308 from the endpoint re-sends the
 * request's body to the redirect target. Against local servers (one redirecting, one standing in
 * for the target), through the real chat model and Test connection's model list.
 * The browser's side, pinned from the Fetch standard's web-platform tests
 * (fetch/api/redirect/redirect-mode.any.js: with `redirect: "manual"` a redirect comes back with
 * status 0, type "opaqueredirect", no headers).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { classifyLlmError, createChatModel } from './chatModel';
import { MemoryEndpointProfileStore } from './endpointProfile';
import { listModels } from './modelList';
import { redirectMessage, refuseRedirects } from './redirects';

const KEY = 'sk-redirect-test-5531';
let target: Server;
let redirector: Server;
let targetUrl = '';
let redirectorUrl = '';
let targetHits: string[] = [];
let redirectorHits: string[] = [];
let status = 307;
let location = '';

const listen = async (s: Server): Promise<string> => {
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  target = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      targetHits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''} ${body.slice(0, 40)}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: [{ id: 'stolen' }], choices: [{ index: 0, message: { role: 'assistant', content: 'stolen' }, finish_reason: 'stop' }] }));
    });
  });
  redirector = createServer((req, res) => {
    redirectorHits.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(status, { location: location || `${targetUrl}${req.url ?? ''}`, 'content-type': 'text/plain' });
    res.end('moved');
  });
  targetUrl = await listen(target);
  redirectorUrl = await listen(redirector);
});
afterAll(async () => {
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await new Promise<void>((resolve) => redirector.close(() => resolve()));
});
beforeEach(() => {
  targetHits = [];
  redirectorHits = [];
  location = '';
});

const settings = () => ({ baseUrl: `${redirectorUrl}/v1`, apiKey: KEY, model: 'gpt-test' });

describe('model requests do not follow redirects', () => {
  for (const code of [307, 308, 301, 302]) {
    it(`a chat request answered ${code} goes nowhere else and says where it pointed`, async () => {
      status = code;
      const model = createChatModel(settings(), { maxRetries: 0 });
      const err = await model.invoke([new HumanMessage('the rows: adelie, gentoo')]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Error);
      const failure = classifyLlmError(err);
      expect(failure.message).toContain(`${targetUrl}/v1/chat/completions`);
      expect(failure.message).toMatch(/do not follow redirects/);
      expect(failure.message).toContain(`HTTP ${code}`);
      expect(failure.message).not.toContain(KEY);
      expect(failure.retryable).toBe(false);
      expect(redirectorHits).toEqual(['POST /v1/chat/completions']);
      expect(targetHits).toEqual([]);
    });
  }

  it('a relative Location is named as the absolute address', async () => {
    status = 308;
    location = '/v2/chat/completions';
    const err = await createChatModel(settings(), { maxRetries: 0 }).invoke([new HumanMessage('q')]).catch((e: unknown) => e);
    expect(classifyLlmError(err).message).toContain(`${redirectorUrl}/v2/chat/completions`);
    expect(targetHits).toEqual([]);
  });

  it('Test connection’s model list does not follow one either', async () => {
    status = 307;
    const outcome = await listModels(settings(), new MemoryEndpointProfileStore(), (input, init) => fetch(input, init));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.message).toContain(`${targetUrl}/v1/models`);
      expect(outcome.message).toMatch(/do not follow redirects/);
    }
    expect(targetHits).toEqual([]);
  });

  it('a browser’s opaque redirect (status 0, no headers) still becomes a refusal that says what to do', async () => {
    const opaque = { type: 'opaqueredirect', status: 0, headers: new Headers(), body: null, ok: false } as unknown as Response;
    const seen: RequestInit[] = [];
    const send = refuseRedirects(async (_input, init) => {
      seen.push(init ?? {});
      return opaque;
    });
    const res = await send('https://llm.example/v1/chat/completions', { method: 'POST', body: '{}' });
    expect(seen[0]?.redirect).toBe('manual');
    expect(res.ok).toBe(false);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/browser does not show where it pointed.*Base URL/);
    expect(body.error.message).toContain('https://llm.example/v1/chat/completions');
  });

  it('passes every other answer through untouched, 304 included', async () => {
    for (const code of [200, 304, 400, 500]) {
      const original = new Response(code === 304 ? null : 'x', { status: code });
      expect(await refuseRedirects(async () => original)('https://llm.example/v1/models')).toBe(original);
    }
    expect(redirectMessage('https://a.example/v1', 307, 'https://b.example/v1')).toMatch(/put it as the Base URL/);
  });
});
