/**
 * The run's global context, gathered once in `ingress`: every dataset's table name, columns,
 * types and (unless "No raw rows") a few sample values (from the data worker), the importable Python packages, and
 * the examples closest to the question.
 */
import type { DataClient } from '../tools/workerHost';
import { quoteIdent } from '../../../shared/sql';
import type { ExampleLibrary } from '../examples/retrieval';
import type { RunContext } from '../core/state';
import type { DatasetContext } from '../core/prompts';
import { decodeIpc } from '../../../shared/arrowDecode';
import { timeZoneSentence, type LoadReport } from '../../../protocol/loadReport';
import { knowledgeContext, type KnowledgeSource } from '../knowledge/runContext';
import type { WorkspaceContext, WorkspaceContextInput } from '../knowledge/prompt';

export interface ContextSources {
  data: DataClient;
  library: ExampleLibrary;
  /** Packages importable in run_python beyond the standard library; absent without Python. */
  pythonPackages?: () => Promise<string[]>;
  /** Examples put into the prompt (default 3). */
  topExamples?: number;
  /**
   * Sample values per column in the prompt (default true). False under "No raw rows": the model
   * then gets tables, columns and types only, and no row is even read for it.
   */
  samples?: boolean;
  /** The user's chosen time zone, for the model's idea of local time (absent: this worker's own). */
  timeZone?: string;
  /** The user's dictionaries and rules (issue 24); absent, the prompt has the raw schema only. */
  knowledge?: KnowledgeSource;
  /** Estimated tokens the datasets block may take; past it the block is made compact. */
  datasetsBudget?: number;
  /** Hears what the knowledge block was built from and how it came out (knowledge/windowFit.ts). */
  onKnowledge?: (input: WorkspaceContextInput, ctx: WorkspaceContext) => void;
}

/** What the model must know about how a dataset was read: time zones stored as UTC, the load report's findings. */
export function datasetNotes(report: LoadReport | undefined): string[] {
  if (!report) return [];
  const notes: string[] = [];
  const tz = timeZoneSentence(report.timeZones);
  if (tz) notes.push(tz);
  if (report.attached) notes.push(`Load report: ${report.attached}`);
  for (const f of report.findings) notes.push(`Load report: ${f.message}`);
  // The table is usable while its checks run; what they find reaches a later question.
  if (report.checking) notes.push('Load report: its checks (placeholders, separators, dates read as text) are still running; the table is usable as loaded.');
  if (report.readOptions) notes.push(`Read with a fix the user chose (${Object.keys(report.readOptions).join(', ')}).`);
  return notes;
}

const SAMPLE_ROWS = 20;

/** Distinct non-null values per column from the first rows, a few each. */
async function samplesOf(data: DataClient, table: string, columns: string[]): Promise<unknown[][]> {
  const out = await data.call('modelQuery', { sql: `SELECT * FROM ${quoteIdent(table)} LIMIT ${SAMPLE_ROWS}`, maxRows: SAMPLE_ROWS });
  if (!out.ok) return columns.map(() => []);
  const { rows } = decodeIpc(out.result.ipc);
  return columns.map((_, i) => [...new Set(rows.map((r) => r[i]).filter((v) => v !== null && v !== ''))].slice(0, 3));
}

export async function gatherRunContext(src: ContextSources, question: string): Promise<RunContext> {
  const list = await src.data.call('list', {});
  const datasets: DatasetContext[] = await Promise.all(
    list.map(async (d) => {
      const names = d.columns.map((c) => c.name);
      const samples = src.samples === false ? [] : await samplesOf(src.data, d.name, names);
      const notes = datasetNotes(d.report);
      return { name: d.name, fileName: d.fileName, sizeBytes: d.sizeBytes, rowCount: d.rowCount, columns: d.columns.map((c, i) => ({ name: c.name, type: c.type, samples: samples[i] ?? [] })), ...(notes.length > 0 ? { notes } : {}) };
    }),
  );
  const pythonPackages = src.pythonPackages ? await src.pythonPackages().catch(() => [] as string[]) : null;
  const found = src.library.search(question, src.topExamples ?? 3);
  const knowledge = await knowledgeContext(src.knowledge, datasets, src.datasetsBudget, question, src.onKnowledge);
  return { datasets, pythonPackages, examples: found.map((h) => h.example), ...(src.timeZone ? { timeZone: src.timeZone } : {}), ...knowledge };
}
