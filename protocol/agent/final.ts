/**
 * What a run ends with (`FinalOutput`, AGENT-CONTRACT.md) and the modes it runs in: shared by the
 * event stream (./wire.ts) and the stored conversation view (./threadView.ts).
 */
import { z } from 'zod';
import { PlotlyFigureSchema } from '../figure';

export const AGENT_MODES = ['agent', 'pipeline'] as const;
export type AgentMode = (typeof AGENT_MODES)[number];


export const OUTPUT_TYPES = ['analysis', 'visualization', 'explanation', 'error'] as const;

export const FinalOutputSchema = z.object({
  answer: z.string(),
  confidence: z.number().min(0).max(1),
  output_type: z.enum(OUTPUT_TYPES),
  result: z.unknown().optional(),
  figures: z.array(PlotlyFigureSchema).optional(),
  code: z.array(z.string()).optional(),
  caveats: z.array(z.string()),
  reasoning_trace: z.array(z.string()),
  ungrounded_numbers: z.array(z.string()),
  failed_attempts: z.array(z.object({ code: z.string(), error: z.string() })),
  /** (additive) The run stopped before the analysis was complete (e.g. its step budget ran out): the answer is what was found so far. */
  partial: z.boolean().optional(),
  /** Additive (issue 24): the run asked the user instead of answering; `answer` is the question. */
  clarification: z.object({ question: z.string(), choices: z.array(z.string()) }).optional(),
  /** Additive (issue 32): the user's rules exactly as this run's prompt carried them (an export lists these, not rules added later). */
  rules_given: z.array(z.string()).optional(),
  /** Additive (issue 32): the trusted queries this answer reused and the metrics it used, in words. */
  knowledge_cited: z.array(z.string()).optional(),
});
export type FinalOutput = z.infer<typeof FinalOutputSchema>;
