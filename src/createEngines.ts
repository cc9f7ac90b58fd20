/**
 * The page's engines: the data worker (DuckDB), the Python worker (Pyodide) and the agent worker,
 * and the mesh of channels between them. Called only by the composition root (appRoot.svelte.ts):
 * once for the app, and once per benchmark run for its isolated workspace. src/engines/ below it
 * owns sessions, spawning and the mesh.
 */
import { AgentClient } from './chat/AgentClient.svelte';
import { DataClient } from './data/DataClient.svelte';
import { servePythonPort } from './python/agentPort';
import { PythonClient } from './python/PythonClient.svelte';
import { EngineMesh } from './engines/mesh';
import { spawnAgentWorker, spawnDataWorker, spawnDecodeWorker, spawnPythonWorker, spawnWorkspaceDataWorker } from './engines/spawn';
import { DecodeClient } from './data/decodeClient';
import { runQueryId } from '../protocol/data';

export interface Engines {
  data: DataClient;
  python: PythonClient;
  agent: AgentClient;
  mesh: EngineMesh<Link>;
  dispose(): void;
}

export type Link = 'agent → data' | 'python → data' | 'agent → python';

export interface EngineOptions {
  /** Start Python only where the page's security policy is in force (see PythonClientOptions). */
  requireProtection: boolean;
  /**
   * A benchmark's workspace (src/eval/bench): a data worker that keeps nothing, so its datasets
   * never mix with the user's; the agent and Python are its own too. Disposed with the run.
   */
  workspace?: boolean;
}

export function createEngines(options: EngineOptions): Engines {
  const mesh: EngineMesh<Link> = new EngineMesh<Link>({
    'agent → data': { provider: 'data', serve: (port) => data.connect(port, 'agent') },
    'python → data': { provider: 'data', serve: (port) => data.connect(port, 'python') },
    // The agent's Python port ends on this page, so it outlives Python restarts.
    'agent → python': { provider: 'page', serve: (port) => servePythonPort(python, port).close },
  });
  const data: DataClient = new DataClient(options.workspace ? spawnWorkspaceDataWorker : spawnDataWorker, new DecodeClient(spawnDecodeWorker));
  const python: PythonClient = new PythonClient({
    createWorker: spawnPythonWorker,
    connectData: mesh.connector('python → data'),
    requireProtection: options.requireProtection,
    // Only the halted run's own DuckDB statement (by id), never a profile or fix the page runs.
    onHalt: (runId) => void data.cancelQuery(runQueryId('python', runId)).catch(() => undefined),
    // Pyodide's warm-up waits while a dataset loads or is restored: both want the two cores.
    isBusy: () => data.loads.length > 0 || data.restoring.length > 0,
  });
  const agent = new AgentClient({
    createWorker: spawnAgentWorker,
    connectData: mesh.connector('agent → data'),
    connectPython: mesh.connector('agent → python'),
  });
  // A restarted data worker is a new worker: the agent and Python get ports to it again.
  const unsubscribe = data.onRestarted(() => void mesh.reopen('data'));
  return {
    data,
    python,
    agent,
    mesh,
    dispose() {
      unsubscribe();
      agent.dispose();
      python.dispose();
      data.dispose();
      mesh.dispose();
    },
  };
}
