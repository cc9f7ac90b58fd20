import { HEADROOM_BYTES, WASM_CEILING_BYTES } from './footprint';

/**
 * DuckDB's `memory_limit` from the device. DuckDB-WASM's own default is 80% of what it believes
 * the machine has, which on wasm32 came out at 3.1 GiB of a 4 GiB heap that also holds the
 * engine, the readers' buffers and memory DuckDB does not account for: a big statement then fails
 * in the allocator ("Out of Memory Error: Allocation failure") instead of being refused by DuckDB
 * with a message that names the limit. So the limit leaves the footprint check's headroom free,
 * and a small device (navigator.deviceMemory, in GiB, rounded and capped at 8 by browsers) gets
 * half its memory.
 */

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
/** Browsers without navigator.deviceMemory (Firefox, Safari): assume a 4 GiB device. */
const UNKNOWN_DEVICE_GIB = 4;
const FLOOR_BYTES = 512 * MIB;
/** What the wasm32 heap can give DuckDB's buffers with the headroom kept free. */
export const WASM_LIMIT_CAP_BYTES = WASM_CEILING_BYTES - HEADROOM_BYTES - 256 * MIB;

export function memoryLimitBytes(deviceMemoryGiB: number | undefined): number {
  const device = typeof deviceMemoryGiB === 'number' && Number.isFinite(deviceMemoryGiB) && deviceMemoryGiB > 0 ? deviceMemoryGiB : UNKNOWN_DEVICE_GIB;
  const half = Math.floor((device * GIB) / 2 / MIB) * MIB;
  return Math.min(WASM_LIMIT_CAP_BYTES, Math.max(FLOOR_BYTES, half));
}

/** The statement that sets it (before the configuration is locked). */
export function memoryLimitSql(bytes: number): string {
  return `SET memory_limit = '${Math.floor(bytes / MIB)}MiB'`;
}

/** The footprint check's ceiling for that limit: a load may fill the limit, not the headroom. */
export function footprintCeiling(limitBytes: number): number {
  return limitBytes + HEADROOM_BYTES;
}
