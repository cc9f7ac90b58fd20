import type { Engine } from './duckdbEngine';

/**
 * The engine for a job of many statements that a Cancel must stop (a load report's checks, up to
 * a hundred statements on a 2,000-column file): DuckDB's interrupt stops only the statement that
 * runs, and each check treats its failure as "no finding", so without this the checks went on with
 * the next statement. Once `stopped()` is true every statement is refused at once; `onStatement`
 * hears of each one started (the job's progress: how many statements so far).
 */
export function stoppable(engine: Engine, stopped: () => boolean, onStatement?: (n: number) => void): Engine {
  let n = 0;
  const started = () => {
    if (stopped()) throw new Error('Cancelled.');
    onStatement?.(++n);
  };
  return {
    ...(engine.startPhases ? { startPhases: engine.startPhases } : {}),
    ...(engine.extensions ? { extensions: engine.extensions } : {}),
    version: () => engine.version(),
    query: async (sql) => {
      started();
      return engine.query(sql);
    },
    send: async (sql) => {
      started();
      return engine.send(sql);
    },
    cancel: () => engine.cancel(),
    tokenize: (sql) => engine.tokenize(sql),
    insertArrowStream: async (ipc, table, create) => {
      started();
      return engine.insertArrowStream(ipc, table, create);
    },
    registerBlob: (name, blob) => engine.registerBlob(name, blob),
    dropFile: (name) => engine.dropFile(name),
  };
}

/** The progress line of a load report's checks: DuckDB cannot say how far one statement is, only how many ran. */
export const checkingDetail = (n: number): string => `checking what was read: ${n} ${n === 1 ? 'statement' : 'statements'}`;
