/**
 * Runs: one at a time, each with the endpoint settings it was started with (the key lives only
 * in that run's model client). `start` asks a new question, or — with `replaces` — cuts the
 * thread back to before an earlier question and asks its replacement there (Edit question,
 * Regenerate); `resume` continues a thread from its last checkpoint; `abort` stops a run.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { AgentMode } from '../../../protocol/agent/final';
import { addUsage, type RunUsage } from '../../../protocol/agent/usage';
import { DEFAULT_ROWS_PER_TOOL_OUTPUT, ImageAttachmentsSchema, type AgentRequests, type EndpointSettings, type ImageAttachment } from '../../../protocol/agent/wire';
import { networkAdvice } from '../../../shared/endpointPresets';
import type { Handlers } from '../../../protocol/rpcServer';
import { findForkPoint, replaceQuestionText, validQuestionId } from '../threads/fork';
import { buildHumanMessage } from '../core/humanMessage';
import { normaliseBaseUrl } from '../llm/chatModel';
import { checkSettings } from '../llm/endpointModel';
import { runTurn } from './run';
import { buildRunGraph } from './runGraph';
import type { AgentParts, CurrentRun } from './serviceParts';
import { userQuestions } from '../threads/stored';
import type { ToolHost } from '../tools/execute';
import { rowPolicyOf } from '../tools/withholdRows';
import { UsageMeter } from '../usage/usageMeter';

export type RunHandlers = Pick<Handlers<AgentRequests>, 'start' | 'resume' | 'abort'> & {
  /** Resolves when the current run (if any) has ended; for tests and shutdown. */
  idle(): Promise<void>;
};

export function createRunHandlers(parts: AgentParts, host: ToolHost): RunHandlers {
  const { slot, secrets, emit, toolOutputs, threadMeta, newId, stored } = parts;

  /** Adds a run's usage to the question it answered (a resumed run continues the last question). */
  async function recordUsage(threadId: string, questionId: string | undefined, usage: RunUsage): Promise<void> {
    const id = questionId ?? userQuestions((await stored(threadId))?.messages ?? []).at(-1)?.id;
    if (!id) return;
    await threadMeta.update(threadId, (row) => ({ ...row, usage: { ...row.usage, [id]: addUsage(row.usage?.[id], usage) } }));
  }

  /** `question`: the new question's message; undefined resumes the thread from its last checkpoint. */
  function launch(settings: EndpointSettings, threadId: string, mode: AgentMode, question: BaseMessage | undefined, wantedRunId: string | undefined) {
    checkSettings(settings);
    secrets.addEndpoint(settings);
    if (slot.current) throw new Error('A run is already in progress; stop it first.');
    if (wantedRunId !== undefined && !validQuestionId(wantedRunId)) throw new Error('The run id must be 1–100 letters, digits, "-" or "_".');
    const runId = wantedRunId ?? newId();
    const ctrl = new AbortController();
    const meter = new UsageMeter();
    const usage = async (): Promise<RunUsage | undefined> => {
      // The last stream's usage chunk is read from a tee just after the SDK finished with it.
      await meter.settled(2000);
      const total = meter.total(settings.model, normaliseBaseUrl(settings.baseUrl));
      if (total) await recordUsage(threadId, question?.id, total).catch(() => undefined);
      return total;
    };
    const graph = buildRunGraph(parts, {
      settings,
      threadId,
      mode,
      host,
      rowPolicy: rowPolicyOf(settings, DEFAULT_ROWS_PER_TOOL_OUTPUT),
      meter,
      status: (kind, detail) => emit({ type: 'status', kind, detail, run_id: runId }),
    });
    // The graph is handed over while it is still being built: a failure building it (the model,
    // the ladder, the context) ends the run inside runTurn, with its error and run_end.
    const done = runTurn(graph, { thread_id: threadId, run_id: runId, mode, ...(question ? { message: question } : {}) }, {
      signal: ctrl.signal,
      onEvent: (e) => {
        toolOutputs.record(threadId, e);
        emit(e);
      },
      networkAdvice: networkAdvice(settings.baseUrl),
      usage,
    })
      .then(() => undefined, () => undefined)
      .finally(() => {
        if (slot.current?.runId === runId) slot.current = undefined;
      });
    slot.current = { runId, threadId, ctrl, done };
    return { result: { run_id: runId } };
  }

  /**
   * Edit question / Regenerate: cuts the thread back to the checkpoint before the question
   * `replaces` (dropping it and every later turn, from storage and so from what the model is
   * sent), then runs the replacement there — the conversation continues in place.
   */
  async function launchFork(settings: EndpointSettings, threadId: string, mode: AgentMode, replaces: string, replacement: (old: BaseMessage) => BaseMessage, runId: string | undefined) {
    checkSettings(settings);
    if (slot.current) throw new Error('A run is already in progress; stop it first.');
    // Holds the run slot while the thread is cut, so no run or delete can interleave.
    let release: () => void = () => {};
    const hold: CurrentRun = { runId: '', threadId, ctrl: new AbortController(), done: new Promise<void>((r) => (release = r)) };
    slot.current = hold;
    let question: BaseMessage;
    try {
      const point = await findForkPoint(parts.deps.saver, threadId, replaces);
      if (!point) throw new Error('This question is not in the saved conversation any more (it may not have been sent, or another tab changed it). Reopen the conversation and try again.');
      if (point.checkpointId === null) await parts.deps.saver.deleteThread(threadId);
      else await parts.deps.saver.truncateAfter(threadId, point.checkpointId);
      await parts.catalog.keepRatings(threadId, point.keptQuestionIds);
      question = replacement(point.question);
    } finally {
      if (slot.current === hold) slot.current = undefined;
      release();
    }
    return launch(settings, threadId, mode, question, runId);
  }

  return {
    start: ({ settings, thread_id, question, mode, attachments, question_id, replaces, run_id }) => {
      let images: ImageAttachment[] | undefined;
      if (attachments !== undefined) {
        const parsed = ImageAttachmentsSchema.safeParse(attachments);
        if (!parsed.success) throw new Error(`The attached images were refused: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
        images = parsed.data;
      }
      if (question_id !== undefined && !validQuestionId(question_id)) throw new Error('The question id must be 1–100 letters, digits, "-" or "_".');
      if (replaces !== undefined) {
        if (!question.trim()) throw new Error('The question cannot be empty.');
        return launchFork(settings, thread_id, mode, replaces, (old) => (images !== undefined ? buildHumanMessage(question, images, question_id) : replaceQuestionText(old, question, question_id ?? newId())), run_id);
      }
      return launch(settings, thread_id, mode, buildHumanMessage(question, images, question_id), run_id);
    },
    resume: async ({ settings, thread_id, run_id }) => {
      const s = await stored(thread_id);
      if (!s) throw new Error(`There is no conversation ${thread_id} to continue.`);
      return launch(settings, thread_id, s.mode, undefined, run_id);
    },
    abort: ({ run_id }) => {
      const current = slot.current;
      if (!current || current.runId !== run_id) return { result: { aborted: false } };
      current.ctrl.abort();
      return { result: { aborted: true } };
    },
    idle: async () => {
      await slot.current?.done;
    },
  };
}
