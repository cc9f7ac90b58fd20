/**
 * The chat's view-model over the agent worker's transport (agentTransport.ts): the open
 * conversation's turns, the conversation list and its search, and the run in progress, as
 * `$state` the chat view renders, with the actions that change them (ask, edit, regenerate,
 * retry, stop, rate, open, rename, delete). Components never touch `postMessage`.
 *
 * The endpoint key arrives with each `ask`/`retry` (from the settings on this thread) and goes
 * to the worker only inside that run's request.
 */
import { WorkerGoneError } from '../../protocol/rpcClient';
import type { ConnectPort } from '../engines/workerSession';
import { imageDataUrl, type AgentEvent, type EndpointSettings, type ImageAttachment, type ModelListOutcome, type ModelContextView, type CapabilityReport, type StartRunRequest } from '../../protocol/agent/wire';
import type { AgentMode, FinalOutput } from '../../protocol/agent/final';
import type { DataDictionary } from '../../protocol/agent/knowledge';
import type { AgentThreadSummary, AnswerRating } from '../../protocol/agent/threadView';
import { applyEvent, failTurn, newTurn, turnsFromThread, type ChatTurn } from '../conversation/turns';
import { batchTokens } from './tokenBatch';
import { AgentTransport, RunStoppedError, type AgentRpc } from './agentTransport';
import { messageOf } from '../../shared/errors';

export type AgentStatus = 'idle' | 'starting' | 'ready' | 'failed';

/** What a conversation action came to; a refusal carries the message to show where it was asked. */
export type ActionOutcome = { ok: true } | { ok: false; message: string };

export interface AgentClientOptions {
  /** Opens the channel the agent worker sends `DataRequests` on, at every spawn. */
  connectData: ConnectPort;
  /** Opens the channel for `AgentPythonRequests` (run_python); without it the agent has no Python. */
  connectPython?: ConnectPort;
  /** Spawns the worker (src/engines/spawn.ts; tests pass a stand-in). */
  createWorker: () => Worker;
  newId?: () => string;
  /** Overrides how long Stop waits for the worker, and when a stuck worker is replaced (tests). */
  stopGraceMs?: number;
  stuckRunMs?: number;
}

/** Ends a turn that could not finish: stopped by the page's watchdog, or failed. */
function endTurn(turn: ChatTurn, e: unknown, retryable: boolean): void {
  if (e instanceof RunStoppedError) {
    if (turn.state !== 'running') return;
    turn.error = { message: e.message, retryable: true, kind: 'aborted' };
    turn.state = 'stopped';
    return;
  }
  failTurn(turn, { message: messageOf(e), retryable });
}

type Rpc = AgentRpc;

export class AgentClient {
  status = $state<AgentStatus>('idle');
  startError = $state<string | null>(null);
  threads = $state<AgentThreadSummary[]>([]);
  /** The stored list has been read (or could not be): before that, an empty list says nothing. */
  threadsLoaded = $state(false);
  /** The open conversation; null until the first question of a new one. */
  threadId = $state<string | null>(null);
  mode = $state<AgentMode>('agent');
  turns = $state<ChatTurn[]>([]);
  /** True from `ask` until the run's `run_end` (or its failure to start). */
  running = $state(false);
  /** An event the worker sent that did not match the contract (shown, never silently dropped). */
  protocolError = $state<string | null>(null);
  /** The `Search conversations` text, and the ids of the threads it matches (null: no search). */
  searchQuery = $state('');
  searchMatches = $state<string[] | null>(null);

  #transport: AgentTransport;
  /** Stops the run in progress (Stop, or the gauntlet's signal). */
  #stopRun: AbortController | null = null;
  /** Orders search replies: only the newest query's answer is shown. */
  #searchSeq = 0;
  #newId: () => string;

