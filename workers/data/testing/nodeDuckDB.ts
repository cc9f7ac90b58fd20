/// <reference types="node" />
/**
 * Test-only: boots the Node build of the same DuckDB-WASM the browser runs. Shared by the engine
 * tests (nodeEngine.ts) and the readers' tests (loaders/duckdbTestHarness.ts). Not imported by app code.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createDuckDB, NODE_RUNTIME, VoidLogger, type DuckDBBindings, type DuckDBConfig } from '@duckdb/duckdb-wasm/blocking';

const require = createRequire(import.meta.url);
const dist = dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm'));

/** An instantiated, opened database; callers choose the open options (the engine mirrors the browser's). */
export async function bootNodeDuckDB(config: DuckDBConfig = {}): Promise<DuckDBBindings> {
  const db = await createDuckDB(
    {
      mvp: { mainModule: join(dist, 'duckdb-mvp.wasm'), mainWorker: join(dist, 'duckdb-node-mvp.worker.cjs') },
      eh: { mainModule: join(dist, 'duckdb-eh.wasm'), mainWorker: join(dist, 'duckdb-node-eh.worker.cjs') },
    },
    new VoidLogger(),
    NODE_RUNTIME,
  );
  await db.instantiate(() => {});
  db.open(config);
  return db;
}
