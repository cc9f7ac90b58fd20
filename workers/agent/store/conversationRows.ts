/**
 * The rows of the conversation database's other parts (the checkpoint saver's are in
 * checkpointRows.ts): conversationDb.ts declares its stores with these types, and each part's
 * store class (threads/ThreadMetaStore.ts, threads/ToolOutputStore.ts, privacy/PrivacyLogStore.ts)
 * reads and writes them. They live here, under the parts, so the schema imports nothing above it.
 */
import type { AgentMode } from '../../../protocol/agent/final';
import type { StoredToolOutput } from '../../../protocol/agent/threadView';
import type { RunUsage } from '../../../protocol/agent/usage';
import type { PrivacyLogEntry } from '../../../protocol/agent/wire';

export type StoredRating = 'up' | 'down';

/** The `threads` store (ThreadMetaStore). */
export interface ThreadMeta {
  thread_id: string;
  /** The user's name (Rename); the first question is the title without it. */
  name?: string;
  /** Ratings by the id of the question answered. */
  ratings: Record<string, StoredRating>;
  /** Tokens spent per question answered (additive, issue 26), by the question's id. */
  usage?: Record<string, RunUsage>;
  /** The index: title from the first question, mode, and the checkpoint time it was built for. */
  title?: string;
  mode?: AgentMode;
  indexed_at?: string;
}

/** The `tool_outputs` store (ToolOutputStore). */
export interface ToolOutputRow extends StoredToolOutput {
  key: string;
  thread_id: string;
  call_id: string;
}

/** The `privacy_requests` store (PrivacyLogStore): a request's facts, without its body. */
export type PrivacyRequestRow = Omit<PrivacyLogEntry, 'body' | 'id'> & { id?: number; bytes: number };

/** The `privacy_bodies` store (PrivacyLogStore): a request's body, by the request's id. */
export interface PrivacyBodyRow {
  id: number;
  body: string;
}
