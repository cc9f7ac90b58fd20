/**
 * A big CSV's load-report checks, run after its load answered: the table is usable as soon as
 * DuckDB has made it, and the findings follow as an update of the dataset's info (the list event
 * the Data view and the dictionary read). On the bench's 98 MB CSV the checks took ~500 ms of a
 * 1.4 s load (two sniffs of the file and a scan of each text column's first rows).
 *
 * Each statement of the checks takes its own turn of the engine's queue, so the first page of rows
 * or a question asked meanwhile waits for one statement, not for all of them. The model's `list`
 * waits for the checks (host.ts), so its context always has the findings.
 */
import type { DataFormat, DatasetInfo } from '../../../protocol/data';
import type { LoadFinding, LoadReport } from '../../../protocol/loadReport';
import { csvFindings } from '../checks/csvChecks';
import type { ReadOptions } from '../engine/csvOptions';
import { REGISTERED_DIR, type Engine } from '../engine/duckdbEngine';
import type { HostContext } from './hostContext';

export interface PendingChecks {
  /** The bytes the table was read from (after any transcoding or repair), and how. */
  source: Blob;
  read: ReadOptions;
  format: DataFormat;
}

/** The engine with each statement queued on its own, behind whatever was asked meanwhile. */
function queued(ctx: HostContext, engine: Engine): Engine {
  return {
    ...(engine.startPhases ? { startPhases: engine.startPhases } : {}),
    ...(engine.extensions ? { extensions: engine.extensions } : {}),
    version: () => engine.version(),
    query: (sql) => ctx.serial.run(() => engine.query(sql)),
    send: (sql) => engine.send(sql),
    cancel: () => engine.cancel(),
    tokenize: (sql) => engine.tokenize(sql),
    insertArrowStream: (ipc, table, create) => ctx.serial.run(() => engine.insertArrowStream(ipc, table, create)),
    registerBlob: (name, blob) => ctx.serial.run(() => engine.registerBlob(name, blob)),
    dropFile: (name) => ctx.serial.run(() => engine.dropFile(name)),
  };
}

/** The dataset that carries this (pending) report now: a rename keeps the report, a removal drops it. */
function holderOf(ctx: HostContext, report: LoadReport): DatasetInfo | undefined {
  for (const d of ctx.datasets.values()) if (d.report === report) return d;
  return undefined;
}

/**
 * Runs the checks of a dataset announced with `report.checking`, then announces the findings
 * (unless `announce` is false: the caller announces them with its own change, loading.ts).
 */
export function checkLater(ctx: HostContext, engine: Engine, report: LoadReport, pending: PendingChecks, announce = true): Promise<void> {
  const q = queued(ctx, engine);
  const run = (async () => {
    let findings: LoadFinding[] = [];
    let applyAll: LoadReport['applyAll'];
    let sampled: string | undefined;
    const path = `${REGISTERED_DIR}check_${++ctx.seq}.${pending.format}`;
    await q.registerBlob(path, pending.source);
    try {
      // Renames wait for the checks (listChanges.ts); should one slip between two of their
      // statements all the same, the checks run once more under the new name.
      for (let tries = 0; tries < 2; tries++) {
        const d = holderOf(ctx, report);
        if (!d) return;
        try {
          ({ findings, applyAll, sampled } = await csvFindings(q, d.name, d.columns, path, pending.read));
        } catch {
          // A check that fails costs only its findings, never the dataset.
        }
        if (holderOf(ctx, report)?.name === d.name) break;
      }
    } finally {
      await q.dropFile(path).catch(() => undefined);
    }
    const d = holderOf(ctx, report);
    if (!d) return;
    const { checking: _checking, ...rest } = report;
    ctx.datasets.set(d.name, { ...d, report: { ...rest, findings, ...(applyAll ? { applyAll } : {}), ...(sampled ? { sampled } : {}) } });
    if (announce) ctx.changed();
  })().catch(() => undefined);
  ctx.checking.add(run);
  void run.finally(() => ctx.checking.delete(run));
  return run;
}

/** Every pending check of a load's tables, started now; resolves when all are over. */
export function checkTablesLater(ctx: HostContext, engine: Engine, tables: readonly { info: DatasetInfo; checks?: PendingChecks }[], announce = true): Promise<void> {
  const runs = tables.flatMap((t) => (t.checks && t.info.report ? [checkLater(ctx, engine, t.info.report, t.checks, announce)] : []));
  return Promise.all(runs).then(() => undefined);
}
