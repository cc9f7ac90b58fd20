/**
 * Serves `PythonRequests` to another worker (the agent) on a MessagePort, backed by the page's
 * PythonClient. The agent's runs therefore share the one interpreter, queue, time limit,
 * interrupt and restart logic with the console, and the port stays valid across worker restarts
 * (it ends on this thread, not in the Python worker, which may be replaced at any time).
 */
import { serve } from '../../workers/protocol/rpcServer';
import type { PythonEvent, PythonRequests } from '../../workers/protocol/python';
import type { PythonClient } from './PythonClient.svelte';

export type PythonRunner = Pick<PythonClient, 'run' | 'stop' | 'refreshPackages'>;

export interface PythonPort {
  /** Transfer this end to the agent worker. */
  port: MessagePort;
  /**
   * The agent writes a non-zero value here to stop its run (its Stop button). Watched on this
   * thread while one of its runs is queued or running; null when the page is not isolated.
   */
  interrupt: SharedArrayBuffer | null;
}

/** How often a pending agent run checks whether the agent asked to stop it. */
const STOP_POLL_MS = 50;

export function servePythonPort(python: PythonRunner): PythonPort {
  const channel = new MessageChannel();
  const canShare = typeof SharedArrayBuffer !== 'undefined' && globalThis.crossOriginIsolated === true;
  const interrupt = canShare ? new SharedArrayBuffer(4) : null;
  const flag = interrupt ? new Int32Array(interrupt) : null;

  const { emit } = serve<PythonRequests, PythonEvent>(channel.port1, {
    init: () => {
      throw new Error('Python is started by the page; this port only runs code');
    },
    connectData: () => {
      throw new Error('Python reaches the data worker through the page; this port only runs code');
    },
    async run({ runId, code }) {
      // A stop left over from an earlier aborted run must not stop this one.
      if (flag) Atomics.store(flag, 0, 0);
      const watch = flag
        ? setInterval(() => {
            if (Atomics.load(flag, 0) !== 0) python.stop(runId);
          }, STOP_POLL_MS)
        : null;
      try {
        // The agent's code is the model's: its sql() gets the same read-only guard as run_sql.
        const done = await python.run(code, { runId, background: true, sqlPolicy: 'read-only' });
        // Sent before the reply, on the same port, so the agent has the output when the reply lands.
        for (const chunk of done.output) emit({ type: chunk.stream, runId, text: chunk.text });
        return { result: done.outcome };
      } finally {
        if (watch) clearInterval(watch);
      }
    },
    async packages() {
      const report = await python.refreshPackages();
      if (!report) throw new Error('Python is not running');
      return { result: report };
    },
  });
  return { port: channel.port2, interrupt };
}
