/// <reference lib="webworker" />
/**
 * Imported first by duckdb-browser-cached.worker.ts, so its listener precedes the `onmessage`
 * DuckDB's worker code installs: a DuckDB worker the page started talks to the data worker
 * through the port the page sends (duckdbPort.ts).
 */
import { bridgeToPort } from './duckdbPort';

bridgeToPort(self as unknown as Parameters<typeof bridgeToPort>[0]);
