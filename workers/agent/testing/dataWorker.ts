/**
 * Test-only: the data worker of startDataWorker.ts, started before a Vitest file's tests and
 * closed after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { startDataWorker, type DataWorker } from './startDataWorker';

export { startDataWorker, type DataWorker };

/** Starts the data worker before this file's tests and closes it after; `client` is valid inside tests. */
export function useDataWorker(file: { text: string; fileName: string; loadId: string }): Pick<DataWorker, 'client' | 'loadText' | 'rename' | 'remove'> {
  let worker: DataWorker | undefined;
  beforeAll(async () => {
    worker = await startDataWorker(file);
  }, 60_000);
  afterAll(() => {
    worker?.close();
  });
  const started = (): DataWorker => {
    if (!worker) throw new Error('the data worker did not start');
    return worker;
  };
  return {
    get client() {
      return started().client;
    },
    loadText: (text, fileName) => started().loadText(text, fileName),
    rename: (from, to) => started().rename(from, to),
    remove: (name) => started().remove(name),
  };
}
