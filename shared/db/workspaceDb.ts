/**
 * The workspace database: what the user built around their data — the saved datasets (manifest
 * and, without OPFS, their bytes), the notebook, knowledge (dictionaries, rules, trusted queries,
 * metrics), their own examples, benchmark runs and gauntlet runs. The data worker, the agent worker
 * and the page all open it; this module is the only place its stores are declared, so a version
 * upgrade is one function every context runs the same way (and a context holding an older
 * connection closes it when asked, `IdbStore`'s `blocking`).
 *
 * Values are typed by each store's own module through a view (`workspaceView`), since their types
 * live with the code that writes them (page, data worker, agent worker).
 *
 * Until this database existed each concern had its own; on first open of the app's database
 * their rows are copied here and the old databases deleted once the copy committed.
 */
import type { DBSchema, StoreNames } from 'idb';
import { databaseInstances } from './instances';
import type { OldDatabase } from './idbMigrate';
import type { IdbStore } from '../idbStore';

export const WORKSPACE_DB = 'dataseer-workspace';

/** Every store, and its key path (`null`: keys given beside the values). */
export const WORKSPACE_STORES = {
  /** Saved datasets by table name (workers/data/storage.ts). */
  manifest: 'name',
  /** Dataset source bytes and snapshots where OPFS is missing, by key. */
  sources: null,
  notebooks: 'id',
  /** Knowledge (shared/knowledge/store.ts). */
  dictionaries: 'dataset',
  rules: 'id',
  trusted: 'id',
  metrics: 'id',
  /** Answers given a thumbs-up (workers/agent/examples/userExamples.ts). */
  examples: 'id',
  bench_runs: 'id',
  bench_suites: 'id',
  bench_scores: 'id',
  gauntlet_runs: 'id',
  about: 'key',
} as const satisfies Record<string, string | null>;

export type WorkspaceStoreName = keyof typeof WORKSPACE_STORES;

/** The databases before this one (issue 36), and where their stores went. */
export const OLD_WORKSPACE_DATABASES: readonly OldDatabase[] = [
  { name: 'dataseer-datasets', stores: [['manifest', 'manifest'], ['sources', 'sources']] },
  { name: 'dataseer-notebooks', stores: [['notebooks', 'notebooks']] },
  { name: 'dataseer-knowledge', stores: [['dictionaries', 'dictionaries'], ['rules', 'rules'], ['trusted', 'trusted'], ['metrics', 'metrics']] },
  { name: 'dataseer-user-examples', stores: [['examples', 'examples']] },
  { name: 'dataseer-bench', stores: [['runs', 'bench_runs'], ['suites', 'bench_suites'], ['scores', 'bench_scores']] },
  { name: 'dataseer-gauntlet', stores: [['runs', 'gauntlet_runs']] },
];

const instances = databaseInstances<unknown>({
  name: WORKSPACE_DB,
  version: 1,
  upgrade(db) {
    for (const [name, keyPath] of Object.entries(WORKSPACE_STORES)) {
      if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, keyPath === null ? undefined : { keyPath });
    }
  },
  old: OLD_WORKSPACE_DATABASES,
  mark: 'migrated-from-separate-databases',
});

/**
 * The workspace database seen through a module's own types: `V` names some of its stores with
 * their value types (checked against WORKSPACE_STORES). `name` opens another instance of the same
 * schema (tests); the app's own is the default.
 */
export function workspaceView<V extends DBSchema & ViewOf<V, WorkspaceStoreName>>(name?: string): IdbStore<V> {
  return instances(name) as unknown as IdbStore<V>;
}

/** `V` only when every store it names is one of `Names`. */
export type ViewOf<V extends DBSchema, Names extends string> = Exclude<StoreNames<V>, Names> extends never ? unknown : never;
