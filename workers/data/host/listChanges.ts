/**
 * Changes to the dataset list the page asks for (remove, rename) or makes through the SQL
 * console (a DROP, an ALTER … RENAME, a DELETE): the list, DuckDB's catalog and the saved copies
 * stay in step.
 */
import { quoteIdent } from '../../../shared/sql';
import type { DatasetInfo, QueryOutcome } from '../../../protocol/data';
import { mayWrite, renameIn, assessStatements } from '../checks/assess';
import { dropSql } from './bigFile';
import { describeTable, mainTableNames, tableNames } from '../engine/catalog';
import type { Engine } from '../engine/duckdbEngine';
import type { HostContext } from './hostContext';
import { runQuery } from '../engine/queryRunner';
import { nameOf } from '../engine/sqlScript';
import { sanitizeName, uniqueName } from './tableName';

export async function remove(ctx: HostContext, name: string): Promise<DatasetInfo[]> {
  const engine = await ctx.ready();
  await ctx.serial.run(() => engine.query(dropSql(ctx, name)));
  ctx.sources.delete(name);
  const viewPath = ctx.views.get(name);
  if (viewPath) {
    ctx.views.delete(name);
    await engine.dropFile(viewPath).catch(() => undefined);
  }
  ctx.datasets.delete(name);
  await (await ctx.writable())?.remove(name).catch(() => undefined);
  return ctx.changed();
}

/** The file a dataset was read from follows its new name, so a load report's fix re-reads it. */
function moveSource(ctx: HostContext, from: string, to: string): void {
  const blob = ctx.sources.get(from);
  ctx.sources.delete(from);
  if (blob) ctx.sources.set(to, blob);
}

export async function rename(ctx: HostContext, from: string, to: string): Promise<DatasetInfo[]> {
  const engine = await ctx.ready();
  // A big load's checks query the table by name: a rename waits for them (under a second) rather
  // than pull the name from under their statements.
  await ctx.checksSettled();
  const info = ctx.datasets.get(from);
  if (!info) throw new Error(`No dataset named ${from}.`);
  const target = sanitizeName(to);
  if (target === from) return ctx.list();
  const taken = await ctx.serial.run(() => tableNames(engine));
  if (uniqueName(target, taken) !== target) throw new Error(`A table named ${target} already exists.`);
  const viewPath = ctx.views.get(from);
  await ctx.serial.run(() => engine.query(`ALTER ${viewPath ? 'VIEW' : 'TABLE'} ${quoteIdent(from)} RENAME TO ${quoteIdent(target)}`));
  if (viewPath) {
    ctx.views.delete(from);
    ctx.views.set(target, viewPath);
  }
  // As it is now: a load's checks (laterChecks.ts) may have updated it while this waited.
  const current = ctx.datasets.get(from) ?? info;
  ctx.datasets.delete(from);
  ctx.datasets.set(target, { ...current, name: target });
  moveSource(ctx, from, target);
  await (await ctx.writable())?.rename(from, target).catch(() => undefined);
  return ctx.changed();
}

/** The SQL console's query: it may change datasets (after the page asked), and the list follows. */
const CANCELLED: QueryOutcome = { ok: false, message: 'Query cancelled.', cancelled: true };

