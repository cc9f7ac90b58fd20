/**
 * Common OpenAI-compatible providers (the user supplies the key), with what a new user needs to
 * know about each: where the base URL comes from, the header the key goes in, and whether a web
 * page may call the provider at all (CORS). Plain data shared by the settings UI and the agent
 * worker; it imports nothing, so the app shell can use it without the worker's LangChain modules.
 * How a request is shaped for each provider is the agent's (workers/agent/llm/providerRequest.ts).
 */

/** How a browser page may reach the provider. */
export type CorsSupport = 'allowed' | 'needs-setup' | 'unknown';

export interface EndpointPreset {
  name: string;
  baseUrl: string;
  /** `bearer`: `Authorization: Bearer <key>`; `azure`: `api-key: <key>` and an `api-version` query. */
  auth: 'bearer' | 'azure';
  cors: CorsSupport;
  /** One or two sentences for the settings dialog. */
  note: string;
  /** Hosts (or host suffixes, starting with a dot) that identify this provider in a typed URL. */
  hosts: readonly string[];
}

/** Azure OpenAI's GA data-plane version (https://learn.microsoft.com/azure/ai-foundry/openai/reference). */
export const AZURE_API_VERSION = '2024-10-21';

const ROUTER_ADVICE = 'If the browser blocks the call, use the provider through OpenRouter (which allows web pages) or a local proxy that adds CORS headers.';

export const ENDPOINT_PRESETS: readonly EndpointPreset[] = [
  {
    name: 'OpenAI',
    baseUrl: 'https://api.openai.com/v1',
    auth: 'bearer',
    cors: 'allowed',
    hosts: ['api.openai.com'],
    note: 'gpt-5 and o-series models take no temperature; Dataseer leaves it out for them.',
  },
  {
    name: 'Azure OpenAI',
    baseUrl: 'https://YOUR-RESOURCE.openai.azure.com/openai/deployments/YOUR-DEPLOYMENT',
    auth: 'azure',
    cors: 'allowed',
    hosts: ['.openai.azure.com', '.cognitiveservices.azure.com', '.services.ai.azure.com'],
    note: `Use your deployment's URL (resource and deployment names from the Azure portal); the key goes in the api-key header and api-version=${AZURE_API_VERSION} is added unless the URL gives one. The model field is the deployment's model.`,
  },
  {
    name: 'OpenRouter',
    baseUrl: 'https://openrouter.ai/api/v1',
    auth: 'bearer',
    cors: 'allowed',
    hosts: ['openrouter.ai'],
    note: 'Many providers behind one key; works from web pages. Reasoning models stream their thinking, shown under Thinking.',
  },
  {
    name: 'Groq',
    baseUrl: 'https://api.groq.com/openai/v1',
    auth: 'bearer',
    cors: 'allowed',
    hosts: ['api.groq.com'],
    note: 'Fast Llama and Qwen models; a badly written tool call is refused (tool_use_failed) and retried by Dataseer.',
  },
  {
    name: 'DeepSeek',
    baseUrl: 'https://api.deepseek.com/v1',
    auth: 'bearer',
    cors: 'unknown',
    hosts: ['api.deepseek.com'],
    note: `No JSON-schema output (Dataseer falls back to function calling); deepseek-reasoner's thinking is shown under Thinking. ${ROUTER_ADVICE}`,
  },
  {
    name: 'Together',
    baseUrl: 'https://api.together.xyz/v1',
    auth: 'bearer',
    cors: 'unknown',
    hosts: ['api.together.xyz'],
    note: `Open models; pick one whose card says it supports function calling. ${ROUTER_ADVICE}`,
  },
  {
    name: 'Mistral',
    baseUrl: 'https://api.mistral.ai/v1',
    auth: 'bearer',
    cors: 'unknown',
    hosts: ['api.mistral.ai'],
    note: `Mistral's own API. ${ROUTER_ADVICE}`,
  },
  {
    name: 'xAI',
    baseUrl: 'https://api.x.ai/v1',
    auth: 'bearer',
    cors: 'unknown',
    hosts: ['api.x.ai'],
    note: `Grok models. ${ROUTER_ADVICE}`,
  },
  {
    name: 'Google Gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta/openai',
    auth: 'bearer',
    cors: 'allowed',
    hosts: ['generativelanguage.googleapis.com'],
    note: "Gemini's OpenAI-compatible endpoint with a Google AI Studio key; model names like gemini-2.5-flash.",
  },
  {
    name: 'Anthropic',
    baseUrl: 'https://api.anthropic.com/v1',
    auth: 'bearer',
    cors: 'unknown',
    hosts: ['api.anthropic.com'],
    note: `Anthropic's OpenAI SDK compatibility endpoint (claude-… models). Browser calls carry the anthropic-dangerous-direct-browser-access header Anthropic requires. ${ROUTER_ADVICE}`,
  },
  {
    name: 'Ollama',
    baseUrl: 'http://localhost:11434/v1',
    auth: 'bearer',
    cors: 'needs-setup',
    hosts: ['localhost:11434', '127.0.0.1:11434'],
    note: "Local; no key. Start Ollama with OLLAMA_ORIGINS set to this page's origin (e.g. OLLAMA_ORIGINS=* ollama serve) so the browser may call it.",
  },
  {
    name: 'LM Studio',
    baseUrl: 'http://localhost:1234/v1',
    auth: 'bearer',
    cors: 'needs-setup',
    hosts: ['localhost:1234', '127.0.0.1:1234'],
    note: 'Local; no key. Turn on "Enable CORS" in the Developer tab\'s server settings.',
  },
  {
    name: 'llama.cpp',
    baseUrl: 'http://localhost:8080/v1',
    auth: 'bearer',
    cors: 'allowed',
    hosts: ['localhost:8080', '127.0.0.1:8080'],
    note: 'Local llama-server; start it with --jinja so tool calls work. Reasoning models without --reasoning-format show their <think> text under Thinking.',
  },
  {
    name: 'vLLM',
    baseUrl: 'http://localhost:8000/v1',
    auth: 'bearer',
    cors: 'allowed',
    hosts: ['localhost:8000', '127.0.0.1:8000'],
    note: 'Local vLLM server; tool calls need --enable-auto-tool-choice and a --tool-call-parser for the model.',
  },
];

/** The preset a typed base URL belongs to, by host. */
export function presetFor(baseUrl: string): EndpointPreset | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return undefined;
  }
  const host = url.host.toLowerCase();
  const hostname = url.hostname.toLowerCase();
  return ENDPOINT_PRESETS.find((p) => p.hosts.some((h) => (h.startsWith('.') ? hostname.endsWith(h) : host === h)));
}

/** What to tell a user whose request never reached the endpoint, for the preset they use. */
export function networkAdvice(baseUrl: string): string {
  const p = presetFor(baseUrl);
  if (!p) return 'If the endpoint does not allow calls from web pages (CORS), use a router that does (e.g. OpenRouter) or a local proxy.';
  if (p.cors === 'needs-setup') return `${p.name}: ${p.note}`;
  if (p.cors === 'unknown') return `${p.name} may not allow calls from web pages (CORS). ${ROUTER_ADVICE}`;
  return `Check the base URL and your connection to ${p.name}.`;
}
