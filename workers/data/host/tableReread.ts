/**
 * A load report's fix for an Excel sheet or a JSON file: the source converted again with the
 * fix's options (tableReport.ts), the table replaced under the same name; a failed re-read leaves
 * the table as it was.
 */
import { messageOf } from '../../../shared/errors';
import { quoteIdent } from '../../../shared/sql';
import type { DatasetInfo, RereadOutcome } from '../../../protocol/data';
import type { LoadFinding, TableReadOverrides } from '../../../protocol/loadReport';
import { ingestArrowStreams } from '../loaders/arrowIngest';
import type { Engine } from '../engine/duckdbEngine';
import { stoppable } from '../engine/stoppable';
import type { HostContext } from './hostContext';
import { tableInfo } from './ingest';
import type { ConvertedTable } from '../loaders/types';
import { readerLabel } from '../loaders/readerLabel';
import { isEmptyTableOverrides } from '../checks/tableChecks';
import { checkReaderTable, tableApplyAll } from '../checks/tableReport';

/** Converts the dataset's source again with `options` and replaces its table; run inside the engine's queue. */
export async function rereadTable(ctx: HostContext, engine: Engine, info: DatasetInfo, blob: Blob, options: TableReadOverrides, cancelled: () => boolean = () => false): Promise<RereadOutcome> {
  const seq = ++ctx.seq;
  const scratch = `__dataseer_reread_${seq}`;
  const applied = isEmptyTableOverrides(options) ? undefined : options;
  const convert = info.format === 'xlsx' ? ctx.deps.readers.excel : ctx.deps.readers.json;
  let findings: LoadFinding[] = [];
  let sampled: string | undefined;
  let ct: ConvertedTable | undefined;
  try {
    const converted = await convert(blob, { ...(info.sheet !== undefined ? { sheets: [info.sheet] } : {}), readOptions: () => applied });
    ct = converted.find((t) => t.sheet === info.sheet) ?? converted[0];
    if (!ct) return { ok: false, message: `${info.fileName}${info.sheet ? ` (sheet ${info.sheet})` : ''} has no data when read so.` };
    await ingestArrowStreams(engine, ct, scratch, `${scratch}_in`, () => undefined, () => {
      if (cancelled()) throw new Error('cancelled');
    });
    // A Cancel refuses the checks' statements after the one it interrupts (engine/stoppable.ts).
    if (!cancelled()) ({ findings, sampled } = await checkReaderTable(stoppable(engine, cancelled), scratch, ct, info.format, applied));
    // The last moment to stop (issue 37): the table is swapped below.
    if (cancelled()) throw new Error('cancelled');
  } catch (e) {
    await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(scratch)}`).catch(() => undefined);
    return { ok: false, message: `Could not read ${info.fileName} again: ${messageOf(e)}` };
  }
  await engine.query(`DROP TABLE IF EXISTS ${quoteIdent(info.name)}`);
  await engine.query(`ALTER TABLE ${quoteIdent(scratch)} RENAME TO ${quoteIdent(info.name)}`);
  const original = info.report?.original ?? info.report?.findings ?? [];
  const report = {
    reader: readerLabel(info.format, engine),
    findings,
    ...tableApplyAll(findings),
    ...(sampled ? { sampled } : {}),
    timeZones: (ct.utcColumns ?? []).map((column) => ({ column, stored: 'utc' as const })),
    ...(applied ? { readOptions: applied, original } : {}),
  };
  const fresh = await tableInfo(engine, info.name, info.fileName, info.format, info.sizeBytes, info.sheet, report);
  return { ok: true, dataset: { ...fresh, persisted: info.persisted, loadedAt: info.loadedAt } };
}
