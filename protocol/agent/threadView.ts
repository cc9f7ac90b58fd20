/**
 * A stored conversation as the page reads it back (`listThreads`, `loadThread`, ratings): the
 * storage view, apart from the wire of a live run (./wire.ts).
 */
import type { AgentMode, FinalOutput } from './final';
import type { RunUsage } from './usage';

/** A conversation in the `Conversations` list. */
export interface AgentThreadSummary {
  thread_id: string;
  /** The first question, shortened. */
  title: string;
  mode: AgentMode;
  /** ISO 8601 time of the last checkpoint. */
  updated_at: string;
}

/** One message of a stored thread, as the conversation view shows it. */
export interface ThreadMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: { id: string; name: string; args: Record<string, unknown> }[];
  tool_call_id?: string;
  tool_name?: string;
  /** Images the user attached to this message, as `data:` URLs (additive). */
  images?: string[];
  /** The stored message's id (additive; set on questions): what `replaces` and ratings name. */
  id?: string;
  /** The model's reasoning for this assistant message, when it sent some (additive). */
  reasoning?: string;
}

/** One tool call's full outcome as the live run showed it (the model saw a clipped text of it). */
export interface StoredToolOutput {
  tool: string;
  ok: boolean;
  output?: unknown;
  error?: string;
  elapsed_ms?: number;
}

export interface ThreadView {
  thread_id: string;
  mode: AgentMode;
  messages: ThreadMessage[];
  /** Final outputs of the thread's completed runs, oldest first. */
  finals: FinalOutput[];
  /** The last run stopped before `finalize` (reload or crash mid-run): offer to continue. */
  interrupted: boolean;
  /** The older turns a `summarize` step compacted, when one ran. */
  summary?: string;
  /** Stored ratings of this thread's answers, by the id of the question answered (additive). */
  ratings?: Record<string, 'up' | 'down'>;
  /**
   * Each tool call's full outcome, by call id (additive): what the live run showed, so a reopened
   * conversation looks the same. Calls missing here fall back to the message text.
   */
  tool_outputs?: Record<string, StoredToolOutput>;
  /** Tokens each question's runs spent, by the question's id (additive, issue 26). */
  usage?: Record<string, RunUsage>;
}

export type AnswerRating = 'up' | 'down' | 'none';

export interface RateAnswerRequest {
  thread_id: string;
  /** The question the answer was for. */
  question: string;
  final: FinalOutput;
  rating: AnswerRating;
  /** The id of the question answered (additive): the rating is stored and shown again on reopening. */
  question_id?: string;
}

/** The longest name `renameThread` accepts. */
export const MAX_THREAD_NAME = 200;