export async function consoleQuery(ctx: HostContext, sql: string, maxRows: number, queryId?: string): Promise<QueryOutcome> {
  const cancelled = () => queryId !== undefined && ctx.cancelledQueries.has(queryId);
  // Each wait in the engine's queue ends at once when the query is cancelled meanwhile (issue 37).
  const inQueue = <T>(job: () => Promise<T>, whileQueued: () => T, keepMark = false) =>
    queryId === undefined ? ctx.serial.run(job) : ctx.cancellable(queryId, ctx.cancelledQueries, job, whileQueued, { keepMark });
  const engine = await ctx.ready();
  // As for a rename: a console statement may rename or drop the table a big load's checks read.
  await ctx.checksSettled();
  if (cancelled()) return CANCELLED;
  // Read before the run: DuckDB's lexer finds the renames (a dropped table cannot be planned after).
  const assessed = await inQueue(async () => (cancelled() ? null : assessStatements(engine, sql)), () => null, true).catch(() => []);
  if (assessed === null) return CANCELLED;
  // The script as the assessment split it: lexed once.
  const outcome = await inQueue(async (): Promise<QueryOutcome> => {
    // Cancelled while it waited for its turn (issue 37): it never runs.
    if (cancelled()) return CANCELLED;
    if (queryId === undefined) return runQuery(engine, sql, maxRows, assessed.length > 0 ? assessed.map((a) => a.stmt) : undefined);
    ctx.querying = queryId;
    ctx.progressSink = (pct) => ctx.emit({ type: 'queryProgress', queryId, fraction: Math.min(1, pct / 100) });
    try {
      const out = await runQuery(engine, sql, maxRows, assessed.length > 0 ? assessed.map((a) => a.stmt) : undefined);
      // Interrupted by its Cancel: said as a cancel, not as DuckDB's "INTERRUPT Error".
      return !out.ok && cancelled() ? CANCELLED : out;
    } finally {
      ctx.querying = null;
      ctx.progressSink = undefined;
    }
  }, () => CANCELLED);
  const renames = assessed.flatMap((a) => {
    const r = renameIn(a.stmt);
    return r ? [r] : [];
  });
  // Every dataset a writing statement names (or all of them, when DuckDB could not read the
  // script) is described again; the catalog decides which still exist.
  const writing = assessed.filter(mayWrite);
  const touched = new Set<string>(assessed.length === 0 || writing.some((a) => a.targets.some((t) => t.name === '*')) ? ['*'] : []);
  for (const a of writing) for (const t of a.stmt.tokens) touched.add((nameOf(t) ?? '').toLowerCase());
  if (writing.length > 0 || assessed.length === 0) await reconcile(ctx, engine, renames, touched);
  return outcome;
}

/**
 * After a console statement that may have written, brings the dataset list in line with DuckDB's
 * catalog: a dataset that is gone leaves the list (or follows its rename), a touched one is
 * described again (and its snapshot rewritten).
 */
async function reconcile(ctx: HostContext, engine: Engine, renames: { from: string; to: string }[], touched: Set<string>): Promise<void> {
  const storage = await ctx.writable();
  const existing = new Set(await ctx.serial.run(() => mainTableNames(engine)));
  let changed = false;
  for (const [name, info] of [...ctx.datasets]) {
    if (existing.has(name)) {
      if (!touched.has(name.toLowerCase()) && !touched.has('*')) continue;
      const fresh = await ctx.serial.run(() => describeTable(engine, name)).catch(() => undefined);
      if (fresh) ctx.datasets.set(name, { ...(ctx.datasets.get(name) ?? info), ...fresh });
      changed = true;
      // The edit survives a reload: the snapshot is what the next start restores.
      if (info.persisted) void ctx.snapshots.save(name);
      continue;
    }
    const rename = renames.find((r) => r.from === name.toLowerCase() && existing.has(r.to));
    const current = ctx.datasets.get(name) ?? info;
    ctx.datasets.delete(name);
    if (rename) {
      ctx.datasets.set(rename.to, { ...current, name: rename.to });
      moveSource(ctx, name, rename.to);
      await storage?.rename(name, rename.to).catch(() => undefined);
    } else {
      ctx.dropped.set(name, info);
      await storage?.remove(name).catch(() => undefined);
    }
    changed = true;
  }
  // A ROLLBACK in the console brings back what a DROP in its transaction took: so does the list
  // (its saved copy was already forgotten: it is kept for this session only).
  for (const [name, info] of [...ctx.dropped]) {
    if (!existing.has(name) || ctx.datasets.has(name)) continue;
    ctx.dropped.delete(name);
    const fresh = await ctx.serial.run(() => describeTable(engine, name)).catch(() => undefined);
    ctx.datasets.set(name, { ...info, ...(fresh ?? {}), persisted: false });
    changed = true;
  }
  if (changed) ctx.changed();
}
