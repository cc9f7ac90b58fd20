#!/usr/bin/env node
/**
 * A scripted OpenAI-compatible endpoint, for tests only. It plays back replies queued through
 * `POST /__script` to `POST /v1/chat/completions` (streamed as SSE or whole), answers
 * `GET /v1/models` and `POST /v1/embeddings`, allows browser CORS the way a real provider does,
 * and records every request (headers and body) for assertions at `GET /__requests`.
 *
 * Run: `node testing/mock-llm/server.mjs [port]` (or MOCK_LLM_PORT); it listens on 127.0.0.1 only
 * and prints `mock-llm listening on http://127.0.0.1:<port>`. Port 0 picks a free port.
 * Import: `startMockLlm({ port })` → `{ url, port, state, close }`.
 *
 * Script API (JSON):
 *   POST /__script { replies: Reply[], replace?: boolean, models?: string[], embeddings?: boolean,
 *                    require_key?: string }   queue replies (append unless replace) / configure
 *   GET  /__script                            the replies still queued
 *   GET  /__requests                          every recorded request, oldest first
 *                                             (`body` parsed, `raw_body` the exact text received)
 *   POST /__reset                             clear queue, records and configuration
 *
 * Reply (one per chat completion request, first-in first-out; a reply with `when` is used only
 * for the structured-output call of that name: `validation_report`, `execution_plan`,
 * `conversation_summary`, `data_dictionary`, which the server reads from `response_format.json_schema.name` or
 * from a forced `tool_choice`; a `data_dictionary` call — made by the app itself when a dataset is
 * added — takes only a reply scripted with that `when`, else it gets the empty-queue 500):
 *   { type: 'text', content, chunk_size? }
 *   { type: 'tool_calls', calls: [{ id?, name, arguments: object | string }], content? }
 *   { type: 'malformed_tool_call', name, arguments_text }     arguments that are not JSON
 *   { type: 'structured', value: object }   answered as JSON content for response_format, or as
 *                                           a call of the forced tool
 *   { type: 'error', status, message?, code?, retry_after? }  e.g. 401, 429 (+ Retry-After), 500
 *   { type: 'cut', content, after_chunks? }  streams part of the text then drops the connection
 *   { type: 'refusal', refusal }  OpenAI's Structured Outputs refusal: message.refusal (delta.refusal when streamed), content null
 * Routes (`POST /__script { routes: [{ match, replies }] }`, replacing earlier routes): a request
 * whose user messages contain `match` takes its reply from that route's own queue first (same
 * `when` rules), so a script can say how each question is answered whatever order they come in
 * (the gauntlet). A route whose queue is empty falls back to the shared queue.
 * Every reply may add `delay_ms` (before answering), `chunk_delay_ms` (between SSE chunks),
 * `reasoning` (text the model "thought"; how it goes on the wire is the persona's business, and
 * without a persona it is not sent) and `when` (see above). With the queue empty the server
 * answers 500 "mock-llm: no scripted reply".
 *
 * Personas (`POST /__script { persona: name | null }`) make the server behave like a real
 * provider's documented wire: refusing parameters, shaping streams, reasoning, tool-call quirks.
 * They live in ./personas/ (see index.mjs for the hooks); each cites where its behaviour is
 * documented.
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { PERSONAS } from './personas/index.mjs';
import { uniqueId } from './ids.mjs';

const STRUCTURED_NAMES = new Set(['validation_report', 'execution_plan', 'conversation_summary', 'data_dictionary']);
const DEFAULT_MODELS = ['mock-model', 'mock-model-mini'];
const EMBEDDING_DIMS = 64;

/** @typedef {{ data: object } | { raw: string } | { done: true }} StreamEvent */

