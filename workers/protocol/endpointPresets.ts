/**
 * Base URLs of common OpenAI-compatible providers (the user supplies the key). Plain data shared
 * by the settings UI and the agent worker; it imports nothing, so the app shell can use it
 * without pulling in the worker's LangChain modules.
 */
export const ENDPOINT_PRESETS = [
  { name: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
  { name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1' },
  { name: 'Groq', baseUrl: 'https://api.groq.com/openai/v1' },
  { name: 'Together', baseUrl: 'https://api.together.xyz/v1' },
  { name: 'Ollama', baseUrl: 'http://localhost:11434/v1' },
  { name: 'LM Studio', baseUrl: 'http://localhost:1234/v1' },
] as const;
