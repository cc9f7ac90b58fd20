/**
 * Structured output that lands on any endpoint: a ladder of ways to ask for a JSON object —
 * JSON schema (`response_format: json_schema`) → a forced function call → `json_object` with the
 * schema in the prompt → plain text read tolerantly — each answer checked with zod. A rung fails
 * on a refusal (DeepSeek takes only `text`/`json_object`: "This response_format type is
 * unavailable now", https://github.com/llm-exe/llm-exe/issues/662; some servers refuse a
 * `tool_choice` naming a function) or on an answer that does not parse or fit the schema. The
 * first rung that works is remembered per endpoint + model, so later calls start there. Failures
 * that no other rung can fix (key, rate limit, network, Stop) are thrown at once.
 */
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatOpenAICompletions } from '@langchain/openai';
import { toJsonSchema } from '@langchain/core/utils/json_schema';
import type { z } from 'zod';
import { STRUCTURED_RUNGS, type StructuredRung } from './endpointProfile';
import { classifyLlmError } from './chatModel';
import { splitThink } from './wire/thinkSplitter';
import { balancedJsonAt, parseLooseJson } from './wire/toolCallText';
import { messageOf } from '../../../shared/errors';

export interface LadderMemory {
  /** Where to start (the rung that worked last time), if known. */
  rung(): StructuredRung | undefined;
  remember(rung: StructuredRung): void;
}

export function transientLadder(): LadderMemory {
  let r: StructuredRung | undefined;
  return { rung: () => r, remember: (x) => void (r = x) };
}

export const RUNG_LABELS: Record<StructuredRung, string> = {
  json_schema: 'JSON schema',
  function_calling: 'function calling',
  json_object: 'JSON mode',
  text: 'plain text',
};

export class StructuredOutputError extends Error {
  constructor(readonly name_: string, readonly failures: { rung: StructuredRung; reason: string }[]) {
    super(`No way of getting a ${name_} worked: ${failures.map((f) => `${RUNG_LABELS[f.rung]}: ${f.reason}`).join('; ')}.`);
    this.name = 'StructuredOutputError';
  }
}

/** The model declined to answer (OpenAI's `refusal`): no other way of asking changes its mind. */
export class StructuredRefusalError extends Error {
  constructor(readonly name_: string, readonly refusal: string) {
    super(`The model declined to write the ${name_}: ${refusal}`);
    this.name = 'StructuredRefusalError';
  }
}

/** Failures another rung cannot fix. */
const FATAL = new Set(['auth', 'rate_limit', 'network', 'timeout', 'aborted', 'not_found', 'server']);

/** The JSON object in a model's text: fenced, surrounded by prose, after a think block, with trailing commas. */
export function tolerantJson(text: string): unknown {
  const { content } = splitThink(text);
  const t = content.trim();
  const fence = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(t);
  const candidates = [fence?.[1]?.trim(), t].filter((c): c is string => !!c);
  for (const c of candidates) {
    const direct = parseLooseJson(c);
    if (typeof direct === 'object' && direct !== null) return direct;
    for (let i = c.indexOf('{'); i >= 0; i = c.indexOf('{', i + 1)) {
      const block = balancedJsonAt(c, i);
      if (!block) continue;
      const parsed = parseLooseJson(block);
      if (typeof parsed === 'object' && parsed !== null) return parsed;
    }
  }
  throw new Error('the answer holds no JSON object');
}

function schemaPrompt(name: string, schema: z.ZodType): string {
  return `Answer with one JSON object (the "${name}") and nothing else, matching this JSON Schema:\n${JSON.stringify(toJsonSchema(schema))}`;
}

/**
 * A rung's failure in a few words: LangChain's parser errors carry the whole answer and a
 * "Troubleshooting URL" to its docs, and zod's a JSON dump of every issue — neither helps a user.
 */
export function short(e: unknown): string {
  if (e instanceof Error && Array.isArray((e as { issues?: unknown }).issues)) {
    const issues = (e as unknown as { issues: { path: PropertyKey[]; message: string }[] }).issues;
    const first = issues[0];
    if (issues.length === 1 && first?.path.length === 0 && /received undefined/.test(first.message)) return 'no answer came in that form';
    const at = first?.path.length ? ` at ${first.path.map(String).join('.')}` : '';
    return `the answer did not fit the form (${issues.length} problem${issues.length === 1 ? '' : 's'}; first${at}: ${first?.message ?? 'invalid'})`;
  }
  if (e instanceof SyntaxError) return 'the answer was not a readable JSON object';
  const m = messageOf(e).replace(/\s*Troubleshooting URL: \S+/g, '');
  if ((e as { lc_error_code?: unknown } | null)?.lc_error_code === 'OUTPUT_PARSING_FAILURE' || /^Failed to parse\b/.test(m)) return 'the answer was not a readable JSON object';
  return m.replace(/\s+/g, ' ').trim().slice(0, 200);
}

