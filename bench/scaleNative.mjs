// Native DuckDB for one cell of the scale matrix, in a process of its own so its peak memory is
// its own (and a crash is a failed cell, not a failed bench). It keeps its database between
// steps: the parent sends one step at a time on stdin (a JSON line) and runs the app's same step
// in between, so each pair is measured side by side on a machine whose load drifts. Each step
// answers with a JSON line: { ms, peakMB } or { error }.
import { readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { DuckDBInstance } from '@duckdb/node-api';

const sqlString = (s) => `'${s.replaceAll("'", "''")}'`;
const ident = (s) => `"${s.replaceAll('"', '""')}"`;

/** Resets this process's peak resident memory (Linux), so the next reading is the step's own. */
function resetPeak() {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not Linux: the peak runs from the process's start.
  }
}

function peakMB() {
  try {
    const kb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
    if (Number.isFinite(kb)) return Math.round(kb / 1024);
  } catch {
    // Not Linux.
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

const instance = await DuckDBInstance.create(':memory:');
const conn = await instance.connect();
// One thread, as DuckDB-WASM runs in the app (its threaded build is not used).
await conn.run('SET threads = 1');
const [[version]] = (await conn.runAndReadAll('SELECT version()')).getRowsJS();

/** @param {{ op: string, path?: string, table?: string, view?: boolean, columns?: string[], sql?: string }} msg */
async function step(msg) {
  const t = ident(msg.table ?? '');
  switch (msg.op) {
    case 'load':
      // A view is counted once, as the app counts a view's rows when it attaches it.
      if (msg.view) {
        await conn.run(`CREATE VIEW ${t} AS SELECT * FROM read_csv(${sqlString(msg.path ?? '')})`);
        await conn.runAndReadAll(`SELECT count(*) FROM ${t}`);
      } else {
        // `columns`: only those (the reference table beside a view holds what was profiled).
        const select = msg.columns ? msg.columns.map(ident).join(', ') : '*';
        await conn.run(`CREATE TABLE ${t} AS SELECT ${select} FROM read_csv(${sqlString(msg.path ?? '')})`);
      }
      return;
    case 'summarize':
      // The same columns the app profiled (its Profile tab covers the first 300).
      await conn.runAndReadAll(`SUMMARIZE SELECT ${(msg.columns ?? []).map(ident).join(', ')} FROM ${t}`);
      return;
    case 'query':
      await conn.runAndReadAll(msg.sql ?? '');
      return;
    case 'drop':
      await conn.run(`DROP TABLE IF EXISTS ${t}`);
      return;
    default:
      throw new Error(`unknown step ${msg.op}`);
  }
}

process.stdout.write(`${JSON.stringify({ ready: true, version })}\n`);
for await (const line of createInterface({ input: process.stdin })) {
  const msg = JSON.parse(line);
  if (msg.op === 'quit') break;
  resetPeak();
  const t0 = performance.now();
  try {
    await step(msg);
    process.stdout.write(`${JSON.stringify({ ms: performance.now() - t0, peakMB: peakMB() })}\n`);
  } catch (e) {
    process.stdout.write(`${JSON.stringify({ error: e instanceof Error ? e.message : String(e) })}\n`);
  }
}
conn.closeSync();
instance.closeSync();