/** Fresh mutable state; one per server. */
function freshState() {
  return { replies: [], routes: [], requests: [], models: [...DEFAULT_MODELS], embeddings: true, requireKey: undefined, persona: undefined, memo: {}, personaOptions: {} };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function corsHeaders(req) {
  const origin = req.headers.origin;
  const h = {
    'access-control-allow-origin': origin ?? '*',
    'access-control-expose-headers': 'Retry-After, retry-after-ms, x-request-id',
    vary: 'Origin',
  };
  if (origin) h['access-control-allow-credentials'] = 'true';
  return h;
}

function sendJson(res, req, status, body, extra = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...corsHeaders(req),
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return { raw, json: undefined };
  try {
    return { raw, json: JSON.parse(raw) };
  } catch {
    return { raw, json: undefined };
  }
}

/** Which structured-output call a request is, if any. */
export function structuredNameOf(body) {
  const rf = body?.response_format;
  if (rf && rf.type === 'json_schema' && typeof rf.json_schema?.name === 'string') return rf.json_schema.name;
  const tc = body?.tool_choice;
  if (tc && typeof tc === 'object' && typeof tc.function?.name === 'string') return tc.function.name;
  // JSON mode / plain text: the app names the object it wants in its instruction.
  if (!Array.isArray(body?.tools) || body.tools.length === 0) {
    const texts = (Array.isArray(body?.messages) ? body.messages : []).map((m) => (typeof m?.content === 'string' ? m.content : ''));
    for (const t of texts) {
      const m = /Answer with one JSON object \(the "([a-z_]+)"\)/.exec(t);
      if (m && STRUCTURED_NAMES.has(m[1])) return m[1];
    }
  }
  // A single bound tool with a structured name and tool_choice "required"/"any".
  if ((tc === 'required' || tc === 'any') && Array.isArray(body?.tools) && body.tools.length === 1) {
    const n = body.tools[0]?.function?.name;
    if (STRUCTURED_NAMES.has(n)) return n;
  }
  return undefined;
}

/** Calls the app makes on its own (a dictionary draft when a dataset is added) take only replies scripted for them. */
const BACKGROUND_NAMES = new Set(['data_dictionary']);

function takeFrom(queue, name) {
  let i = name ? queue.findIndex((r) => r.when === name) : -1;
  // A background call must not take the reply a script meant for the question asked next.
  if (i < 0 && !BACKGROUND_NAMES.has(name)) i = queue.findIndex((r) => r.when === undefined);
  if (i < 0) return undefined;
  return queue.splice(i, 1)[0];
}

/** The text of the request's user messages (string or content parts). */
function userText(body) {
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  return messages
    .filter((m) => m?.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? m.content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join(' ') : ''))
    .join('\n');
}

function takeReply(state, body) {
  const name = structuredNameOf(body);
  if (state.routes.length > 0) {
    const text = userText(body);
    const route = state.routes.find((r) => r.replies.length > 0 && text.includes(r.match));
    const reply = route && takeFrom(route.replies, name);
    if (reply) return reply;
  }
  return takeFrom(state.replies, name);
}

/** Splits a string into pieces of `size` characters (at least one piece). */
function pieces(text, size) {
  if (!text) return [];
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Normalises a reply into { content, toolCalls: [{ id, name, argsText }] }. */
function materialise(reply, body) {
  const out = materialiseParts(reply, body);
  if (typeof reply.reasoning === 'string') out.reasoning = reply.reasoning;
  return out;
}

function materialiseParts(reply, body) {
  const name = structuredNameOf(body);
  const callId = () => uniqueId('call');
  switch (reply.type) {
    case 'text':
    case 'cut':
      return { content: String(reply.content ?? ''), toolCalls: [] };
    // OpenAI's Structured Outputs refusal: `message.refusal` (or `delta.refusal` pieces) and no content.
    case 'refusal':
      return { content: '', toolCalls: [], modelRefusal: String(reply.refusal ?? '') };
    case 'tool_calls':
      return {
        content: reply.content ?? '',
        toolCalls: (reply.calls ?? []).map((c) => ({
          id: c.id ?? callId(),
          name: c.name,
          argsText: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}),
        })),
      };
    case 'malformed_tool_call':
      return { content: '', toolCalls: [{ id: reply.id ?? callId(), name: reply.name, argsText: String(reply.arguments_text) }] };
    case 'structured': {
      const text = JSON.stringify(reply.value ?? {});
      const forcedTool = body?.tool_choice && typeof body.tool_choice === 'object' ? body.tool_choice.function?.name : undefined;
      const viaTool = !body?.response_format && (forcedTool ?? (name && Array.isArray(body?.tools) ? name : undefined));
      if (viaTool) return { content: '', toolCalls: [{ id: callId(), name: viaTool, argsText: text }] };
      return { content: text, toolCalls: [] };
    }
    default:
      throw new Error(`mock-llm: unknown reply type ${reply.type}`);
  }
}

