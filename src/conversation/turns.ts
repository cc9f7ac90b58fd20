/**
 * The conversation as the chat view shows it: one `ChatTurn` per question, built either live
 * from the worker's event stream (`applyEvent`) or from a stored thread after a reload
 * (`turnsFromThread`), so both render the same way.
 */
import type { RunEvent, ErrorKind, StatusKind } from '../../protocol/agent/wire';
import type { AnswerRating, ThreadView } from '../../protocol/agent/threadView';
import type { FinalOutput } from '../../protocol/agent/final';
import { addUsage, type RunUsage } from '../../protocol/agent/usage';

export interface ToolStep {
  kind: 'tool';
  call_id: string;
  tool: string;
  args: unknown;
  state: 'running' | 'done' | 'failed';
  output?: unknown;
  error?: string;
  elapsed_ms?: number;
  /**
   * The guard's own check of the answer (announced by a `validating` status), not a step the model
   * chose: stored threads do not keep it, so it is left out of the step count that both show.
   */
  check?: true;
}

export interface StatusStep {
  kind: 'status';
  status: StatusKind;
  detail: string;
}

/** Text the model wrote before calling tools (or a draft the guard sent back for checking). */
export interface NoteStep {
  kind: 'note';
  text: string;
}

/** The model's thinking (reasoning), shown collapsed in the trace and never in the answer. */
export interface ThinkingStep {
  kind: 'thinking';
  text: string;
}

export type Step = ToolStep | StatusStep | NoteStep | ThinkingStep;

export interface TurnError {
  message: string;
  retryable: boolean;
  kind?: ErrorKind;
  status?: number;
}

export type TurnState = 'running' | 'done' | 'failed' | 'stopped' | 'interrupted';

export interface ChatTurn {
  /** Also the id the question is stored under: what ratings, Edit and Regenerate name. */
  id: string;
  question: string;
  /** Images sent with the question, as `data:` URLs. */
  images?: string[];
  steps: Step[];
  /** The answer's text as it streams (the final output's answer replaces it when it comes). */
  text: string;
  final: FinalOutput | null;
  error: TurnError | null;
  state: TurnState;
  /** The user's rating of the answer, as stored. */
  rating?: AnswerRating;
  /** Tokens its runs spent (a retried turn adds up its runs), when the worker reported them. */
  usage?: RunUsage;
}

/** Nodes whose tokens are the visible answer; each new one starts the answer text afresh. */

export function newTurn(id: string, question: string, images: string[] = []): ChatTurn {
  return { id, question, ...(images.length > 0 ? { images } : {}), steps: [], text: '', final: null, error: null, state: 'running' };
}

/** Moves streamed text into the step list: it was not the answer after all. */
function setAside(turn: ChatTurn): void {
  const text = turn.text.trim();
  if (text) turn.steps.push({ kind: 'note', text });
  turn.text = '';
}

function toolStep(turn: ChatTurn, callId: string, tool: string): ToolStep {
  const found = turn.steps.find((s): s is ToolStep => s.kind === 'tool' && s.call_id === callId);
  if (found) return found;
  const step: ToolStep = { kind: 'tool', call_id: callId, tool, args: undefined, state: 'running' };
  turn.steps.push(step);
  return step;
}

/** A finished check makes its "Validating: …" line stale: the check's own step says how it went. */
function dropValidating(turn: ChatTurn): void {
  turn.steps = turn.steps.filter((s) => !(s.kind === 'status' && s.status === 'validating'));
}

/** The steps a turn's "N steps" counts: the tools the model called (the same live and after a reload). */
export function countedSteps(steps: readonly Step[]): number {
  return steps.filter((s) => s.kind === 'tool' && !s.check).length;
}

