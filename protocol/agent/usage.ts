/**
 * What one run cost in tokens (additive, issue 26): summed over every request the run sent to the
 * model endpoint (the agent's turns, the validator, structured calls, retries), as the privacy
 * log's recording fetch read them off the wire. Carried on `run_end` and stored per question.
 */
import { z } from 'zod';

export const RunUsageSchema = z.object({
  input_tokens: z.number().nonnegative(),
  output_tokens: z.number().nonnegative(),
  /** Requests sent (including failed ones, which report no tokens). */
  requests: z.number().int().nonnegative(),
  /** Some request's counts were estimated from text length (the endpoint reported none). */
  estimated: z.boolean(),
  /** The model and base URL (no query) the run used: what its price is looked up by. */
  model: z.string(),
  base_url: z.string(),
});
export type RunUsage = z.infer<typeof RunUsageSchema>;

/** Two runs' usage as one (a resumed run adds to the question it continues); the later model wins. */
export function addUsage(a: RunUsage | undefined, b: RunUsage): RunUsage {
  if (!a) return { ...b };
  return {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    requests: a.requests + b.requests,
    estimated: a.estimated || b.estimated,
    model: b.model,
    base_url: b.base_url,
  };
}
