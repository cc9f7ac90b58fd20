/**
 * The page's three workers, each created here and nowhere else (Vite bundles a worker from the
 * `new Worker(new URL(…))` or `?worker` form it finds in this file).
 */
import PythonWorker from '../../workers/python/python.worker.ts?worker';

export const spawnDataWorker = (): Worker =>
  new Worker(new URL('../../workers/data/data.worker.ts', import.meta.url), { type: 'module', name: 'dataseer-data' });

export const spawnAgentWorker = (): Worker =>
  new Worker(new URL('../../workers/agent/agent.worker.ts', import.meta.url), { type: 'module', name: 'agent' });

export const spawnPythonWorker = (): Worker => new PythonWorker({ name: 'python' });
