/**
 * Rules about the *messages* an endpoint takes, learned from its own words when it refuses a
 * request (HTTP 400/422), by class — never by vendor or model name:
 *
 * - a refused role: `developer` → sent as `system`; `system` → its instructions folded into the
 *   first user message (vLLM serving Gemma: "System role not supported");
 * - a field missing from an earlier message: `reasoning_content` kept on the assistant messages
 *   with tool calls and sent back (Moonshot Kimi K2 thinking: "thinking is enabled but
 *   reasoning_content is missing in assistant tool call message at index 2"); the same field is
 *   refused by others (DeepSeek R1), which is why it is learned per endpoint + model;
 * - a message-order rule ("Conversation roles must alternate user/assistant/…"): consecutive
 *   messages of one role merged.
 *
 * A rule is learned once per endpoint + model (endpointProfile.ts), said once as a
 * `provider_adjusted` step, and the refused request is sent again once, following it.
 */
export const MESSAGE_RULES = ['developer_as_system', 'fold_system', 'keep_reasoning', 'merge_roles'] as const;
export type MessageRule = (typeof MESSAGE_RULES)[number];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const RULE_LABELS: Record<MessageRule, string> = {
  developer_as_system: 'instructions sent with the system role (the developer role is refused)',
  fold_system: 'instructions folded into the first user message (the system role is refused)',
  keep_reasoning: 'the model’s reasoning sent back on its tool-call messages',
  merge_roles: 'consecutive messages of one role merged',
};

/** Fields of an assistant message the app keeps and can send back when an endpoint asks. */
const KEEPABLE_FIELDS = ['reasoning_content'] as const;

function rolesOf(body: Json): Set<string> {
  const roles = new Set<string>();
  if (Array.isArray(body.messages)) for (const m of body.messages) if (isObject(m) && typeof m.role === 'string') roles.add(m.role);
  return roles;
}

/** The text of the refusal says the role named is refused (not merely listed as allowed). */
function refusesRole(message: string, role: string): boolean {
  const r = role;
  // "invalid role 'developer'", "Unexpected message role: developer", "developer is not one of [...]",
  // "unknown variant `developer`", "Invalid value: 'developer'", "received 'developer'",
  // "System role not supported", "system messages are not supported".
  const patterns = [
    new RegExp(`\\b${r}\\b[\\s'"\`]*(?:role|messages?)?\\s*(?:is\\s+)?(?:not supported|unsupported|not allowed|is not one of|not permitted)`, 'i'),
    new RegExp(`(?:invalid|unknown|unexpected|unsupported)\\s+(?:message\\s+)?(?:role|variant|value)[:\\s]*['"\`]?${r}\\b`, 'i'),
    new RegExp(`received\\s+['"\`]${r}['"\`]`, 'i'),
    new RegExp(`(?:does not|doesn't|do not|don't)\\s+support\\s+(?:the\\s+)?['"\`]?${r}\\b`, 'i'),
  ];
  return patterns.some((p) => p.test(message));
}

export interface RuleFinding {
  rule: MessageRule;
  /** The endpoint's own words. */
  message: string;
}

/**
 * The message rule a refusal asks for, when the request it refused is one the rule would change;
 * undefined when the words name none (the refusal then goes up as it came).
 */
export function messageRuleFor(status: number, message: string, sent: Json): RuleFinding | undefined {
  if (status !== 400 && status !== 422) return undefined;
  const roles = rolesOf(sent);
  if (roles.has('developer') && refusesRole(message, 'developer')) return { rule: 'developer_as_system', message };
  if (roles.has('system') && refusesRole(message, 'system')) return { rule: 'fold_system', message };
  for (const field of KEEPABLE_FIELDS) {
    // "… reasoning_content is missing in assistant tool call message at index 2" (Moonshot);
    // "The reasoning_content in the thinking mode must be passed back to the API." (DeepSeek V4).
    if (new RegExp(`\\b${field}\\b[^.]*\\b(?:is missing|missing|must be passed back|is required|required)\\b`, 'i').test(message) || new RegExp(`missing\\b[^.]*\\b${field}\\b`, 'i').test(message)) {
      if (roles.has('assistant')) return { rule: 'keep_reasoning', message };
    }
  }
  if (/roles must alternate|must alternate between|alternate user\/assistant|roles in a row|consecutive (?:user|assistant) messages/i.test(message)) return { rule: 'merge_roles', message };
  return undefined;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((p: unknown) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

/** `extra` placed before a message's content, whatever shape the content has. */
function prepend(content: unknown, extra: string): unknown {
  if (Array.isArray(content)) return [{ type: 'text', text: extra }, ...content];
  const text = typeof content === 'string' ? content : '';
  return text ? `${extra}\n\n${text}` : extra;
}

function join(a: unknown, b: unknown): unknown {
  if (typeof a === 'string' && typeof b === 'string') return [a, b].filter(Boolean).join('\n\n');
  const parts = (c: unknown): unknown[] => (Array.isArray(c) ? c : typeof c === 'string' && c ? [{ type: 'text', text: c }] : []);
  return [...parts(a), ...parts(b)];
}

/** Where a kept field is found for an assistant message of the request (by its call ids). */
export type KeptFieldLookup = (field: (typeof KEEPABLE_FIELDS)[number], callIds: readonly string[], text: string) => string | undefined;

/** The request's messages with the learned rules applied (a new body; the input is not changed). */
export function applyMessageRules(body: Json, rules: ReadonlySet<MessageRule>, kept?: KeptFieldLookup): Json {
  if (!rules.size || !Array.isArray(body.messages)) return body;
  let messages = body.messages.filter(isObject).map((m) => ({ ...m }));
  if (rules.has('developer_as_system')) messages = messages.map((m) => (m.role === 'developer' ? { ...m, role: 'system' } : m));
  if (rules.has('fold_system')) {
    const instructions = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => textOf(m.content)).filter(Boolean);
    messages = messages.filter((m) => m.role !== 'system' && m.role !== 'developer');
    if (instructions.length) {
      const first = messages.findIndex((m) => m.role === 'user');
      const text = instructions.join('\n\n');
      if (first >= 0) messages[first] = { ...messages[first], content: prepend(messages[first]?.content, text) };
      else messages.unshift({ role: 'user', content: text });
    }
  }
  if (rules.has('keep_reasoning') && kept) {
    messages = messages.map((m) => {
      if (m.role !== 'assistant' || !Array.isArray(m.tool_calls) || !m.tool_calls.length || typeof m.reasoning_content === 'string') return m;
      const ids = m.tool_calls.map((c: unknown) => (isObject(c) && typeof c.id === 'string' ? c.id : '')).filter(Boolean);
      const reasoning = kept('reasoning_content', ids, textOf(m.content));
      // An endpoint that asks for the field takes it present; an empty one says "none was kept".
      return { ...m, reasoning_content: reasoning ?? '' };
    });
  }
  if (rules.has('merge_roles')) {
    const merged: Json[] = [];
    for (const m of messages) {
      const prev = merged.at(-1);
      const plain = (x: Json) => (x.role === 'user' || x.role === 'system' || (x.role === 'assistant' && !(Array.isArray(x.tool_calls) && x.tool_calls.length)));
      if (prev && prev.role === m.role && plain(prev) && plain(m)) merged[merged.length - 1] = { ...prev, content: join(prev.content, m.content) };
      else merged.push(m);
    }
    messages = merged;
  }
  return { ...body, messages };
}
