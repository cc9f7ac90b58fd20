/**
 * What every export is built from: the conversation's turns plus the few facts a reader needs
 * (title, date, datasets, model). The endpoint settings come in only to take the model's name;
 * the key and the base URL never reach an export, and any copy of the key the user typed or a
 * tool echoed is blanked before a builder sees the thread.
 */
import type { DataFormat, DatasetInfo } from '../../protocol/data';
import type { EndpointSettings } from '../../protocol/agent/wire';
import type { ChatTurn } from '../conversation/turns';
import type { ExportKnowledge } from './knowledgeSection';
import { SecretScrubber } from '../../shared/secrets';

export interface ExportDataset {
  /** The SQL table name. */
  name: string;
  /** The file it was loaded from (the notebook reads it again from there). */
  fileName: string;
  format: DataFormat;
  sheet?: string;
  rowCount: number;
  columnCount: number;
}

export interface ExportThread {
  title: string;
  /** When the export was made. */
  exportedAt: Date;
  /** The model's name only. */
  model: string;
  datasets: ExportDataset[];
  turns: ChatTurn[];
  /** The used datasets' accepted dictionaries and the workspace rules (issue 24). */
  knowledge?: ExportKnowledge;
}

export interface ExportInput {
  turns: ChatTurn[];
  /** The conversation's name in `Conversations`; the first question when it has none. */
  title?: string | null;
  settings: EndpointSettings;
  /** The loaded datasets; the export lists those the conversation used. */
  datasets: DatasetInfo[];
  now?: Date;
  /** Dictionaries (of every dataset; the used ones are kept) and rules. */
  knowledge?: ExportKnowledge;
}

export const REDACTED = '[redacted]';
/** Shorter "secrets" (an empty key, a test key like "x") would blank ordinary words. */
const MIN_SECRET_LENGTH = 8;

/** The strings no export may contain: the key and any password in the base URL. */
export function secretsOf(settings: EndpointSettings): string[] {
  const out = [settings.apiKey.trim()];
  try {
    const url = new URL(settings.baseUrl);
    out.push(decodeURIComponent(url.password), decodeURIComponent(url.username));
    for (const value of url.searchParams.values()) out.push(value);
  } catch {
    // Not a URL: the base URL itself is never exported, so nothing more to hide.
  }
  return [...new Set(out.filter((s) => s.length >= MIN_SECRET_LENGTH))];
}

/**
 * A deep copy of plain data with every secret blanked in strings and keys, in every form the
 * scrubber knows (as written, URL-encoded, JSON-escaped, and inside base64 or base64url text at
 * any of the three byte alignments: an endpoint that echoes `Authorization: Bearer <key>` base64-
 * encoded in an error body must not carry it into a .md, .html or .ipynb). The copy also frees
 * builders from the chat's reactive proxies.
 */
export function redact<T>(value: T, secrets: string[]): T {
  const scrubber = new SecretScrubber();
  for (const s of secrets) scrubber.add(s);
  const text = (t: string) => scrubber.scrub(t);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/** Every piece of code or dataset argument the turns ran. */
function codeTexts(turns: ChatTurn[]): string[] {
  const texts: string[] = [];
  for (const t of turns) {
    for (const s of t.steps) {
      if (s.kind !== 'tool' || typeof s.args !== 'object' || s.args === null) continue;
      const a = s.args as Record<string, unknown>;
      for (const key of ['sql', 'code', 'dataset']) if (typeof a[key] === 'string') texts.push(a[key]);
    }
  }
  return texts;
}

function mentions(text: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9_])${escaped}($|[^A-Za-z0-9_])`, 'i').test(text);
}

/**
 * The datasets the conversation's code named. Python can use `df` or `datasets` without naming
 * a table, so when code ran but named none, every loaded dataset counts.
 */
export function datasetsUsed(turns: ChatTurn[], datasets: DatasetInfo[]): DatasetInfo[] {
  const texts = codeTexts(turns);
  if (texts.length === 0) return [];
  const named = datasets.filter((d) => texts.some((t) => mentions(t, d.name)));
  return named.length > 0 ? named : datasets;
}

export function defaultTitle(turns: ChatTurn[]): string {
  const q = turns[0]?.question.trim().replace(/\s+/g, ' ') ?? '';
  if (!q) return 'Conversation';
  return q.length > 80 ? `${q.slice(0, 79)}…` : q;
}

/** What an export says of a dataset: where it came from, so a notebook can load it again. */
export function exportDataset(d: DatasetInfo): ExportDataset {
  return {
    name: d.name,
    fileName: d.fileName,
    format: d.format,
    ...(d.sheet !== undefined ? { sheet: d.sheet } : {}),
    rowCount: d.rowCount,
    columnCount: d.columns.length,
  };
}

/**
 * The rules the answers were given, in order of first use, and for each rule the answers (1-based,
 * counting answered turns) that got it; undefined when no answer recorded its rules.
 */
export function rulesGiven(turns: readonly ChatTurn[]): { rules: string[]; byAnswer: Record<string, number[]> } | undefined {
  const answered = turns.filter((t) => t.final !== null);
  if (!answered.some((t) => t.final?.rules_given !== undefined)) return undefined;
  const rules: string[] = [];
  const byAnswer: Record<string, number[]> = {};
  answered.forEach((t, i) => {
    for (const r of t.final?.rules_given ?? []) {
      if (!(r in byAnswer)) {
        rules.push(r);
        byAnswer[r] = [];
      }
      byAnswer[r]?.push(i + 1);
    }
  });
  return { rules, byAnswer };
}

export function buildExportThread(input: ExportInput): ExportThread {
  const secrets = secretsOf(input.settings);
  const used = datasetsUsed(input.turns, input.datasets).map(exportDataset);
  const title = input.title?.trim() || defaultTitle(input.turns);
  const names = new Set(used.map((d) => d.name));
  const dictionaries = (input.knowledge?.dictionaries ?? []).filter((d) => names.has(d.dataset) && d.status === 'accepted');
  // The rules each answer was actually given (recorded in its final output), not the rules of
  // today: a rule added after the conversation ran was never part of it. Answers from before
  // that record existed fall back to the workspace's rules, said as such.
  const given = rulesGiven(input.turns);
  const rules = given ? given.rules : (input.knowledge?.rules ?? []);
  // Nothing known: the export is exactly what it was before there was knowledge.
  const metrics = (input.knowledge?.metrics ?? []).filter((m) => names.has(m.dataset));
  const trusted = (input.knowledge?.trusted ?? []).filter((q) => q.datasets.length > 0 && q.datasets.every((d) => names.has(d)));
  const knowledge =
    dictionaries.length > 0 || rules.length > 0 || metrics.length > 0 || trusted.length > 0
      ? { rules, dictionaries, ...(metrics.length ? { metrics } : {}), ...(trusted.length ? { trusted } : {}), ...(given ? { rulesByAnswer: given.byAnswer } : { rulesFromWorkspace: true }) }
      : undefined;
  const body = redact({ title, model: input.settings.model, datasets: used, turns: input.turns, ...(knowledge ? { knowledge } : {}) }, secrets);
  return { ...body, exportedAt: input.now ?? new Date() };
}