function completionId() {
  return uniqueId('chatcmpl-mock');
}

function usage(body, content) {
  const prompt = JSON.stringify(body?.messages ?? []).length;
  const completion = content.length;
  return {
    prompt_tokens: Math.ceil(prompt / 4),
    completion_tokens: Math.ceil(completion / 4),
    total_tokens: Math.ceil(prompt / 4) + Math.ceil(completion / 4),
  };
}

async function streamReply(req, res, state, body, reply, out) {
  const id = completionId();
  const created = Math.floor(Date.now() / 1000);
  const model = body.model ?? 'mock-model';
  const size = Math.max(1, reply.chunk_size ?? 4);
  const delay = reply.chunk_delay_ms ?? 0;
  res.writeHead(200, {
    ...corsHeaders(req),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  // Events are `{ data: object }` (one SSE data line), `{ raw: string }` (sent as is, e.g. an SSE
  // comment) or the final `{ done: true }`; a persona may rewrite the list before it is sent.
  /** @type {(delta: object, finish?: string | null, extra?: object) => StreamEvent} */
  const chunk = (delta, finish = null, extra = {}) => ({
    data: { id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }], ...extra },
  });

  const events = [chunk({ role: 'assistant', content: out.modelRefusal !== undefined ? null : '' })];
  for (const p of pieces(out.content, size)) events.push(chunk({ content: p }));
  if (out.modelRefusal !== undefined) for (const p of pieces(out.modelRefusal, size)) events.push(chunk({ refusal: p }));
  out.toolCalls.forEach((tc, index) => {
    events.push(chunk({ tool_calls: [{ index, id: tc.id, type: 'function', function: { name: tc.name, arguments: '' } }] }));
    // Arguments split across several chunks, as real providers do.
    for (const p of pieces(tc.argsText, Math.max(1, Math.ceil(tc.argsText.length / 3)))) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
    }
  });

  if (reply.type === 'cut') {
    const keep = reply.after_chunks ?? Math.max(2, Math.floor(events.length / 2));
    for (const e of events.slice(0, keep)) {
      res.write(sseText(e));
      if (delay) await sleep(delay);
    }
    // Let the partial chunks reach the client before the connection drops.
    await sleep(30);
    res.socket?.destroy();
    return;
  }

  events.push(chunk({}, out.toolCalls.length ? 'tool_calls' : 'stop'));
  if (body.stream_options?.include_usage) {
    events.push({ data: { id, object: 'chat.completion.chunk', created, model, choices: [], usage: usage(body, out.content) } });
  }
  events.push({ done: true });
  const persona = personaOf(state);
  const sent = persona?.stream ? persona.stream(events, { body, out, state, chunk }) : events;
  for (const e of sent) {
    if (res.destroyed) return;
    res.write(sseText(e));
    if (delay) await sleep(delay);
  }
  res.end();
}

function sseText(e) {
  if (typeof e === 'string') return e;
  if (e.raw !== undefined) return e.raw;
  if (e.done) return 'data: [DONE]\n\n';
  return `data: ${JSON.stringify(e.data)}\n\n`;
}

function personaOf(state) {
  return state.persona ? PERSONAS[state.persona] : undefined;
}