export interface StructuredCaller<T> {
  invoke(messages: BaseMessage[], options?: { signal?: AbortSignal }): Promise<T>;
}

export function structuredOutput<T>(
  model: ChatOpenAICompletions,
  schema: z.ZodType<T>,
  name: string,
  memory: LadderMemory,
  onAdapt?: (detail: string) => void,
  /** The last answer's refusal, when the endpoint said one (llm/refusalWatch.ts). */
  refusal?: () => Promise<string | undefined>,
): StructuredCaller<T> {
  // Each rung is built when it is first tried, inside the ladder's `try`: a library that refuses a
  // method at construction ("JSON Schema is not supported for model \"gpt-3.5-turbo\"",
  // @langchain/openai utils/output.js) makes that rung fail — never an exception that escapes
  // before a request is sent.
  type Runnable = { invoke(messages: BaseMessage[], options: { signal?: AbortSignal }): Promise<unknown> };
  const built = new Map<StructuredRung, Runnable>();
  const METHOD = { function_calling: 'functionCalling', json_object: 'jsonMode' } as const;
  function via(rung: keyof typeof METHOD): Runnable {
    let r = built.get(rung);
    if (!r) {
      r = model.withStructuredOutput(schema, { name, method: METHOD[rung] });
      built.set(rung, r);
    }
    return r;
  }
  /**
   * The JSON-schema rung asks the endpoint itself: `response_format` of type `json_schema`, as
   * withStructuredOutput would send it, but without the library's verdict by model name (it
   * refuses gpt-3* / gpt-4 / gpt-4-* before any request, though many servers use those names for
   * models that take a schema). A refusal from the endpoint moves the ladder down, as before.
   */
  let viaSchema: ReturnType<typeof model.withConfig> | undefined;
  function schemaCall() {
    viaSchema ??= model.withConfig({ response_format: { type: 'json_schema', json_schema: { name, schema: toJsonSchema(schema) as Record<string, unknown> } } });
    return viaSchema;
  }

  async function attempt(rung: StructuredRung, messages: BaseMessage[], signal: AbortSignal | undefined): Promise<T> {
    const opts = signal ? { signal } : {};
    switch (rung) {
      case 'json_schema': {
        const reply = await schemaCall().invoke(messages, opts);
        return schema.parse(tolerantJson(reply.text));
      }
      case 'function_calling':
        return schema.parse(await via(rung).invoke(messages, opts));
      case 'json_object':
        return schema.parse(await via(rung).invoke([new SystemMessage(schemaPrompt(name, schema)), ...messages], opts));
      case 'text': {
        const reply = await model.invoke([...messages, new HumanMessage(schemaPrompt(name, schema))], opts);
        return schema.parse(tolerantJson(reply.text));
      }
    }
  }

  return {
    async invoke(messages, options = {}) {
      const start = Math.max(0, STRUCTURED_RUNGS.indexOf(memory.rung() ?? 'json_schema'));
      const failures: { rung: StructuredRung; reason: string }[] = [];
      // From the remembered rung down, then the stricter ones above it (they may work again).
      const order = [...STRUCTURED_RUNGS.slice(start), ...STRUCTURED_RUNGS.slice(0, start)];
      for (const rung of order) {
        try {
          const value = await attempt(rung, messages, options.signal);
          if (memory.rung() !== rung) memory.remember(rung);
          if (failures.length) {
            onAdapt?.(`The ${name} came via ${RUNG_LABELS[rung]} (${failures.map((f) => `${RUNG_LABELS[f.rung]}: ${f.reason}`).join('; ')}); later calls start there.`);
          }
          return value;
        } catch (e) {
          if (options.signal?.aborted) throw e;
          const kind = classifyLlmError(e).kind;
          if (FATAL.has(kind)) throw e;
          const declined = await refusal?.();
          if (declined) throw new StructuredRefusalError(name, declined);
          failures.push({ rung, reason: short(e) });
        }
      }
      throw new StructuredOutputError(name, failures);
    },
  };
}
