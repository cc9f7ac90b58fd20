/**
 * Applying an imported project's metrics (issues 32, 37): saved together — one write and one update
 * of the list for 2,000 metrics (one at a time, the list was re-sorted 2,000 times and the page hung)
 * — all or none, and undone as a whole.
 */
import { describe, expect, it } from 'vitest';
import type { Metric } from '../../protocol/agent/knowledge';
import { applyMetricImport, undoMetricImport, type MetricHost } from './metricImport';
import { withMetrics, withoutMetrics } from './metricList';

function host(start: Metric[], failPut = false) {
  let list = [...start];
  let seq = 0;
  const calls = { putAll: 0, removeAll: 0 };
  const h: MetricHost = {
    tablesOf: undefined,
    newId: () => `new-${++seq}`,
    current: () => list,
    putAll: async (ms) => {
      calls.putAll++;
      if (failPut) throw new Error('QuotaExceededError');
      list = withMetrics(list, ms);
    },
    removeAll: async (ids) => {
      calls.removeAll++;
      list = withoutMetrics(list, ids);
    },
  };
  return { h, calls, list: () => list };
}

const old: Metric = { id: 'g', name: 'Gross', dataset: 'orders', expression: 'sum(a)', description: '', created_at: '' };
const drafts = Array.from({ length: 2_000 }, (_, i) => ({ name: i === 5 ? 'gross' : `m${i}`, dataset: 'orders', expression: `sum(a) FILTER (WHERE id > ${i})`, description: '' }));

describe('applying imported metrics', () => {
  it('saves 2,000 in one write, replacing the one of the same name and table, and undoes all of it', async () => {
    const { h, calls, list } = host([old]);
    const undo = await applyMetricImport(h, drafts);
    if (typeof undo === 'string') throw new Error(undo);
    expect(calls.putAll).toBe(1);
    expect(list()).toHaveLength(2_000);
    expect(list().find((m) => m.id === 'g')?.expression).toBe('sum(a) FILTER (WHERE id > 5)');
    expect(undo.replaced).toEqual([old]);
    expect(undo.added).toHaveLength(1_999);
    await undoMetricImport(h, undo);
    expect(list()).toEqual([old]);
  });

  it('says why when they cannot be saved, and leaves the metrics as they were', async () => {
    const { h, list } = host([old], true);
    expect(await applyMetricImport(h, drafts)).toBe('The metrics could not be saved: QuotaExceededError');
    expect(list()).toEqual([old]);
  });
});
