import type { ConvertedTable } from './types';
import type { Engine } from '../engine/duckdbEngine';
import { quoteIdent } from '../../../shared/sql';

/**
 * Pulls the next item while the consumer works on the current one. For a reader's batches that
 * means the next batch is decoded (in this worker) while DuckDB inserts the current one (in its
 * own worker): the two run side by side instead of taking turns. One batch ahead at most.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  // Handled here so a pull still pending when the consumer stops is no unhandled rejection; the
  // awaits below still see its error.
  next.catch(() => undefined);
  let finished = false;
  try {
    for (;;) {
      const r = await next;
      if (r.done) {
        finished = true;
        return;
      }
      next = it.next();
      next.catch(() => undefined);
      yield r.value;
    }
  } finally {
    // The consumer stopped early (an insert failed, a cancel): close the source once its pending
    // pull has settled, so a reader's own clean-up (freeing wasm memory) runs.
    if (!finished) {
      await next.catch(() => undefined);
      await it.return?.(undefined).catch(() => undefined);
    }
  }
}

/**
 * Inserts a reader's Arrow IPC streams: the first creates the table, the rest append. Built under
 * a scratch name and renamed at the end, so a failure halfway leaves no half-made dataset.
 */
export async function ingestArrowStreams(
  engine: Engine,
  table: ConvertedTable,
  name: string,
  scratch: string,
  onBatch: (batches: number) => void,
  /** Throws when the load was cancelled: checked between batches. */
  checkCancelled: () => void = () => {},
): Promise<void> {
  let count = 0;
  try {
    for await (const ipc of readAhead(table.batches)) {
      checkCancelled();
      await engine.insertArrowStream(ipc, scratch, count === 0);
      count++;
      onBatch(count);
    }
    if (count === 0) throw new Error('the reader produced no columns');
    await engine.query(`ALTER TABLE ${quoteIdent(scratch)} RENAME TO ${quoteIdent(name)}`);
  } catch (e) {
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(scratch)}`).catch(() => undefined);
    throw e;
  }
}
