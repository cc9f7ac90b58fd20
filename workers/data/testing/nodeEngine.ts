/// <reference types="node" />
/**
 * Test-only: the Engine over the Node build of the same DuckDB-WASM the browser runs, so the
 * SQL the data engine generates is checked against the real engine. Not imported by app code.
 */
import { createRequire } from 'node:module';
import type { DuckDBBindings, DuckDBConnection } from '@duckdb/duckdb-wasm/blocking';
import { tableFromIPC, type RecordBatch, type Table } from 'apache-arrow';
import { memoryLimitSql } from '../engine/memoryBudget';
import { ENGINE_CONFIG_SQL, ENGINE_LOCK_SQL, type Engine, type ResultStream, type ScriptTokens } from '../engine/duckdbEngine';
import { bootNodeDuckDB } from './nodeDuckDB';
import { UTC_ONLY_SQL } from '../engine/timeZones';

const require = createRequire(import.meta.url);

/**
 * The Node build is CommonJS and so gets apache-arrow's CJS classes, while our modules import
 * its ESM build: instanceof checks fail across the two. Results are moved across as IPC bytes.
 */
interface CjsArrow {
  tableToIPC(table: unknown, type: 'stream'): Uint8Array;
  Table: new (...args: unknown[]) => unknown;
}
const cjsArrow = require('apache-arrow') as CjsArrow;
const toEsm = (cjsTable: unknown): Table => tableFromIPC(cjsArrow.tableToIPC(cjsTable, 'stream'));

export class NodeEngine implements Engine {
  calls = 0;

  private constructor(
    private readonly db: DuckDBBindings,
    private readonly conn: DuckDBConnection,
  ) {}

  /** `memoryLimitBytes`: DuckDB's memory_limit, set as the browser boot sets it (memoryBudget.ts). */
  static async open(options: { memoryLimitBytes?: number } = {}): Promise<NodeEngine> {
    // Same options as the browser boot.
    const db = await bootNodeDuckDB({ query: { castBigIntToDouble: true, castDecimalToDouble: true } });
    const conn = db.connect();
    for (const sql of ENGINE_CONFIG_SQL) conn.query(sql);
    if (options.memoryLimitBytes !== undefined) conn.query(memoryLimitSql(options.memoryLimitBytes));
    for (const sql of ENGINE_LOCK_SQL) conn.query(sql);
    // No ICU here (extensions come from the network in the browser): as the browser boot without it.
    for (const sql of UTC_ONLY_SQL) conn.query(sql);
    return new NodeEngine(db, conn);
  }

  async version(): Promise<string> {
    return this.db.getVersion();
  }

  async query(sql: string): Promise<Table> {
    this.calls++;
    return toEsm(this.conn.query(sql));
  }

  async send(sql: string): Promise<ResultStream> {
    this.calls++;
    const reader = await this.conn.send(sql, true);
    reader.open();
    const batches: AsyncIterable<RecordBatch> = {
      async *[Symbol.asyncIterator]() {
        for (const batch of reader) yield* toEsm(new cjsArrow.Table([batch])).batches;
      },
    };
    return { schema: toEsm(new cjsArrow.Table(reader.schema)).schema, batches };
  }

  async cancel(): Promise<void> {
    this.conn.cancelSent();
  }

  async tokenize(sql: string): Promise<ScriptTokens> {
    const t = this.db.tokenize(sql);
    return { offsets: [...t.offsets], types: [...t.types] };
  }

  async insertArrowStream(ipc: Uint8Array, table: string, create: boolean): Promise<void> {
    this.calls++;
    this.conn.insertArrowFromIPCStream(ipc, { name: table, create });
  }

  /** Node has no FileReaderSync: tests hand DuckDB the bytes instead of a file handle. */
  async registerBlob(name: string, blob: Blob): Promise<void> {
    this.db.registerFileBuffer(name, new Uint8Array(await blob.arrayBuffer()));
  }

  async dropFile(name: string): Promise<void> {
    this.db.dropFile(name);
  }
}
