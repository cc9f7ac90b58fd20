/**
 * The user's own examples: answers given a thumbs-up, kept in IndexedDB (from the agent
 * worker) and added to the `ExampleLibrary` beside the curated ones, so `search_examples` and
 * the prompt's top examples find them too.
 */
import type { DBSchema, IDBPDatabase } from 'idb';
import { WORKSPACE_DB, workspaceView } from '../../../shared/db/workspaceDb';
import type { ExampleRecord } from '../../../protocol/agent/tools';
import type { FinalOutput } from '../../../protocol/agent/final';
import type { ExampleLibrary } from './retrieval';

interface UserExamplesDb extends DBSchema {
  examples: { key: string; value: ExampleRecord & { saved_at: string } };
}

/** The database the examples are kept in (the workspace's `examples` store). */
export const USER_EXAMPLES_DB = WORKSPACE_DB;

export class UserExampleStore {
  readonly dbName: string;

  constructor(options: { dbName?: string } = {}) {
    this.dbName = options.dbName ?? USER_EXAMPLES_DB;
  }

  #open(): Promise<IDBPDatabase<UserExamplesDb>> {
    return workspaceView<UserExamplesDb>(this.dbName).open();
  }

  async all(): Promise<ExampleRecord[]> {
    const rows = await (await this.#open()).getAll('examples');
    return rows.map(({ saved_at: _saved, ...e }) => e);
  }

  async put(example: ExampleRecord): Promise<void> {
    await (await this.#open()).put('examples', { ...example, saved_at: new Date().toISOString() });
  }

  async delete(id: string): Promise<void> {
    await (await this.#open()).delete('examples', id);
  }

  async close(): Promise<void> {
    await workspaceView<UserExamplesDb>(this.dbName).close();
  }
}

/** A short stable id (FNV-1a) so rating the same answer twice replaces rather than duplicates. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

export function userExampleId(threadId: string, question: string): string {
  return `user-${hash(`${threadId}\n${question}`)}`;
}

/** The example a thumbs-up saves: the question, how it was answered, and the code that did it. */
export function exampleFromAnswer(threadId: string, question: string, final: FinalOutput): ExampleRecord {
  const steps = final.reasoning_trace.length > 0 ? final.reasoning_trace.join('\n') : final.answer.slice(0, 500);
  return {
    id: userExampleId(threadId, question),
    question: question.trim(),
    tags: ['saved', final.output_type],
    approach: steps,
    code_pattern: (final.code ?? []).join('\n\n'),
  };
}

/** Loads the stored examples into the library; a storage failure leaves the curated ones. */
export async function loadUserExamples(store: UserExampleStore, library: ExampleLibrary): Promise<number> {
  try {
    const examples = await store.all();
    for (const e of examples) library.add(e);
    return examples.length;
  } catch {
    return 0;
  }
}
