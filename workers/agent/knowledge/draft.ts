/**
 * The data dictionary's first draft: one short `data_dictionary` structured-output call from a
 * dataset's profile and a few sample values (none under "No raw rows"), with the other datasets'
 * column names so it can name join keys. The model's answer is checked against the dataset:
 * columns it invented are dropped, columns it skipped are kept blank, in the table's order.
 */
import { HumanMessage } from '@langchain/core/messages';
import type { ChatOpenAICompletions } from '@langchain/openai';
import { DictionaryDraftSchema, type DataDictionary, type DictionaryDraft } from '../../../protocol/agent/knowledge';
import type { DatasetInfo, DatasetProfile } from '../../../protocol/data';
import { RUNG_LABELS, StructuredOutputError, StructuredRefusalError, structuredOutput, type LadderMemory } from '../llm/structured';
import type { DataClient } from '../tools/workerHost';
import { DRAFT_COLUMNS, DRAFT_LINES_CHARS, DRAFT_OTHERS_CHARS } from '../../../shared/knowledge/draftBudget';
import { datasetFingerprint } from '../../../shared/knowledge/identity';

export { DRAFT_COLUMNS } from '../../../shared/knowledge/draftBudget';

function value(v: unknown): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return s.length > 30 ? `${s.slice(0, 29)}…` : s;
}

export function buildDraftPrompt(ds: DatasetInfo, profile: DatasetProfile, others: readonly DatasetInfo[], rawValues: boolean): string {
  const stats = new Map(profile.columns.map((c) => [c.name, c]));
  const all = ds.columns.slice(0, DRAFT_COLUMNS).map((c) => {
    const p = stats.get(c.name);
    const bits = [`${c.name} ${c.type}`];
    if (p) {
      bits.push(`${p.nulls} null, ${p.distinct} distinct`);
      if (p.min !== undefined && p.max !== undefined && (rawValues || typeof p.min === 'number')) bits.push(`range ${value(p.min)} … ${value(p.max)}`);
      if (rawValues && p.top?.length) bits.push(`top: ${p.top.slice(0, 6).map((t) => `${value(t.value)} (${t.count})`).join(', ')}`);
    }
    return bits.join('; ');
  });
  // Bounded in characters too (issue 37): long top values or names must not grow the request.
  const lines: string[] = [];
  let used = 0;
  for (const line of all) {
    if (used + line.length + 1 > DRAFT_LINES_CHARS) break;
    lines.push(line);
    used += line.length + 1;
  }
  const left = ds.columns.length - lines.length;
  const more = left > 0 ? `\n… and ${left} more columns not shown here (leave them out)` : '';
  const otherLines: string[] = [];
  let otherUsed = 0;
  for (const o of others) {
    const line = `${o.name}: ${o.columns.slice(0, 40).map((c) => c.name).join(', ')}`;
    if (otherUsed + line.length + 1 > DRAFT_OTHERS_CHARS) {
      otherLines.push(`… and ${others.length - otherLines.length} more datasets`);
      break;
    }
    otherLines.push(line);
    otherUsed += line.length + 1;
  }
  const otherText = others.length ? `\n\nOther datasets in the workspace (for join keys):\n${otherLines.join('\n')}` : '';
  return `Draft a data dictionary for the dataset below, for an analyst who has never seen it. Be brief and say only what the names, types, counts${rawValues ? ' and values' : ''} support; leave a field empty rather than guess.
For each column: a one-sentence description, the unit (or ""), the role (identifier, measure, dimension, date, flag, text or other), the meaning of coded values when the values look like codes (e.g. 1/2 or M/F), and placeholder values that stand for "missing" (e.g. ".", "-9", "999", "N/A").
For the dataset: what one row is, the grain (the columns identifying a row), caveats, and join keys to the other datasets.

Dataset ${ds.name} (${ds.rowCount} rows, from ${ds.fileName}):
${lines.join('\n')}${more}${otherText}`;
}

/** The model's draft fitted to the dataset's real columns, as a stored draft. */
export function fitDraft(ds: DatasetInfo, draft: DictionaryDraft, others: readonly DatasetInfo[]): DataDictionary {
  const byName = new Map(draft.columns.map((c) => [c.name, c]));
  const otherCols = new Map(others.map((o) => [o.name, new Set(o.columns.map((c) => c.name))]));
  const own = new Set(ds.columns.map((c) => c.name));
  return {
    dataset: ds.name,
    fingerprint: datasetFingerprint(ds),
    status: 'draft',
    source: 'model',
    updated_at: new Date().toISOString(),
    row_meaning: draft.row_meaning,
    grain: draft.grain,
    caveats: draft.caveats.filter((c) => c.trim() !== ''),
    joins: draft.joins.filter((j) => own.has(j.column) && otherCols.get(j.other_dataset)?.has(j.other_column) === true),
    columns: ds.columns.map((c) => byName.get(c.name) ?? { name: c.name, description: '', unit: '', role: 'other', codes: [], missing: [] }),
  };
}

export interface DraftDeps {
  data: DataClient;
  model: ChatOpenAICompletions;
  ladder: LadderMemory;
  onAdapt?: (detail: string) => void;
  rawValues: boolean;
  /** The last answer's refusal, when the endpoint said one (llm/refusalWatch.ts). */
  refusal?: () => Promise<string | undefined>;
}

export async function draftDictionary(deps: DraftDeps, dataset: string, signal?: AbortSignal): Promise<DataDictionary> {
  const list = await deps.data.call('list', {});
  const ds = list.find((d) => d.name === dataset);
  if (!ds) throw new Error(`There is no dataset named ${dataset}.`);
  const profile = await deps.data.call('profile', { name: dataset });
  // Cancelled while the profile was read (seconds on a wide table): no model call is made.
  signal?.throwIfAborted();
  const others = list.filter((d) => d.name !== dataset);
  const caller = structuredOutput(deps.model, DictionaryDraftSchema, 'data_dictionary', deps.ladder, deps.onAdapt, deps.refusal);
  try {
    const draft = await caller.invoke([new HumanMessage(buildDraftPrompt(ds, profile, others, deps.rawValues))], signal ? { signal } : {});
    return fitDraft(ds, draft, others);
  } catch (e) {
    throw draftFailure(e);
  }
}

/** What the editor says when no draft came: the refusal in the model's words, or which ways of asking failed — never a parser dump. */
export function draftFailure(e: unknown): Error {
  if (e instanceof StructuredRefusalError) return new Error(`the model declined: “${e.refusal.trim().slice(0, 300)}”. Start the dictionary yourself or import one.`);
  if (e instanceof StructuredOutputError) {
    const tried = e.failures.map((f) => `${RUNG_LABELS[f.rung]}: ${f.reason}`).join('; ');
    return new Error(`the model's answers could not be read as a data dictionary (asked ${e.failures.length} ways — ${tried}). Try again, or a model that follows JSON instructions better; or start the dictionary yourself.`);
  }
  return e instanceof Error ? e : new Error(String(e));
}
