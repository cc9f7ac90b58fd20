/**
 * Personas: the scripted endpoint behaving like a real provider's documented wire. Each area
 * keeps its personas in its own file and they are merged here.
 *
 * A persona is an object with any of these hooks (all optional, all pure apart from `ctx.state.memo`,
 * a per-persona scratch object reset with the persona):
 *   doc: string                                   where the behaviour is documented (URL / issue)
 *   refuse(body, { state, req }) → { status, body, headers? } | undefined
 *       answer the request with an error before a scripted reply is spent (refused parameters…)
 *   shape(out, { body, state, reply }) → out      rewrite the materialised reply
 *       out = { content: string, toolCalls: [{ id, name, argsText }], reasoning?: string }
 *   stream(events, { body, out, state, chunk }) → events   rewrite the SSE events before sending
 *       events: { data: object } | { raw: string } | { done: true }; chunk(delta, finish?, extra?)
 *       builds a `{ data }` chunk with this completion's id/model
 *   whole(json, { body, out, state }) → json      rewrite a non-streamed completion body
 *   authorised(req, state) → boolean              accept the key as this provider expects it
 *   respond(body, { state, req, res, cors }) → Promise<boolean>   answer the whole request itself
 *       (status, headers, bytes, timing); true when it did
 */
import { basePersonas } from './base.mjs';
import { providerPersonas } from './providers.mjs';
import { roundTripPersonas } from './roundTrip.mjs';
import { capabilityPersonas } from './capabilities.mjs';
import { knowledgePersonas } from './knowledge.mjs';
import { messageRulePersonas } from './messageRules.mjs';
import { chaosPersonas } from './chaos.mjs';

export const PERSONAS = { ...basePersonas, ...providerPersonas, ...roundTripPersonas, ...capabilityPersonas, ...knowledgePersonas, ...messageRulePersonas, ...chaosPersonas };