/** Applies one event of the running turn's stream, in place. */
export function applyEvent(turn: ChatTurn, event: RunEvent): void {
  switch (event.type) {
    case 'run_start':
      turn.state = 'running';
      turn.error = null;
      break;
    case 'node':
      if (event.answer) setAside(turn);
      break;
    case 'token':
      turn.text += event.text;
      break;
    case 'reasoning': {
      const last = turn.steps.at(-1);
      if (last?.kind === 'thinking') last.text += event.text;
      else turn.steps.push({ kind: 'thinking', text: event.text });
      break;
    }
    case 'tool_start': {
      setAside(turn);
      const before = turn.steps.at(-1);
      const step = toolStep(turn, event.call_id, event.tool);
      if (before?.kind === 'status' && before.status === 'validating') step.check = true;
      step.args = event.args;
      step.state = 'running';
      break;
    }
    case 'tool_end': {
      const step = toolStep(turn, event.call_id, event.tool);
      step.output = event.output;
      step.elapsed_ms = event.elapsed_ms;
      step.state = 'done';
      if (step.check) dropValidating(turn);
      break;
    }
    case 'tool_error': {
      const step = toolStep(turn, event.call_id, event.tool);
      step.error = event.error;
      step.state = 'failed';
      if (step.check) dropValidating(turn);
      break;
    }
    case 'status':
      if (event.kind === 'validating') setAside(turn);
      if (event.discard_partial) {
        // The reply being streamed broke off and is asked for again: what it showed goes away.
        turn.text = '';
        if (turn.steps.at(-1)?.kind === 'thinking') turn.steps.pop();
      }
      turn.steps.push({ kind: 'status', status: event.kind, detail: event.detail });
      break;
    case 'final': {
      turn.final = event.output;
      // The draft set aside while the guard validated it is this answer: show it once, in the card.
      const answer = event.output.answer.trim();
      turn.steps = turn.steps.filter((s) => !(s.kind === 'note' && s.text === answer));
      break;
    }
    case 'error':
      turn.error = {
        message: event.message,
        retryable: event.retryable,
        ...(event.kind !== undefined ? { kind: event.kind } : {}),
        ...(event.status !== undefined ? { status: event.status } : {}),
      };
      turn.state = event.kind === 'aborted' ? 'stopped' : 'failed';
      break;
    case 'run_end':
      if (event.usage) turn.usage = addUsage(turn.usage, event.usage);
      if (turn.state === 'running') turn.state = turn.final || turn.text ? 'done' : 'failed';
      break;
  }
}

/**
 * A stored thread as turns: each user message opens a turn; assistant tool calls and tool
 * messages become its steps; its last assistant text is the answer. Final outputs belong to the
 * turns that completed, in order.
 */
export function turnsFromThread(view: ThreadView, idPrefix = view.thread_id): ChatTurn[] {
  const turns: ChatTurn[] = [];
  for (const m of view.messages) {
    if (m.role === 'user') {
      const rating = m.id === undefined ? undefined : view.ratings?.[m.id];
      const usage = m.id === undefined ? undefined : view.usage?.[m.id];
      turns.push({ ...newTurn(m.id ?? `${idPrefix}:${turns.length}`, m.content, m.images), state: 'done', ...(rating ? { rating } : {}), ...(usage ? { usage } : {}) });
      continue;
    }
    const turn = turns.at(-1);
    if (!turn) continue;
    if (m.role === 'assistant') {
      setAside(turn);
      if (m.reasoning) turn.steps.push({ kind: 'thinking', text: m.reasoning });
      if (m.tool_calls?.length) {
        if (m.content.trim()) turn.steps.push({ kind: 'note', text: m.content.trim() });
        for (const c of m.tool_calls) {
          const step = toolStep(turn, c.id, c.name);
          step.args = c.args;
        }
      } else {
        turn.text = m.content;
      }
    } else {
      const step = toolStep(turn, m.tool_call_id ?? `tool_${turn.steps.length}`, m.tool_name ?? 'tool');
      // The full outcome the live run showed, when stored; else what the model saw.
      const full = m.tool_call_id !== undefined ? view.tool_outputs?.[m.tool_call_id] : undefined;
      if (full) {
        step.state = full.ok ? 'done' : 'failed';
        if (full.ok) step.output = full.output;
        else step.error = full.error ?? m.content;
        if (full.elapsed_ms !== undefined) step.elapsed_ms = full.elapsed_ms;
        continue;
      }
      const failed = m.content.startsWith('Error:');
      step.state = failed ? 'failed' : 'done';
      if (failed) step.error = m.content;
      else step.output = parseMaybeJson(m.content);
    }
  }
  // A turn without an answer text did not finish: its run failed or was cut off by a reload.
  const answered = turns.filter((t) => t.text.trim() !== '');
  view.finals.forEach((f, i) => {
    const t = answered[i];
    if (t) t.final = f;
  });
  for (const t of turns) {
    if (t.final || t.text.trim()) continue;
    t.state = 'interrupted';
  }
  return turns;
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Ends a turn the worker could not finish (its start was refused, or it died mid-run). */
export function failTurn(turn: ChatTurn, error: { message: string; retryable: boolean }): void {
  if (turn.state !== 'running') return;
  turn.error = error;
  turn.state = 'failed';
}
