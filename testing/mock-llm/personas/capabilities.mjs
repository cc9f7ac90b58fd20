/**
 * Personas for servers that lack a capability the agent would like (issue #22): no automatic
 * tool calls, no tools at all, a small context window. Each refuses as the real server does and
 * otherwise answers like the models people run on it; each cites its source.
 */

/** The calls of `out` as the text a model writes without native tool calls, via `write`. */
function writeCalls(out, body, write) {
  if (Array.isArray(body.tools) && body.tools.length) return out;
  if (!out.toolCalls.length) return out;
  const text = out.toolCalls.map((tc) => write(tc.name, JSON.parse(tc.argsText))).join('\n');
  return { ...out, content: text, toolCalls: [] };
}

const autoChoice = (body) => Array.isArray(body.tools) && body.tools.length > 0 && (body.tool_choice === undefined || body.tool_choice === 'auto');

/** The prompt size as a llama-server counts it here: a token per 3.2 characters of messages and tools. */
export function llamaPromptTokens(body) {
  return Math.ceil((JSON.stringify(body.messages ?? []).length + (Array.isArray(body.tools) ? JSON.stringify(body.tools).length : 0)) / 3.2);
}

export const LLAMA_N_CTX = 4096;

export const capabilityPersonas = {
  /**
   * vLLM started without `--enable-auto-tool-choice`: any request with tools and `tool_choice`
   * "auto" (or none) is refused with HTTP 400 and a top-level error object
   * (https://github.com/langchain4j/langchain4j/issues/3475); named tool choice and
   * `response_format` still work. A Qwen/Hermes-style model then writes its calls in
   * `<tool_call>` tags (https://github.com/vllm-project/vllm/issues/55754 shows the parser pairing).
   */
  'vllm-no-auto-tools': {
    doc: 'https://github.com/langchain4j/langchain4j/issues/3475',
    refuse(body) {
      if (!autoChoice(body)) return undefined;
      return { status: 400, body: { object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', param: null, code: 400 } };
    },
    shape: (out, { body }) => writeCalls(out, body, (name, args) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`),
  },

  /**
   * An Ollama model whose template has no tools: every request with `tools` is refused
   * (HTTP 400 `{"error":{"message":"registry.ollama.ai/library/gemma3:4b does not support tools",
   * "type":"api_error","param":null,"code":null}}`, https://github.com/louisho5/picobot/issues/6,
   * https://github.com/ollama/ollama/issues/5793). Such models write a call as fenced JSON after a
   * sentence (https://github.com/ollama/ollama/issues/13519).
   */
  'ollama-no-tools': {
    doc: 'https://github.com/ollama/ollama/issues/5793',
    refuse(body) {
      if (!Array.isArray(body.tools) || body.tools.length === 0) return undefined;
      return { status: 400, body: { error: { message: `registry.ollama.ai/library/${body.model} does not support tools`, type: 'api_error', param: null, code: null } } };
    },
    shape: (out, { body }) => writeCalls(out, body, (name, args) => `I will use ${name} for this.\n\`\`\`json\n${JSON.stringify({ name, parameters: args }, null, 1)}\n\`\`\``),
  },

  /**
   * llama-server started with `-c 4096`: a prompt longer than the context is refused with
   * `exceed_context_size_error`, `n_prompt_tokens` and `n_ctx` (HTTP 400 since
   * https://github.com/ggml-org/llama.cpp/pull/16486; body as in
   * https://github.com/oobabooga/textgen/issues/7257).
   */
  'llamacpp-4k': {
    doc: 'https://github.com/oobabooga/textgen/issues/7257',
    refuse(body) {
      const tokens = llamaPromptTokens(body);
      if (tokens <= LLAMA_N_CTX) return undefined;
      return {
        status: 400,
        body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: tokens, n_ctx: LLAMA_N_CTX } },
      };
    },
  },
};
