/**
 * One import of a dbt project's files (issue 32): the dataset's column descriptions (merged, as
 * any dictionary import) and the project's metrics, read together and shown before anything is
 * applied. Each file is parsed once. A metric is kept only if DuckDB binds its expression over its
 * table (`check`); one it does not, or one dbt's shape cannot give as one expression, is listed as
 * skipped with the reason.
 */
import type { DataDictionary, Metric } from '../../protocol/agent/knowledge';
import { importDictionary, mergeImport, parseJsonOrYaml, readDocBlocks, type ImportPreview } from '../../shared/knowledge/dictionaryImport';
import { dbtMetrics, definesMetrics, type MetricDraft, type SkippedMetric } from '../../shared/knowledge/dbtMetrics';
import { messageOf } from '../../shared/errors';

export interface ImportFile {
  name: string;
  text: string;
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
  dataset: string;
  columns: readonly string[];
  /** The dictionary the import merges into. */
  base: DataDictionary;
  /** Every loaded dataset: a project's metrics may be for any of them. */
  datasets: readonly string[];
  existing: readonly Metric[];
  /** Why DuckDB does not bind the metric over its table, or null. */
  check(m: MetricDraft): Promise<string | null>;
}

const isDocFile = (f: ImportFile) => /\.md$/i.test(f.name);

/**
 * Each metric's problem (null: DuckDB binds it), in as few checks as it takes: a table's metrics
 * are bound together in one SELECT, and only a group that fails is split (a project of 2,000
 * metrics with one typo is about two dozen checks, not 2,000).
 */
export async function checkAll(list: readonly MetricDraft[], check: ImportTarget['check']): Promise<(string | null)[]> {
  const out: (string | null)[] = list.map(() => null);
  const run = async (idx: number[]): Promise<void> => {
    const first = list[idx[0] ?? -1];
    if (!first) return;
    if (idx.length === 1) {
      out[idx[0] ?? 0] = await check(first);
      return;
    }
    const together = await check({ ...first, expression: idx.map((i) => `(${list[i]?.expression ?? 'NULL'})`).join(', ') });
    if (together === null) return;
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
  for (const idx of byTable.values()) await run(idx);
  return out;
}

/** Reads the picked files; throws (with the reason) when they bring nothing for this dataset. */
export async function readProjectImport(files: readonly ImportFile[], target: ImportTarget): Promise<ProjectImport> {
  const schemas = files.filter((f) => !isDocFile(f));
  if (schemas.length === 0) throw new Error('Pick the schema file (YAML, JSON or CSV) together with the .md files of its doc blocks.');
  const docs: Record<string, string> = Object.assign({}, ...files.filter(isDocFile).map((f) => readDocBlocks(f.text)));
  const parsed: unknown[] = [];
  /** Files that could not be read at all, and why each file gave no dictionary. */
  const unread: string[] = [];
  const problems: string[] = [];
  let dictionary: ProjectImport['dictionary'] = null;
  const warnings: string[] = [];
  for (const file of schemas) {
    let doc: unknown;
    if (!/\.csv$/i.test(file.name)) {
      try {
        doc = parseJsonOrYaml(file.text);
        parsed.push(doc);
      } catch (e) {
        unread.push(`${file.name} could not be read: ${messageOf(e)}`);
        continue;
      }
    }
    if (dictionary) continue;
    try {
      const read = importDictionary(file.text, file.name, target.dataset, target.columns, { docs, ...(doc !== undefined ? { parsed: doc } : {}) });
      dictionary = mergeImport(target.base, read);
      warnings.push(...read.warnings);
    } catch (e) {
      problems.push(messageOf(e));
    }
  }
  const metrics: MetricsPreview = { added: [], changed: [], unchanged: [], skipped: [] };
  if (definesMetrics(parsed)) {
    const read = dbtMetrics(parsed, target.datasets);
    metrics.skipped.push(...read.skipped);
    const problems = await checkAll(read.metrics, target.check);
    read.metrics.forEach((m, i) => {
      const problem = problems[i];
      if (problem) {
        metrics.skipped.push({ name: m.name, reason: `DuckDB does not accept ${m.expression} over ${m.dataset}: ${problem}` });
        return;
      }
      const there = target.existing.find((x) => x.dataset === m.dataset && x.name.toLowerCase() === m.name.toLowerCase());
      if (!there) metrics.added.push(m);
      else if (there.expression.trim() === m.expression.trim()) metrics.unchanged.push(m);
      else metrics.changed.push(m);
    });
  }
  const found = metrics.added.length + metrics.changed.length + metrics.unchanged.length + metrics.skipped.length;
  if (!dictionary && found === 0) throw new Error([...unread, ...problems].join(' ') || 'The files describe nothing of this dataset.');
  warnings.push(...unread);
  if (!dictionary) warnings.push(`No file describes the columns of ${target.dataset}: only metrics are imported.`);
  return { fileName: schemas.map((f) => f.name).join(', '), dictionary, metrics, warnings };
}
