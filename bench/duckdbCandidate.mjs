// `--only=duckdb-candidate`: another DuckDB-WASM package (BENCH_DUCKDB_WASM=<its folder>, e.g. a
// dev build installed into a scratch folder) beside the app's, paired. The harness's compare.html
// is built once against each; every round opens one fresh page of each, in alternating order, and
// times what a user waits for: page → DuckDB open, the first read_csv of the 1M-row CSV from a
// registered File (as the app reads it), the first GROUP BY. Then the threaded (coi) build of
// each, once, from a registered File (duckdb-wasm #2243).
import { loadavg } from 'node:os';
import { compareOnce } from './csvFloor.mjs';
import { median } from './workload.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const COI_RUNS = Number(process.env.BENCH_COI_RUNS ?? 2);
const FIELDS = [
  ['bootMs', 'page → DuckDB open (eh)'],
  ['loadMs', 'CSV ingest, 1M rows / 98 MB, first read_csv from a registered File (eh)'],
  ['queryMs', 'first GROUP BY over 1M rows (eh)'],
  ['totalMs', 'page → first load → first answer, file given at once (eh)'],
];

const load1 = () => Math.round(loadavg()[0] * 100) / 100;

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {{ current: string, candidate: string }} urls compare.html of each harness build
 * @param {string} csvPath
 */
export async function measureCandidate(browser, urls, csvPath) {
  /** @type {{ current: any[], candidate: any[] }} */
  const runs = { current: [], candidate: [] };
  const loads = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['current', 'candidate'] : ['candidate', 'current'];
    loads.push(load1());
    for (const which of order) {
      const r = await compareOnce(browser, urls[which], csvPath, { bundle: 'eh', source: 'file' });
      if (r.error) throw new Error(`${which}: ${r.error}`);
      console.log(`  round ${round + 1} ${which} (${r.version}): boot ${r.bootMs.toFixed(0)}, load ${r.loadMs.toFixed(0)}, first GROUP BY ${r.queryMs.toFixed(0)}, page → answer ${r.totalMs.toFixed(0)} ms; load average ${load1()}`);
      runs[which].push(r);
    }
  }
  // The coi build's File read fails some times and not others: tried COI_RUNS times each, alternating.
  const coi = { current: [], candidate: [] };
  for (let i = 0; i < COI_RUNS; i++) {
    for (const which of i % 2 === 0 ? ['current', 'candidate'] : ['candidate', 'current']) {
      const r = await compareOnce(browser, urls[which], csvPath, { bundle: 'coi', source: 'file' }).catch((e) => ({ error: String(e) }));
      coi[which].push(r.error ? { error: r.error.split('\n')[0] } : r);
      console.log(`  ${which} coi/file: ${r.error ? `failed: ${r.error.split('\n')[0]}` : `boot ${r.bootMs.toFixed(0)}, load ${r.loadMs.toFixed(0)} ms (threads ${r.threads})`}; load average ${load1()}`);
    }
  }
  loads.push(load1());
  return { runs, coi, loads };
}

/** @typedef {{ name: string, value: number | null, unit: string, baseline?: { name: string, value: number }, ratio?: number }} Row */

/**
 * Medians of each, and the median of the per-round ratios (candidate ÷ current).
 * @returns {Row[]}
 */
export function candidateRows({ runs, coi, loads }) {
  const cur = runs.current[0]?.version ?? 'current';
  const cand = runs.candidate[0]?.version ?? 'candidate';
  const n = Math.min(runs.current.length, runs.candidate.length);
  /** @type {Row[]} */
  const rows = FIELDS.map(([key, label]) => {
    const a = median(runs.candidate.map((r) => r[key]));
    const b = median(runs.current.map((r) => r[key]));
    const paired = median(Array.from({ length: n }, (_, i) => runs.candidate[i][key] / runs.current[i][key]));
    return {
      name: `${label}: DuckDB ${cand} vs ${cur} (median of ${n} paired; paired ratio ${paired.toFixed(2)})`,
      value: Math.round(a),
      unit: 'ms',
      baseline: { name: `DuckDB ${cur}`, value: Math.round(b) },
      ratio: Math.round((a / b) * 100) / 100,
    };
  });
  for (const which of ['current', 'candidate']) {
    const version = which === 'current' ? cur : cand;
    const ok = coi[which].filter((r) => !r.error);
    const failed = coi[which].filter((r) => r.error);
    const how = `${ok.length} of ${coi[which].length} read it${failed.length ? `; failed: ${failed[0].error.slice(0, 100)}` : ''}`;
    rows.push({ name: `threaded (coi) build, DuckDB ${version}: first read_csv from a registered File (${how})`, value: ok.length ? Math.round(median(ok.map((r) => r.loadMs))) : null, unit: 'ms' });
  }
  rows.push({ name: `load average during the rounds (median; min–max ${Math.min(...loads)}–${Math.max(...loads)})`, value: median(loads), unit: '' });
  return rows;
}
