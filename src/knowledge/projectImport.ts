/**
 * One import of a dbt project's files (issue 32) — or of one dictionary file — finished on the
 * page: the parse worker has read and parsed the files and translated the metrics
 * (shared/knowledge/projectRead.ts, issue 37); here the dictionary is merged into the copy being
 * edited and each metric is kept only if DuckDB binds its expression over its table (`check`). One
 * it does not is listed as skipped with DuckDB's reason. Nothing is applied before the preview.
 */
import type { DataDictionary, Metric } from '../../protocol/agent/knowledge';
import type { MetricDraft, ProjectRead } from '../../protocol/parse';
import { mergeImport, type ImportPreview } from '../../shared/knowledge/dictionaryMerge';

export type { MetricDraft };
export interface SkippedMetric {
  name: string;
  reason: string;
}

/** What applying the import would do to the workspace's metrics. */
export interface MetricsPreview {
  added: MetricDraft[];
  /** Same name and table as a metric there is, with another definition: it would be replaced. */
  changed: MetricDraft[];
  unchanged: MetricDraft[];
  skipped: SkippedMetric[];
}

export interface ProjectImport {
  fileName: string;
  /** The merged dictionary and what it changes; null when no file describes the dataset's columns. */
  dictionary: { dictionary: DataDictionary; preview: ImportPreview } | null;
  metrics: MetricsPreview;
  warnings: string[];
}

export interface ImportTarget {
  /** The dictionary the import merges into. */
  base: DataDictionary;
  existing: readonly Metric[];
  /** Why DuckDB does not bind the metric over its table, or null. */
  check(m: MetricDraft): Promise<string | null>;
}

export interface CheckOptions {
  /** Stops between binds (a bind in flight is not interrupted; it is short). */
  signal?: AbortSignal;
  /** Metrics whose check is settled so far, of all. */
  onChecked?: (done: number, of: number) => void;
}

/**
 * Each metric's problem (null: DuckDB binds it), in as few checks as it takes: a table's metrics
 * are bound together, up to GROUP to one SELECT, and only a group that fails is split (a project of
 * 2,000 metrics with one typo is about two dozen checks, not 2,000).
 */
/**
 * Metrics bound in one SELECT at most. A bind costs about its length, and a group that fails is
 * bound again in halves: 2,000 metrics with two typos took DuckDB 6.0 s as one group, 2.2 s in
 * groups of 500 (Node build, src/knowledge/projectImport.test.ts's shapes).
 */
const GROUP = 250;

export async function checkAll(list: readonly MetricDraft[], check: ImportTarget['check'], options: CheckOptions = {}): Promise<(string | null)[] | 'cancelled'> {
  const out: (string | null)[] = list.map(() => null);
  let done = 0;
  const settled = (n: number) => {
    done += n;
    options.onChecked?.(done, list.length);
  };
  const run = async (idx: number[]): Promise<void> => {
    const first = list[idx[0] ?? -1];
    if (!first || options.signal?.aborted) return;
    if (idx.length === 1) {
      out[idx[0] ?? 0] = await check(first);
      settled(1);
      return;
    }
    const together = await check({ ...first, expression: idx.map((i) => `(${list[i]?.expression ?? 'NULL'})`).join(', ') });
    if (together === null) return settled(idx.length);
    const half = Math.ceil(idx.length / 2);
    await run(idx.slice(0, half));
    await run(idx.slice(half));
  };
  const byTable = new Map<string, number[]>();
  list.forEach((m, i) => {
    const idx = byTable.get(m.dataset);
    if (idx) idx.push(i);
    else byTable.set(m.dataset, [i]);
  });
  for (const idx of byTable.values()) for (let at = 0; at < idx.length; at += GROUP) await run(idx.slice(at, at + GROUP));
  return options.signal?.aborted ? 'cancelled' : out;
}

/**
 * The worker's read of the files as the preview shows it: the dictionary merged into `target.base`,
 * each metric checked by DuckDB and said added, replaced, unchanged or skipped ('cancelled' when
 * the signal ends the checks).
 */
export async function checkProjectImport(read: ProjectRead, target: ImportTarget, options: CheckOptions = {}): Promise<ProjectImport | 'cancelled'> {
  const metrics: MetricsPreview = { added: [], changed: [], unchanged: [], skipped: [...read.skipped] };
  const problems = await checkAll(read.metrics, target.check, options);
  if (problems === 'cancelled') return problems;
  // By table and name (any case), once: 2,000 metrics against 2,000 saved ones is no scan per metric.
  const existing = new Map<string, Metric>();
  for (const x of target.existing) if (!existing.has(`${x.dataset}\u0000${x.name.toLowerCase()}`)) existing.set(`${x.dataset}\u0000${x.name.toLowerCase()}`, x);
  read.metrics.forEach((m, i) => {
    const problem = problems[i];
    if (problem) {
      metrics.skipped.push({ name: m.name, reason: `DuckDB does not accept ${m.expression} over ${m.dataset}: ${problem}` });
      return;
    }
    const there = existing.get(`${m.dataset}\u0000${m.name.toLowerCase()}`);
    if (!there) metrics.added.push(m);
    else if (there.expression.trim() === m.expression.trim()) metrics.unchanged.push(m);
    else metrics.changed.push(m);
  });
  const dictionary = read.dictionary ? mergeImport(target.base, read.dictionary) : null;
  return { fileName: read.fileName, dictionary, metrics, warnings: read.warnings };
}
