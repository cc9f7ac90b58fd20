/**
 * Serves the agent worker's Python requests (`AgentPythonRequests`) on a MessagePort, backed by
 * the page's PythonClient. The agent's runs therefore share the one interpreter, queue, time
 * limit, interrupt and restart logic with the console, and the port stays valid across Python
 * restarts (it ends on this thread, not in the Python worker, which may be replaced at any time).
 * Output is forwarded as it is printed; Stop is one `stop` message, handled at once. What can be
 * imported is pushed as a `packages` event whenever it changes, so no run has to ask for it.
 */
import { serve, type Served } from '../../protocol/rpcServer';
import type { AgentPythonEvent, AgentPythonRequests } from '../../protocol/python';
import type { PythonClient } from './PythonClient.svelte';

export type PythonRunner = Pick<PythonClient, 'run' | 'stop' | 'refreshPackages' | 'watchPackages'>;

/** Serves `port` until the returned handle is closed (the agent worker went or got a new port). */
export function servePythonPort(python: PythonRunner, port: MessagePort): Served<AgentPythonEvent> {
  const served: Served<AgentPythonEvent> = serve<AgentPythonRequests, AgentPythonEvent>(port, {
    async run({ runId, code, session }) {
      // The agent's code is the model's: its sql() gets the same read-only guard as run_sql.
      const done = await python.run(code, {
        runId,
        background: true,
        sqlPolicy: 'read-only',
        ...(session ? { session } : {}),
        onOutput: (chunk) => served.emit({ type: chunk.stream, runId, text: chunk.text }),
      });
      return { result: done.outcome };
    },
    stop({ runId }) {
      python.stop(runId);
      return { result: {} };
    },
    async packages() {
      const report = await python.refreshPackages();
      if (!report) throw new Error('Python is not running');
      return { result: report };
    },
  });
  const unwatch = python.watchPackages((report) => served.emit({ type: 'packages', loaded: [...report.loaded] }));
  return {
    emit: served.emit,
    close: () => {
      unwatch();
      served.close();
    },
  };
}