  constructor(options: AgentClientOptions) {
    this.#newId = options.newId ?? (() => crypto.randomUUID());
    this.#transport = new AgentTransport({
      ...options,
      newId: this.#newId,
      onStatus: (status, error) => {
        this.status = status;
        // A start that worked clears the last failure; a crash or failed start shows its reason.
        if (status !== 'starting') this.startError = error;
      },
      onProtocolError: (message) => (this.protocolError = message),
    });
  }

  /** Spawns the worker and connects it to the other engines; safe to call more than once. */
  start(): Promise<Rpc> {
    return this.#transport.start();
  }

  #begin(call: (rpc: Rpc, runId: string) => Promise<{ run_id: string }>, signal: AbortSignal): Promise<AsyncIterable<AgentEvent>> {
    return this.#transport.begin(call, signal);
  }

  /** Claims the client for one run; null when another one is in progress. */
  #claim(): AbortController | null {
    if (this.running) return null;
    this.running = true;
    this.#stopRun = new AbortController();
    return this.#stopRun;
  }

  #release(ctrl: AbortController): void {
    if (this.#stopRun !== ctrl) return;
    this.#stopRun = null;
    this.running = false;
  }

  /** Applies a run's events to its turn until the run ends; a dead worker fails the turn. */
  async #follow(turn: ChatTurn, events: AsyncIterable<AgentEvent>, ctrl: AbortController): Promise<void> {
    const batch = batchTokens((event) => applyEvent(turn, event));
    try {
      for await (const event of events) batch.push(event);
      batch.flush();
      this.#release(ctrl);
      void this.refreshThreads();
    } catch (e) {
      batch.flush();
      endTurn(turn, e, true);
    } finally {
      this.#release(ctrl);
    }
  }

  async refreshThreads(): Promise<void> {
    try {
      this.threads = await this.#transport.call('listThreads', {});
      if (this.searchQuery.trim()) await this.search(this.searchQuery);
    } catch {
      // The start error is already shown; the list stays as it was.
    } finally {
      this.threadsLoaded = true;
    }
  }

  /** Filters `Conversations` by title, questions and answers; an empty query shows them all. */
  async search(query: string): Promise<void> {
    this.searchQuery = query;
    const seq = ++this.#searchSeq;
    if (!query.trim()) {
      this.searchMatches = null;
      return;
    }
    try {
      const found = await this.#transport.call('searchThreads', { query });
      if (seq === this.#searchSeq) this.searchMatches = found.map((t) => t.thread_id);
    } catch {
      // The agent could not start (its error is shown); the list stays unfiltered.
      if (seq === this.#searchSeq) this.searchMatches = null;
    }
  }

  async renameThread(threadId: string, title: string): Promise<ActionOutcome> {
    try {
      this.threads = await this.#transport.call('renameThread', { thread_id: threadId, title });
      return { ok: true };
    } catch (e) {
      return { ok: false, message: messageOf(e) };
    }
  }

  /** Stores Helpful / Not helpful for a turn's answer; throws when it could not be saved. */
  async rate(turnId: string, rating: AnswerRating): Promise<void> {
    const turn = this.turns.find((t) => t.id === turnId);
    const threadId = this.threadId;
    if (!turn?.final || !threadId) throw new Error('this answer is not part of a saved conversation');
    // $state.snapshot: a reactive proxy cannot cross postMessage.
    await this.#transport.call('rateAnswer', { thread_id: threadId, question: turn.question, final: $state.snapshot(turn.final), rating, question_id: turn.id });
    turn.rating = rating;
  }

  /** Sends a question in the open conversation (a new one when none is open). */
  async ask(question: string, settings: EndpointSettings, attachments: ImageAttachment[] = []): Promise<void> {
    const text = question.trim();
    if (!text || this.running) return;
    this.threadId ??= this.#newId();
    // The turn is in the log before anything can fail, so the question is never lost.
    this.turns.push(newTurn(this.#newId(), text, attachments.map(imageDataUrl)));
    const turn = this.turns[this.turns.length - 1] as ChatTurn;
    const images = attachments.length > 0 ? { attachments } : {};
    const mode = this.mode;
    await this.#launch(turn, (rpc, threadId, runId) => rpc.call('start', { settings, thread_id: threadId, question: text, mode, question_id: turn.id, run_id: runId, ...images }));
  }

  /** Asks the last question again from the checkpoint before it: its answer is replaced. */
  regenerate(settings: EndpointSettings): Promise<ActionOutcome> {
    const last = this.turns.at(-1);
    if (!last) return Promise.resolve({ ok: false, message: 'There is no answer to regenerate.' });
    return this.#fork(this.turns.length - 1, last.question, settings);
  }

  /**
   * Replaces an earlier question with `text` and asks it: the thread continues in place from the
   * checkpoint before that question, and the turns after it are dropped.
   */
  editQuestion(turnId: string, text: string, settings: EndpointSettings): Promise<ActionOutcome> {
    const index = this.turns.findIndex((t) => t.id === turnId);
    const question = text.trim();
    if (index < 0) return Promise.resolve({ ok: false, message: 'This question is no longer in the conversation.' });
    if (!question) return Promise.resolve({ ok: false, message: 'Enter a question.' });
    return this.#fork(index, question, settings);
  }

  async #fork(index: number, question: string, settings: EndpointSettings): Promise<ActionOutcome> {
    const old = this.turns[index];
    const threadId = this.threadId;
    if (!old || !threadId) return { ok: false, message: 'This conversation is not saved yet.' };
    const ctrl = this.#claim();
    if (!ctrl) return { ok: false, message: 'Stop the current run first.' };
    const turn = newTurn(this.#newId(), question, old.images);
    const mode = this.mode;
    let events: AsyncIterable<AgentEvent>;
    try {
      events = await this.#begin((rpc, runId) => rpc.call('start', { settings, thread_id: threadId, question, mode, question_id: turn.id, replaces: old.id, run_id: runId }), ctrl.signal);
    } catch (e) {
      this.#release(ctrl);
      return { ok: false, message: messageOf(e) };
    }
    // Accepted: the thread was cut back, so the view follows; the run's events were buffered meanwhile.
    this.turns = [...this.turns.slice(0, index), turn];
    void this.#follow(this.turns[index] as ChatTurn, events, ctrl);
    return { ok: true };
  }

  /** Continues the conversation from its last checkpoint (after a failure or a reload). */
  async retry(settings: EndpointSettings): Promise<void> {
    const turn = this.turns.at(-1);
    if (!turn || this.running || !this.threadId) return;
    turn.error = null;
    turn.state = 'running';
    await this.#launch(turn, (rpc, threadId, runId) => rpc.call('resume', { settings, thread_id: threadId, run_id: runId }));
  }

  async #launch(turn: ChatTurn, call: (rpc: Rpc, threadId: string, runId: string) => Promise<{ run_id: string }>): Promise<void> {
    const threadId = this.threadId;
    if (!threadId) return;
    const ctrl = this.#claim();
    if (!ctrl) return;
    try {
      const events = await this.#begin((rpc, runId) => call(rpc, threadId, runId), ctrl.signal);
      void this.#follow(turn, events, ctrl);
    } catch (e) {
      endTurn(turn, e, !(e instanceof WorkerGoneError));
      this.#release(ctrl);
    }
  }

  /** Aborts the run in progress (its model request and any running code). */
  async stop(): Promise<void> {
    this.#stopRun?.abort();
  }

  /**
   * Runs one question in its own conversation without showing it in the chat (the gauntlet):
   * the same worker, tools, guard and checkpointer as a chat run, so the thread opens as an
   * ordinary conversation afterwards. Resolves at `run_end` with null, or with the reason the
   * run could not start or finish; `signal` stops it as Stop would.
   */
  async runDetached(request: StartRunRequest, onEvent: (event: AgentEvent) => void, signal?: AbortSignal): Promise<string | null> {
    if (signal?.aborted) return 'Stopped.';
    const ctrl = this.#claim();
    if (!ctrl) return 'Another run is in progress; wait for it to finish.';
    const onAbort = () => ctrl.abort();
    signal?.addEventListener('abort', onAbort);
    try {
      const events = await this.#begin((rpc, runId) => rpc.call('start', { ...request, run_id: runId }), ctrl.signal);
      for await (const event of events) onEvent(event);
      return null;
    } catch (e) {
      return messageOf(e);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.#release(ctrl);
      void this.refreshThreads();
    }
  }

  /** Saves a (corrected) answer to the user's example library, as a thumbs-up does. */
  async saveExample(threadId: string, question: string, final: FinalOutput): Promise<{ saved: boolean; examples: number }> {
    return this.#transport.call('rateAnswer', { thread_id: threadId, question, final, rating: 'up' });
  }


  newConversation(): void {
    if (this.running) return;
    this.threadId = null;
    this.turns = [];
  }

  async openThread(threadId: string): Promise<void> {
    if (this.running) return;
    const view = await this.#transport.call('loadThread', { thread_id: threadId });
    if (!view) {
      await this.refreshThreads();
      return;
    }
    this.threadId = view.thread_id;
    this.mode = view.mode;
    this.turns = turnsFromThread(view);
  }

  async deleteThread(threadId: string): Promise<void> {
    this.threads = await this.#transport.call('deleteThread', { thread_id: threadId });
    if (this.threadId === threadId) this.newConversation();
  }

  async listModels(settings: Omit<EndpointSettings, 'model'>): Promise<ModelListOutcome> {
    return this.#transport.call('listModels', { settings });
  }

  /** What the chosen model can do (tools, structured output, images, reasoning), stored for its runs. */
  async checkCapabilities(settings: EndpointSettings, images = false): Promise<CapabilityReport> {
    return this.#transport.call('checkCapabilities', { settings, images });
  }

  /** One `data_dictionary` call drafting a dataset's dictionary (issue 24); the page stores it. */
  async draftDictionary(settings: EndpointSettings, dataset: string): Promise<DataDictionary> {
    return this.#transport.call('draftDictionary', { settings, dataset });
  }

  /** Stops a dataset's draft in flight (issue 37): its `draftDictionary` fails, nothing is stored. */
  async cancelDraft(dataset: string): Promise<boolean> {
    return (await this.#transport.call('cancelDraft', { dataset })).cancelled;
  }

  /** The datasets block and rules as the next run's prompt would carry them, with token counts. */
  async modelContext(settings: EndpointSettings): Promise<ModelContextView> {
    return this.#transport.call('modelContext', { settings });
  }

  dispose(): void {
    this.#transport.dispose();
    this.status = 'idle';
  }
}