function wholeReply(req, res, state, body, reply, out) {
  if (reply.type === 'cut') {
    res.socket?.destroy();
    return;
  }
  const message = { role: 'assistant', content: out.modelRefusal !== undefined ? null : out.content || (out.toolCalls.length ? null : ''), refusal: out.modelRefusal ?? null };
  if (out.toolCalls.length) {
    message.tool_calls = out.toolCalls.map((tc) => ({ id: tc.id, type: 'function', function: { name: tc.name, arguments: tc.argsText } }));
  }
  const json = {
    id: completionId(),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model ?? 'mock-model',
    choices: [{ index: 0, message, finish_reason: out.toolCalls.length ? 'tool_calls' : 'stop', logprobs: null }],
    usage: usage(body, out.content),
  };
  const persona = personaOf(state);
  sendJson(res, req, 200, persona?.whole ? persona.whole(json, { body, out, state }) : json);
}

async function chatCompletions(req, res, state, body) {
  if (!body || !Array.isArray(body.messages)) {
    sendJson(res, req, 400, { error: { message: 'messages is required', type: 'invalid_request_error' } });
    return;
  }
  const persona = personaOf(state);
  // A persona may answer the whole request itself, bytes and timing included (personas/chaos.mjs).
  if (persona?.respond && (await persona.respond(body, { state, req, res, cors: corsHeaders(req) }))) return;
  // A provider refuses a request before any reply is spent (e.g. a parameter it does not take).
  const refusal = persona?.refuse?.(body, { state, req });
  if (refusal) {
    sendJson(res, req, refusal.status, refusal.body, refusal.headers ?? {});
    return;
  }
  const reply = takeReply(state, body);
  if (!reply) {
    sendJson(res, req, 500, { error: { message: 'mock-llm: no scripted reply left', type: 'server_error' } });
    return;
  }
  if (reply.delay_ms) await sleep(reply.delay_ms);
  if (reply.type === 'error') {
    const status = reply.status ?? 500;
    const extra = {};
    if (reply.retry_after !== undefined) extra['retry-after'] = String(reply.retry_after);
    const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_error' : 'server_error';
    sendJson(res, req, status, { error: { message: reply.message ?? `mock-llm scripted ${status}`, type, code: reply.code ?? null } }, extra);
    return;
  }
  let out = materialise(reply, body);
  if (persona?.shape) out = persona.shape(out, { body, state, reply });
  // A persona may refuse a whole (non-streamed) request after seeing the reply (e.g. Groq's
  // tool_use_failed); for streams its `stream` hook says how the refusal looks on the wire.
  if (out.refusal && !body.stream) {
    sendJson(res, req, out.refusal.status, out.refusal.body);
    return;
  }
  if (body.stream) await streamReply(req, res, state, body, reply, out);
  else wholeReply(req, res, state, body, reply, out);
}

/** A deterministic unit vector per text: hashed word counts, so similar texts are close. */
export function embedText(text) {
  const v = new Array(EMBEDDING_DIMS).fill(0);
  for (const w of String(text).toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)) {
    let h = 2166136261;
    for (let i = 0; i < w.length; i++) h = Math.imul(h ^ w.charCodeAt(i), 16777619) >>> 0;
    v[h % EMBEDDING_DIMS] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

function embeddings(req, res, state, body) {
  if (!state.embeddings) {
    sendJson(res, req, 404, { error: { message: 'this endpoint has no embeddings', type: 'invalid_request_error' } });
    return;
  }
  const inputs = Array.isArray(body?.input) ? body.input : [body?.input ?? ''];
  sendJson(res, req, 200, {
    object: 'list',
    model: body?.model ?? 'mock-embedding',
    data: inputs.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })),
    usage: { prompt_tokens: inputs.join(' ').length, total_tokens: inputs.join(' ').length },
  });
}

function authorised(req, state) {
  const persona = personaOf(state);
  if (persona?.authorised) return persona.authorised(req, state);
  return state.requireKey === undefined || req.headers.authorization === `Bearer ${state.requireKey}`;
}

