/// <reference lib="webworker" />
// A bare read_csv in DuckDB-WASM, started the way the app's data worker starts it (the same boot
// code, so the same nested DuckDB worker and settings) but with none of the app's load path: no
// sniffing of our own, no assessment, no progress, no snapshot. The bench divides the app's CSV
// load by this to see what the load path adds.
import { bootDuckDB } from '../../workers/data/engine/duckdbBoot';
import { readCsvSql } from '../../workers/data/engine/csvOptions';
import { runQuery } from '../../workers/data/engine/queryRunner';
import { runModelSql } from '../../workers/data/engine/modelSql';
import { REGISTERED_DIR } from '../../workers/data/engine/duckdbEngine';
import { warmUpEngine } from '../../workers/data/loaders/warmUp';
import { timeParquet } from './bareParquet';

/**
 * `firstMs`: the first read_csv in this engine, as a page's first load is (DuckDB's code for it is
 * compiled lazily on first use); `defaultMs` and `appOptionsMs`: medians of the runs after it.
 */
export type BareReply = { ok: true; firstMs: number; defaultMs: number; appOptionsMs: number; rows: number; groupByMs: { direct: number; viaApp: number; viaModel: number; viaModelInARow: number } } | { ok: false; error: string };

const engine = bootDuckDB();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function timeCreate(table: string, from: string): Promise<number> {
  const e = await engine;
  const t0 = performance.now();
  const { batches } = await e.send(`CREATE TABLE ${table} AS SELECT * FROM ${from}`);
  for await (const _ of batches) {
    // Draining the one-row "Count" result completes the statement, as the app's load does.
  }
  return performance.now() - t0;
}

self.addEventListener('message', (ev: MessageEvent<{ file: File; repeats: number; warm?: number; parquet?: boolean }>) => {
  if (ev.data.parquet) {
    void (async () => self.postMessage({ ok: true, parquet: await timeParquet(await engine, ev.data.file) }))().catch((err: unknown) =>
      self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
    return;
  }
  void (async () => {
    const { file, repeats } = ev.data;
    const e = await engine;
    const path = `${REGISTERED_DIR}bare.csv`;
    await e.registerBlob(path, file);
    const plain: number[] = [];
    const appOptions: number[] = [];
    let rows = 0;
    // `?warm=1` on the page: the app's own warm-up first (warmUp.ts), to see what it saves.
    if (ev.data.warm) await warmUpEngine(e);
    const firstMs = await timeCreate('bare_first', `read_csv('${path}')`);
    await e.query('DROP TABLE bare_first');
    for (let i = 0; i < repeats; i++) {
      plain.push(await timeCreate('bare_default', `read_csv('${path}')`));
      rows = Number((await e.query('SELECT count(*)::DOUBLE AS n FROM bare_default')).getChild('n')?.get(0));
      await e.query('DROP TABLE bare_default');
      appOptions.push(await timeCreate('bare_app', readCsvSql(path, { encoding: 'utf-8', tsv: false, fullSample: false })));
      await e.query('DROP TABLE bare_app');
    }
    // GROUP BY on the loaded rows: one blocking call vs the app's two query paths, paired in each
    // round — the console's (prepared once, types from DuckDB's list of prepared statements, a
    // streamed, polled result) and the model's (lexed, prepared once, its plan judged read-only,
    // that plan executed, in a read-only transaction).
    await timeCreate('bare_rows', readCsvSql(path, { encoding: 'utf-8', tsv: false, fullSample: false }));
    const groupBy = 'SELECT category, count(*) AS n, sum(qty) AS total_qty, avg(price) AS avg_price, avg(score) AS avg_score FROM bare_rows GROUP BY category ORDER BY category';
    const scope = { tables: new Set(['bare_rows']), views: new Set<string>() };
    const direct: number[] = [];
    const viaApp: number[] = [];
    const viaModel: number[] = [];
    for (let i = 0; i < 9; i++) {
      const t = performance.now();
      await e.query(groupBy);
      direct.push(performance.now() - t);
      const r = await runQuery(e, groupBy);
      if (!r.ok) throw new Error(r.message);
      viaApp.push(r.result.elapsedMs);
      const m = await runModelSql(e, groupBy, 10_000, scope);
      if (!m.ok) throw new Error(m.message);
      viaModel.push(m.result.elapsedMs);
    }
    // The model's queries one after another with nothing else in between, as an agent's run of
    // run_sql calls: the catalog facts read by the first are kept for the next (catalogMemo.ts).
    // In the paired rounds above the console's query in between makes each model run reread them.
    const inARow: number[] = [];
    for (let i = 0; i < 9; i++) {
      const m = await runModelSql(e, groupBy, 10_000, scope);
      if (!m.ok) throw new Error(m.message);
      inARow.push(m.result.elapsedMs);
    }
    await e.query('DROP TABLE bare_rows');
    const groupByMs = { direct: median(direct), viaApp: median(viaApp), viaModel: median(viaModel), viaModelInARow: median(inARow) };
    await e.dropFile(path);
    const reply: BareReply = { ok: true, firstMs, defaultMs: median(plain), appOptionsMs: median(appOptions), rows, groupByMs };
    self.postMessage(reply);
  })().catch((err: unknown) => self.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) } satisfies BareReply));
});
