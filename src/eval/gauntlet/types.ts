/** A gauntlet run as it is planned, stored, resumed, reported and exported. */
import type { AgentMode } from '../../../protocol/agent/final';
import type { FailureClass } from './check';
import type { Difficulty } from './questions';
import type { ExampleCategory } from '../../../shared/exampleCategories';

export interface PlannedItem {
  question_id: string;
  mode: AgentMode;
  /** 1-based repetition. */
  rep: number;
}

/** One scored item (the JSON export's `items[]`; snake_case as the issue names the fields). */
export interface ItemResult {
  index: number;
  id: string;
  category: ExampleCategory;
  difficulty: Difficulty;
  mode: AgentMode;
  rep: number;
  thread_id: string;
  correct: boolean;
  reason: string;
  failure: FailureClass | null;
  tokens_in: number;
  tokens_out: number;
  /** True when some request's tokens were estimated or not reported. */
  tokens_estimated: boolean;
  requests: number;
  ms: number;
  tool_calls: number;
  retries: number;
  /** The validation verdict: agreed, disagreed, or none ran. */
  validation: 'agreed' | 'disagreed' | 'none';
  loop: boolean;
  budget_exhausted: boolean;
  ungrounded: number;
  /** The answer text (clipped), so a failed item can be fixed and added to the examples. */
  answer: string;
  code: string[];
}

export type RunStatus = 'running' | 'stopped' | 'done';

export interface GauntletRun {
  id: string;
  model: string;
  base_url: string;
  /** ISO 8601. */
  started: string;
  finished?: string;
  status: RunStatus;
  plan: PlannedItem[];
  items: ItemResult[];
}
