/**
 * The chaos endpoint (issue 30): from a seed, every chat-completion request is answered with one
 * of the failure shapes real servers produce — each error body shape the wire reads
 * (workers/agent/llm/wire/errorBody.ts) under each status of STATUSES, an HTML error page from a
 * proxy, truncated JSON, a stream that stops without `[DONE]`, an error event inside a 200
 * stream, `choices: []`, empty content with no tool call, tool-call arguments that are not JSON,
 * a stall, and a 200 whose body is not JSON.
 *
 * Options (`persona_options` of /__script): `seed` (default 1), `stall_ms` (default 60000; tests
 * use a short one). The n-th request of the server's life under the persona gets `chaosShape(seed, n)`,
 * so a test can tell which shape ended each run.
 */
import { uniqueId } from '../ids.mjs';

export const STATUSES = [400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 529];

/** Error body shapes, each as a provider sends it (see errorBody.ts for the sources). */
export const BODY_SHAPES = {
  openai: (status, words) => ({ error: { message: words, type: 'invalid_request_error', param: null, code: String(status) } }),
  vllm: (status, words) => ({ object: 'error', message: words, type: 'BadRequestError', param: null, code: status }),
  google: (status, words) => [{ error: { code: status, message: words, status: 'INVALID_ARGUMENT' } }],
  string: (_status, words) => ({ error: words }),
  fastapi: (_status, words) => ({ detail: words }),
  openrouter: (status, words) => ({ error: { message: 'Provider returned error', code: status, metadata: { raw: JSON.stringify({ error: { message: words } }), provider_name: 'Chaos' } } }),
};

/** The stream and body shapes that are not an error status. */
export const WIRE_SHAPES = ['html', 'truncated_json', 'no_done', 'stream_error_event', 'empty_choices', 'empty_content', 'bad_tool_args', 'stall', 'not_json'];

/** Every shape the persona picks from: `status:<code>:<body>` for error statuses, then the wire shapes. */
export const SHAPES = [...STATUSES.flatMap((s) => Object.keys(BODY_SHAPES).map((b) => `status:${s}:${b}`)), ...WIRE_SHAPES];

/** The provider's words a shape carries (what the run's message should quote). */
export function wordsOf(shape) {
  if (shape.startsWith('status:')) return `chaos says ${shape.split(':')[1]}`;
  if (shape === 'stream_error_event') return 'chaos upstream overloaded';
  if (shape === 'html') return '502 Bad Gateway';
  return undefined;
}

/** The status a shape answers with. */
export function statusOf(shape) {
  if (shape.startsWith('status:')) return Number(shape.split(':')[1]);
  if (shape === 'html') return 502;
  return 200;
}

/** mulberry32: a small seeded generator, so the same seed gives the same sequence. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const orders = new Map();
/** The shapes in a seeded order (Fisher–Yates); each round of SHAPES.length requests has its own. */
function order(seed, round) {
  const key = `${seed}:${round}`;
  let o = orders.get(key);
  if (!o) {
    const next = random(Math.imul(seed, 2654435761) + round);
    o = [...SHAPES];
    for (let i = o.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [o[i], o[j]] = [o[j], o[i]];
    }
    orders.set(key, o);
  }
  return o;
}

/** The shape of the n-th request under `seed`: every shape once per round of SHAPES.length requests. */
export function chaosShape(seed, n) {
  return order(seed, Math.floor(n / SHAPES.length))[n % SHAPES.length];
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One id per streamed response (its chunks share it), unique across responses. */
const streamIds = new WeakMap();
/** @param {any} body */
function streamId(body) {
  let id = streamIds.get(body);
  if (!id) streamIds.set(body, (id = uniqueId('chatcmpl-chaos')));
  return id;
}

/** @param {any} body @param {object} delta @param {string | null} [finish] */
function chunk(body, delta, finish = null) {
  return { id: streamId(body), object: 'chat.completion.chunk', created: 0, model: body.model ?? 'chaos', choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] };
}

