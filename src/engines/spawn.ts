/**
 * The page's three workers, each created here and nowhere else (Vite bundles a worker from the
 * `new Worker(new URL(…))` or `?worker` form it finds in this file).
 */
import PythonWorker from '../../workers/python/python.worker.ts?worker';

export const spawnDataWorker = (): Worker => {
  // The first step of DuckDB's start on the page's timeline (the others: DataClient's marks).
  performance.mark('dataseer:duckdb:spawn');
  return new Worker(new URL('../../workers/data/data.worker.ts', import.meta.url), { type: 'module', name: 'dataseer-data' });
};

export const spawnAgentWorker = (): Worker =>
  new Worker(new URL('../../workers/agent/agent.worker.ts', import.meta.url), { type: 'module', name: 'agent' });

export const spawnPythonWorker = (): Worker => new PythonWorker({ name: 'python' });
