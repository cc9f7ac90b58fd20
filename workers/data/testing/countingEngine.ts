/** Test-only: an Engine that writes down every statement it is asked to run, and how long each took (for the bench's figures; tests count, they do not time). */
import type { Table } from 'apache-arrow';
import type { Engine } from '../engine/duckdbEngine';

export function countingEngine(engine: Engine, seen: string[], took: number[] = []): Engine {
  return {
    version: () => engine.version(),
    query: async (sql: string): Promise<Table> => {
      seen.push(sql);
      const started = performance.now();
      try {
        return await engine.query(sql);
      } finally {
        took.push(performance.now() - started);
      }
    },
    send: (sql) => engine.send(sql),
    cancel: () => engine.cancel(),
    tokenize: (sql) => engine.tokenize(sql),
    insertArrowStream: (ipc, table, create) => engine.insertArrowStream(ipc, table, create),
    registerBlob: (name, blob) => engine.registerBlob(name, blob),
    dropFile: (name) => engine.dropFile(name),
  };
}