function completion(body, message, finish = 'stop') {
  return { id: uniqueId('chatcmpl-chaos'), object: 'chat.completion', created: 0, model: body.model ?? 'chaos', choices: [{ index: 0, message, finish_reason: finish, logprobs: null }] };
}

function send(res, cors, status, type, text) {
  res.writeHead(status, { ...cors, 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function sse(res, cors, events, done = true) {
  res.writeHead(200, { ...cors, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const e of events) res.write(typeof e === 'string' ? e : `data: ${JSON.stringify(e)}\n\n`);
  if (done) res.write('data: [DONE]\n\n');
  res.end();
}

/** A reply made of `message` (whole or streamed, as the request asked). */
function reply(res, cors, body, message, finish = 'stop') {
  if (!body.stream) return send(res, cors, 200, 'application/json', JSON.stringify(completion(body, message, finish)));
  const events = [chunk(body, { role: 'assistant', content: '' })];
  if (message.content) events.push(chunk(body, { content: message.content }));
  (message.tool_calls ?? []).forEach((tc, index) => events.push(chunk(body, { tool_calls: [{ index, ...tc }] })));
  events.push(chunk(body, {}, finish));
  return sse(res, cors, events);
}

export const chaosPersonas = {
  chaos: {
    doc: 'testing/mock-llm/personas/chaos.mjs (issue 30)',
    async respond(body, { state, res, cors }) {
      const seed = Number(state.personaOptions?.seed ?? 1);
      const stall = Number(state.personaOptions?.stall_ms ?? 60_000);
      const n = Number(state.memo.n ?? 0);
      state.memo.n = n + 1;
      const shape = chaosShape(seed, n);
      if (shape.startsWith('status:')) {
        const [, code, bodyShape] = shape.split(':');
        const status = Number(code);
        send(res, cors, status, 'application/json', JSON.stringify(BODY_SHAPES[bodyShape](status, wordsOf(shape))));
        return true;
      }
      switch (shape) {
        case 'html':
          send(res, cors, 502, 'text/html', '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>');
          return true;
        case 'truncated_json': {
          const text = JSON.stringify(completion(body, { role: 'assistant', content: 'The answer is 42.' }));
          send(res, cors, 200, 'application/json', text.slice(0, Math.floor(text.length / 2)));
          return true;
        }
        case 'no_done':
          if (!body.stream) {
            res.writeHead(200, { ...cors, 'content-type': 'application/json' });
            res.write('{"id":"chatcmpl-chaos","choices":[');
            res.end();
            return true;
          }
          sse(res, cors, [chunk(body, { role: 'assistant', content: '' }), chunk(body, { content: 'The answ' })], false);
          return true;
        case 'stream_error_event':
          if (!body.stream) {
            send(res, cors, 200, 'application/json', JSON.stringify({ error: { message: wordsOf(shape), code: 502 } }));
            return true;
          }
          sse(res, cors, [chunk(body, { role: 'assistant', content: '' }), chunk(body, { content: 'Part' }), { error: { message: wordsOf(shape), code: 502 } }], false);
          return true;
        case 'empty_choices':
          if (!body.stream) send(res, cors, 200, 'application/json', JSON.stringify({ ...completion(body, { role: 'assistant', content: '' }), choices: [] }));
          else sse(res, cors, [{ ...chunk(body, {}), choices: [] }]);
          return true;
        case 'empty_content':
          reply(res, cors, body, { role: 'assistant', content: '' });
          return true;
        case 'bad_tool_args': {
          const name = Array.isArray(body.tools) && body.tools[0]?.function?.name ? body.tools[0].function.name : 'run_sql';
          reply(res, cors, body, { role: 'assistant', content: null, tool_calls: [{ id: `call_chaos_${n}`, type: 'function', function: { name, arguments: '{"sql": SELECT 1' } }] }, 'tool_calls');
          return true;
        }
        case 'stall':
          // Holds the request open without a byte, then drops the connection.
          await sleep(stall);
          res.socket?.destroy();
          return true;
        case 'not_json':
          send(res, cors, 200, 'application/json', 'Service temporarily unavailable, please try again later');
          return true;
      }
      return false;
    },
  },
};
