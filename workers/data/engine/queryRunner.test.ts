import { Float64, Int32, Uint8, Utf8, Decimal } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { arrowTypeName, runQuery } from './queryRunner';
import { NodeEngine } from '../testing/nodeEngine';

describe('queryRunner', { timeout: 60_000 }, () => {
  it('names Arrow types the DuckDB way', () => {
    expect([new Int32(), new Uint8(), new Float64(), new Utf8(), new Decimal(2, 10, 128)].map(arrowTypeName)).toEqual(['INTEGER', 'UTINYINT', 'DOUBLE', 'VARCHAR', 'DECIMAL(10,2)']);
  });
  it('falls back to Arrow types for statements DuckDB cannot describe, and reports statements without rows', async () => {
    const engine = await NodeEngine.open();
    const made = await runQuery(engine, 'CREATE TABLE t AS SELECT 1 AS x');
    // BIGINT results arrive as doubles (castBigIntToDouble), so undescribed columns say DOUBLE.
    expect(made.ok && made.result.columns).toEqual([{ name: 'Count', type: 'DOUBLE' }]);
    const shown = await runQuery(engine, 'SHOW TABLES');
    expect(shown.ok && shown.result.rowCount).toBe(1);
    const zero = await runQuery(engine, 'SELECT * FROM range(5)', 0);
    expect(zero.ok && [zero.result.rowCount, zero.result.truncated]).toEqual([0, true]);
  });
});