async function handle(req, res, state) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname.replace(/\/+$/, '') || '/';
  const { raw, json } = await readBody(req);

  if (!path.startsWith('/__')) {
    state.requests.push({ method: req.method, path, query: url.search, headers: { ...req.headers }, body: json ?? raw, raw_body: raw, at: Date.now() });
  }

  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...corsHeaders(req),
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? 'authorization, content-type',
      'access-control-max-age': '600',
    });
    res.end();
    return;
  }

  // Script API
  if (path === '/__script' && req.method === 'POST') {
    const cfg = json ?? {};
    if (cfg.replace) state.replies = [];
    if (Array.isArray(cfg.replies)) state.replies.push(...cfg.replies);
    if (Array.isArray(cfg.routes)) state.routes = cfg.routes.map((r) => ({ match: String(r.match), replies: Array.isArray(r.replies) ? [...r.replies] : [] }));
    if (Array.isArray(cfg.models)) state.models = cfg.models.map(String);
    if (typeof cfg.embeddings === 'boolean') state.embeddings = cfg.embeddings;
    if ('require_key' in cfg) state.requireKey = cfg.require_key ?? undefined;
    if ('persona' in cfg) {
      if (cfg.persona !== null && !(cfg.persona in PERSONAS)) return sendJson(res, req, 400, { error: { message: `mock-llm: no persona ${cfg.persona}` } });
      state.persona = cfg.persona ?? undefined;
      state.memo = {};
    }
    // A persona's own settings (e.g. the chaos persona's seed and stall), kept until the next reset.
    if (cfg.persona_options && typeof cfg.persona_options === 'object') state.personaOptions = { ...cfg.persona_options };
    sendJson(res, req, 200, { queued: state.replies.length });
    return;
  }
  if (path === '/__script' && req.method === 'GET') return sendJson(res, req, 200, { replies: state.replies });
  if (path === '/__requests' && req.method === 'GET') return sendJson(res, req, 200, state.requests);
  if (path === '/__reset' && req.method === 'POST') {
    Object.assign(state, freshState());
    return sendJson(res, req, 200, { ok: true });
  }

  // OpenAI-compatible API (with or without the /v1 prefix)
  const api = path.replace(/^\/v1(?=\/)/, '');
  if (['/chat/completions', '/embeddings', '/models'].includes(api) && !authorised(req, state)) {
    return sendJson(res, req, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
  }
  if (api === '/chat/completions' && req.method === 'POST') return chatCompletions(req, res, state, json);
  if (api === '/embeddings' && req.method === 'POST') return embeddings(req, res, state, json);
  if (api === '/models' && req.method === 'GET') {
    return sendJson(res, req, 200, {
      object: 'list',
      data: state.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'mock-llm' })),
    });
  }
  sendJson(res, req, 404, { error: { message: `mock-llm: no route ${req.method} ${path}`, type: 'invalid_request_error' } });
}

/** Starts the server on 127.0.0.1; resolves once it listens. */
export function startMockLlm({ port = 0, host = '127.0.0.1' } = {}) {
  const state = freshState();
  const server = http.createServer((req, res) => {
    handle(req, res, state).catch((e) => {
      if (!res.headersSent) sendJson(res, req, 500, { error: { message: `mock-llm: ${e.message}`, type: 'server_error' } });
      else res.destroy();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const addr = server.address();
      const actual = typeof addr === 'object' && addr ? addr.port : port;
      resolve({
        url: `http://${host}:${actual}`,
        port: actual,
        state,
        close: () =>
          /** @type {Promise<void>} */ (new Promise((r) => {
            server.closeAllConnections?.();
            server.close(() => r());
          })),
      });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.argv[2] ?? process.env.MOCK_LLM_PORT ?? 4290);
  const { url } = await startMockLlm({ port });
  console.log(`mock-llm listening on ${url}`);
}
