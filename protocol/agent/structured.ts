/**
 * The structured-output calls (AGENT-CONTRACT.md): their names tell a scripted endpoint which
 * call it is, and each answer is validated against its schema whatever rung of the ladder
 * produced it (workers/agent/llm/).
 */
import { z } from 'zod';

export const ValidationReportSchema = z.object({
  is_valid: z.boolean().describe('Whether the results correctly answer the question'),
  issues: z.array(z.string()).describe('Problems found in the method, code or results'),
  suggestions: z.array(z.string()).describe('Concrete fixes'),
  confidence: z.number().min(0).max(1).describe('Confidence in the results, 0 to 1'),
});
export type ValidationReport = z.infer<typeof ValidationReportSchema>;


export const ExecutionPlanSchema = z.object({
  needs_code: z.boolean(),
  needs_evaluation: z.boolean(),
  needs_explanation: z.boolean(),
  reasoning: z.string(),
});
export type ExecutionPlan = z.infer<typeof ExecutionPlanSchema>;

export const ConversationSummarySchema = z.object({
  summary: z.string().describe('The earlier conversation: questions, findings, figures and open points'),
});
export type ConversationSummary = z.infer<typeof ConversationSummarySchema>;

export const STRUCTURED_OUTPUTS = {
  validation_report: ValidationReportSchema,
  execution_plan: ExecutionPlanSchema,
  conversation_summary: ConversationSummarySchema,
} as const;
export type StructuredOutputName = keyof typeof STRUCTURED_OUTPUTS;
