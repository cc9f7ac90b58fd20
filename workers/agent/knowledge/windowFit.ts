/**
 * The workspace's knowledge as a section of the system prompt that the context-window fitting
 * (llm/contextWindow.ts) refits whole instead of clipping (issue 32): each shorter version is the
 * datasets block rebuilt at a smaller budget, so other tables' columns and dictionaries go first,
 * the tables the question names and the rules last, and whatever is left out is named in the
 * block itself. What a request finally carried is reported once per change, for the run's steps
 * and for the page ("What the model sees", the dictionary editor's badge).
 */
import type { KnowledgeSection } from '../llm/contextWindow';
import { buildWorkspaceContext, type DetailLevel, type LeftOut, type WorkspaceContext, type WorkspaceContextInput } from './prompt';

const LEVELS: readonly DetailLevel[] = ['full', 'no_samples', 'index', 'names', 'table', 'omitted'];
const rank = (l: DetailLevel | undefined) => LEVELS.indexOf(l ?? 'omitted');

/** What one prompt carried of the workspace's knowledge. */
export interface PromptFit {
  /** When the prompt was sent (ISO time). */
  at: string;
  leftOut: LeftOut[];
  levels: Record<string, DetailLevel>;
  /** Per dataset with an accepted dictionary: its described columns carried in full, of all. */
  described: Record<string, { shown: number; total: number }>;
  /** What the question itself needed and did not get (its tables' accepted knowledge, rules). */
  essentialLeftOut: LeftOut[];
}

/** What of `ctx` is less than `initial` gave the question: its named tables' detail and the rules. */
function essentialLost(ctx: WorkspaceContext, initial: WorkspaceContext): LeftOut[] {
  const lost: LeftOut[] = [];
  for (const name of initial.named) {
    if (rank(ctx.levels[name]) > rank(initial.levels[name])) {
      lost.push(ctx.leftOut.find((l) => l.what === name) ?? { what: name, detail: 'shown in less detail' });
    }
  }
  if (ctx.rulesShown < initial.rulesShown) lost.push(ctx.leftOut.find((l) => l.what === 'rules') ?? { what: 'rules', detail: `${initial.rulesShown - ctx.rulesShown} rules left out` });
  return lost;
}

export function promptFit(ctx: WorkspaceContext, initial: WorkspaceContext, at = new Date()): PromptFit {
  return { at: at.toISOString(), leftOut: ctx.leftOut, levels: ctx.levels, described: ctx.described, essentialLeftOut: essentialLost(ctx, initial) };
}

/** The run's steps in words: what the prompt finally carried in less detail. */
export function fitStep(fit: PromptFit): string | undefined {
  if (fit.leftOut.length === 0) return undefined;
  const list = (ls: readonly LeftOut[]) => ls.map((l) => `${l.what} (${l.detail})`).join('; ');
  const own = fit.essentialLeftOut.length ? ` Even the rules and the accepted knowledge of the tables the question names did not fit whole: ${list(fit.essentialLeftOut)}.` : '';
  return `To fit the context window, the prompt carried less: ${list(fit.leftOut)}.${own} The model can read the rest with describe_columns.`;
}

/**
 * The section for one run. `initial` is the block the run's prompt was built with (its fit is
 * already said by the run's first step); `report` hears the fit each request was sent with, and
 * whether it differs from the one said last.
 */
export function knowledgeSection(input: WorkspaceContextInput, initial: WorkspaceContext, report: (fit: PromptFit, changed: boolean) => void): KnowledgeSection {
  const built = new Map<string, WorkspaceContext>([[initial.text, initial]]);
  let said = JSON.stringify(initial.leftOut);
  return {
    text: initial.text,
    shrink(maxChars) {
      const ctx = buildWorkspaceContext({ ...input, budgetTokens: Math.max(0, Math.floor(maxChars / 4)) });
      built.set(ctx.text, ctx);
      return ctx.text;
    },
    sent(text) {
      const ctx = built.get(text);
      if (!ctx) return;
      const fit = promptFit(ctx, initial);
      const key = JSON.stringify(fit.leftOut);
      report(fit, key !== said);
      said = key;
    },
  };
}
