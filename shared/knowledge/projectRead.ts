/**
 * A dbt project's files read for one dataset (issues 32, 37), in the parse worker: each file
 * parsed once (YAML/JSON by a real parser, CSV by the RFC 4180 reader), the first file that
 * describes the dataset's columns as its dictionary (doc blocks filled in from the .md files), and
 * the project's metrics translated to DuckDB expressions. One dictionary file is a project of
 * one. DuckDB's checks of the metrics are left to the page (src/knowledge/projectImport.ts).
 */
import type { ProjectRead } from '../../protocol/parse';
import { messageOf } from '../errors';
import { dbtMetrics, definesMetrics } from './dbtMetrics';
import { importDictionary, parseJsonOrYaml, readDocBlocks, type ImportResult } from './dictionaryImport';

export interface ProjectFile {
  name: string;
  text: string;
}

export interface ProjectTarget {
  dataset: string;
  columns: readonly string[];
  /** Every loaded dataset: a project's metrics may be for any of them. */
  datasets: readonly string[];
}

export type ProjectReadOutcome = { ok: true; result: ProjectRead } | { ok: false; message: string };

const isDocFile = (name: string) => /\.md$/i.test(name);
const kindOf = (name: string) => (/\.json$/i.test(name) ? 'JSON' : 'YAML');

/**
 * What the files bring for `target.dataset`; `ok: false` (with the reason) when they bring
 * nothing for it. `onFile` is told after each schema file is parsed.
 */
export function readProject(files: readonly ProjectFile[], target: ProjectTarget, onFile: (done: number, of: number) => void = () => {}): ProjectReadOutcome {
  const schemas = files.filter((f) => !isDocFile(f.name));
  if (schemas.length === 0) return { ok: false, message: 'Pick the schema file (YAML, JSON or CSV) together with the .md files of its doc blocks.' };
  const docs: Record<string, string> = Object.assign({}, ...files.filter((f) => isDocFile(f.name)).map((f) => readDocBlocks(f.text)));
  const parsed: unknown[] = [];
  /** Files that could not be read at all, and why each file gave no dictionary. */
  const unread: string[] = [];
  const problems: string[] = [];
  let dictionary: ImportResult | null = null;
  for (const [i, file] of schemas.entries()) {
    let doc: unknown;
    if (!/\.csv$/i.test(file.name)) {
      try {
        doc = parseJsonOrYaml(file.text);
        parsed.push(doc);
      } catch (e) {
        unread.push(`${file.name} could not be read as ${kindOf(file.name)}: ${messageOf(e)}`);
      }
    }
    if (!dictionary && (doc !== undefined || /\.csv$/i.test(file.name))) {
      try {
        dictionary = importDictionary(file.text, file.name, target.dataset, target.columns, { docs, ...(doc !== undefined ? { parsed: doc } : {}) });
      } catch (e) {
        problems.push(messageOf(e));
      }
    }
    onFile(i + 1, schemas.length);
  }
  const read = definesMetrics(parsed) ? dbtMetrics(parsed, target.datasets) : { metrics: [], skipped: [] };
  if (!dictionary && read.metrics.length + read.skipped.length === 0) {
    return { ok: false, message: [...unread, ...problems].join(' ') || 'The files describe nothing of this dataset.' };
  }
  const warnings = [...(dictionary?.warnings ?? []), ...unread];
  if (!dictionary) warnings.push(`No file describes the columns of ${target.dataset}: only metrics are imported.`);
  return { ok: true, result: { fileName: schemas.map((f) => f.name).join(', '), dictionary, metrics: read.metrics, skipped: read.skipped, warnings } };
}
