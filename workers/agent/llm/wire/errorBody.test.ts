import { describe, expect, it } from 'vitest';
import { isModelNotFound, openAiErrorJson, readErrorBody } from './errorBody';

describe('readErrorBody: every documented shape gives the provider’s own words', () => {
  it('OpenAI: an object under `error`', () => {
    // https://platform.openai.com/docs/guides/error-codes ; body as reported in https://github.com/QwenLM/qwen-code/issues/921
    const b = readErrorBody(JSON.stringify({ error: { message: "Unsupported parameter: 'max_tokens' is not supported with this model.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' } }));
    expect(b).toEqual({ message: "Unsupported parameter: 'max_tokens' is not supported with this model.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' });
  });

  it('Google’s OpenAI-compatible endpoint: a JSON array of error objects (the SDK showed "400 status code (no body)")', () => {
    // https://github.com/manthanabc/paws/issues/103 , https://github.com/niki914/zafiro/issues/100
    const text = `[{\n  "error": {\n    "code": 400,\n    "message": "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n]`;
    const b = readErrorBody(text, 'application/json');
    expect(b.message).toBe('Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly.');
    expect(b.status).toBe(400);
    expect(b.type).toBe('INVALID_ARGUMENT');
  });

  it('OpenRouter: the upstream provider’s words from metadata.raw, not "Provider returned error"', () => {
    // https://github.com/reVrost/go-openrouter/pull/21 , https://github.com/crmne/ruby_llm/pull/431
    const raw = JSON.stringify({ error: { code: 'unsupported_country_region_territory', message: 'Country, region, or territory not supported', param: null, type: 'request_forbidden' } });
    const b = readErrorBody(JSON.stringify({ error: { message: 'Provider returned error', code: 403, metadata: { raw, provider_name: 'OpenAI' } }, user_id: 'user_2' }));
    expect(b.message).toBe('Country, region, or territory not supported');
    expect(b.provider).toBe('OpenAI');
    expect(b.status).toBe(403);
    // metadata.raw as plain text: https://github.com/open-webui/computer/issues/293
    const plain = readErrorBody(JSON.stringify({ error: { message: 'Provider returned error', code: 429, metadata: { raw: 'z-ai/glm is temporarily rate-limited upstream. Please retry shortly.', provider_name: 'BaseTen' } } }));
    expect(plain.message).toBe('z-ai/glm is temporarily rate-limited upstream. Please retry shortly.');
    expect(plain.status).toBe(429);
  });

  it('Groq: tool_use_failed keeps its code', () => {
    // https://github.com/groq/groq-typescript/issues/28
    const b = readErrorBody(JSON.stringify({ error: { message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.", type: 'invalid_request_error', code: 'tool_use_failed', failed_generation: '<function=x>{}</function>' } }));
    expect(b.code).toBe('tool_use_failed');
    expect(b.message).toContain('Failed to call a function');
  });

  it('vLLM and SGLang: a top-level message with object "error" (the SDK showed "400 status code (no body)")', () => {
    // https://github.com/QwenLM/Qwen3/issues/241 ; the symptom: https://github.com/huggingface/chat-ui/issues/1343
    const b = readErrorBody(JSON.stringify({ object: 'error', message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', param: null, code: 400 }));
    expect(b).toEqual({ message: '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set', type: 'BadRequestError', code: 400, status: 400 });
  });

  it('Ollama, TGI and LM Studio: `{"error": "…"}` as a string', () => {
    // Ollama: https://github.com/otwld/ollama-helm/issues/61 ; TGI (with error_type): https://github.com/huggingface/transformers/issues/28523 ;
    // LM Studio (on HTTP 200): https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/618
    expect(readErrorBody('{"error":"model \'tinyllama\' not found, try pulling it first"}').message).toBe("model 'tinyllama' not found, try pulling it first");
    expect(readErrorBody('{"error":"Input validation error: `max_new_tokens` must be <= 192","error_type":"validation"}')).toEqual({ message: 'Input validation error: `max_new_tokens` must be <= 192', type: 'validation' });
    expect(readErrorBody('{"error":"Unexpected endpoint or method. (POST /chat/completions)"}').message).toBe('Unexpected endpoint or method. (POST /chat/completions)');
  });

  it('llama.cpp: exceed_context_size_error with the window it has', () => {
    // https://github.com/ggml-org/llama.cpp/pull/15780 , https://github.com/oobabooga/textgen/issues/7257
    const b = readErrorBody(JSON.stringify({ error: { code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 14429, n_ctx: 8192 } }));
    expect(b).toMatchObject({ type: 'exceed_context_size_error', contextTokens: 8192, promptTokens: 14429, status: 400 });
  });

  it('LiteLLM: `code` as a string, `type` null', () => {
    // https://github.com/BerriAI/litellm/pull/8886
    const b = readErrorBody(JSON.stringify({ error: { message: "litellm.BadRequestError: You passed in model=None. There is no 'model_name' with this string ", type: null, param: null, code: '400' } }));
    expect(b).toEqual({ message: "litellm.BadRequestError: You passed in model=None. There is no 'model_name' with this string", code: '400', status: 400 });
  });

  it('plain text, an HTML page from a proxy, and nothing at all', () => {
    // LM Studio without a model loaded answers in text: https://github.com/lmstudio-ai/lms/issues/107
    expect(readErrorBody('No models loaded. Please load a model in the developer page or use the `lms load` command', 'text/plain').message).toBe('No models loaded. Please load a model in the developer page or use the `lms load` command');
    const html = readErrorBody('<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>', 'text/html');
    expect(html).toEqual({ message: '502 Bad Gateway', html: true });
    expect(readErrorBody('')).toEqual({ message: '', empty: true });
  });
});

describe('openAiErrorJson', () => {
  it('rewrites any shape into the object the SDK reads its message from', () => {
    const json = JSON.parse(openAiErrorJson(readErrorBody('[{"error":{"code":400,"message":"Bad thing","status":"INVALID_ARGUMENT"}}]'), 400)) as { error: Record<string, unknown> };
    expect(json.error).toMatchObject({ message: 'Bad thing', type: 'INVALID_ARGUMENT', code: 400, http_status: 400 });
    expect(JSON.parse(openAiErrorJson(readErrorBody(''), 502))).toMatchObject({ error: { message: 'HTTP 502 with no body', empty: true } });
  });
});

describe('isModelNotFound: the words servers use for a model they do not serve', () => {
  it('knows each server’s phrasing, and not other refusals', () => {
    // Ollama: https://github.com/otwld/ollama-helm/issues/61 ; LM Studio: https://github.com/lmstudio-ai/lms/issues/107 ,
    // https://github.com/icereed/paperless-gpt/issues/908 ; OpenAI's code: https://platform.openai.com/docs/guides/error-codes
    for (const words of [
      "model 'tinyllama' not found, try pulling it first",
      'No models loaded. Please load a model in the developer page or use the `lms load` command',
      'Invalid model identifier "qwen/qwen2.5vl-7b". Please specify a valid downloaded model',
      'The model `gpt-9` does not exist or you do not have access to it.',
      'model_not_found',
    ]) expect(isModelNotFound(words), words).toBe(true);
    expect(isModelNotFound('"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set')).toBe(false);
    expect(isModelNotFound('Incorrect API key provided')).toBe(false);
  });
});
