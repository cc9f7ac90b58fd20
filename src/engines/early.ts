/**
 * Imported first by main.ts, so it runs before the rest of the page's bundle is evaluated: starts
 * DuckDB's worker at once (its script, its `.wasm` compile, its own start-up), which the data
 * worker then takes over through a port (workers/data/engine/duckdbPort.ts). On a repeat visit that
 * start is most of "DuckDB ready", and now nothing of the page's own runs before it.
 */
import { startDuckDBEarly } from './spawn';

startDuckDBEarly();
