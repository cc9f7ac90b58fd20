import { describe, expect, it } from 'vitest';
import { HEADROOM_BYTES, WASM_CEILING_BYTES } from './footprint';
import { memoryLimitBytes, memoryLimitSql, WASM_LIMIT_CAP_BYTES } from './memoryBudget';
import { NodeEngine } from '../testing/nodeEngine';

const GIB = 1024 ** 3;

describe('memory budget', () => {
  it('takes half the device, within the wasm heap and above a floor', () => {
    expect(memoryLimitBytes(2)).toBe(GIB);
    expect(memoryLimitBytes(0.25)).toBe(512 * 1024 ** 2);
    expect(memoryLimitBytes(8)).toBe(WASM_LIMIT_CAP_BYTES);
    expect(WASM_LIMIT_CAP_BYTES + HEADROOM_BYTES).toBeLessThan(WASM_CEILING_BYTES);
    // No deviceMemory (Firefox, Safari): a 4 GiB device.
    expect(memoryLimitBytes(undefined)).toBe(2 * GIB);
    expect(memoryLimitBytes(Number.NaN)).toBe(2 * GIB);
  });
  it('is a limit DuckDB takes', { timeout: 60_000 }, async () => {
    const engine = await NodeEngine.open({ memoryLimitBytes: GIB });
    const t = await engine.query(`SELECT current_setting('memory_limit') AS m`);
    expect(String(t.getChild('m')?.get(0))).toMatch(/^1(\.0)? ?GiB$/);
    expect(memoryLimitSql(GIB)).toBe(`SET memory_limit = '1024MiB'`);
  });
});
