import type { ConvertedTable } from './loaders/types';
import type { Engine } from './engine';
import { quoteIdent } from '../../shared/sql';

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
    for await (const ipc of table.batches) {
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
