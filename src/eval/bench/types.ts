/** A benchmark run as it is stored, resumed, reported and exported as a score file. */
import type { AgentMode } from '../../../protocol/agent/final';
import type { FailureClass } from '../gauntlet/check';
import type { SubAnswer } from './dabench';
import type { SuiteFormat } from './suite';

export interface BenchItemResult {
  index: number;
  id: string;
  level: string;
  concepts: string[];
  thread_id: string;
  correct: boolean;
  reason: string;
  failure: FailureClass | null;
  /** Generic sets: the answer kind (number, set, yesno, table, chart), reported by kind. */
  kind?: string;
  /** DABench: each sub-answer as the authors score it. */
  sub?: SubAnswer[];
  tokens_in: number;
  tokens_out: number;
  tokens_estimated: boolean;
  requests: number;
  ms: number;
  /** The final answer (clipped). */
  answer: string;
}

export interface BenchRun {
  id: string;
  suite: string;
  format: SuiteFormat;
  model: string;
  base_url: string;
  mode: AgentMode;
  /** ISO 8601. */
  started: string;
  finished?: string;
  status: 'running' | 'stopped' | 'done';
  /** The suite's item ids, in the order they run. */
  plan: string[];
  items: BenchItemResult[];
}
