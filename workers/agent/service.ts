/**
 * The agent worker's request handlers (`AgentRequests`), independent of the worker global so
 * they run in Node tests: one run at a time, each with the endpoint settings it was started with
 * (the key lives only in that run's model client), events out through `emit`, threads in
 * IndexedDB through IdbSaver.
 */
import type { BaseMessage } from '@langchain/core/messages';
import {
  EndpointSettingsSchema,
  ImageAttachmentsSchema,
  type ImageAttachment,
  type AgentEvent,
  type AgentRequests,
  type AgentThreadSummary,
  type EndpointSettings,
  type FinalOutput,
  type ModelListOutcome,
  type ThreadView,
} from '../protocol/agent';
import type { Handlers } from '../protocol/rpcServer';
import type { IdbSaver } from './checkpoint/IdbSaver';
import { gatherRunContext } from './context';
import type { ExampleLibrary } from './examples/retrieval';
import { UserExampleStore, exampleFromAnswer, loadUserExamples, userExampleId } from './examples/userExamples';
import { createAgentGraph } from './graph';
import { createPipelineGraph } from './pipeline';
import { baseUrlProblem, createChatModel, normaliseBaseUrl } from './llm/chatModel';
import { runTurn } from './run';
import { contextBudget } from './summarize';
import { INTERNAL_FLAG, threadTitle, toThreadMessages } from './threadView';
import { createWorkerHost, type DataClient, type PythonClient, type PythonOutput } from './tools/workerHost';

export interface AgentServiceDeps {
  data: DataClient;
  python?: { client: PythonClient; output: PythonOutput; interrupt?: () => void; packages(): Promise<string[]> };
  saver: IdbSaver;
  library: ExampleLibrary;
  /** Answers the user rated helpful (default: the browser's IndexedDB store). */
  userExamples?: UserExampleStore;
  emit(event: AgentEvent): void;
  fetch?: typeof fetch;
  /** Retries of a failed model request (each is reported as a `retrying` status). */
  maxRetries?: number;
  newId?: () => string;
}

export type AgentService = Omit<Handlers<AgentRequests>, 'connect'> & {
  /** Resolves when the current run (if any) has ended; for tests and shutdown. */
  idle(): Promise<void>;
};

function checkSettings(settings: EndpointSettings): void {
  const parsed = EndpointSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error('Set the base URL and model in Settings first.');
  const problem = baseUrlProblem(settings.baseUrl);
  if (problem) throw new Error(problem);
}

interface StoredThread {
  messages: BaseMessage[];
  finals: FinalOutput[];
  mode: 'agent' | 'pipeline';
  summary?: string;
}

export function createAgentService(deps: AgentServiceDeps): AgentService {
  let current: { runId: string; threadId: string; ctrl: AbortController; done: Promise<void> } | undefined;
  const newId = deps.newId ?? (() => crypto.randomUUID());
  const host = createWorkerHost({ data: deps.data, python: deps.python });
  const python = deps.python;
  const userExamples = deps.userExamples ?? new UserExampleStore();
  // Runs wait for this so the saved examples are searchable from the first question.
  const examplesReady = loadUserExamples(userExamples, deps.library);

  async function stored(threadId: string): Promise<StoredThread | undefined> {
    const tuple = await deps.saver.getTuple({ configurable: { thread_id: threadId } });
    if (!tuple) return undefined;
    const v = tuple.checkpoint.channel_values as Partial<Record<string, unknown>>;
    return {
      messages: (v.messages as BaseMessage[] | undefined) ?? [],
      finals: (v.finals as FinalOutput[] | undefined) ?? [],
      mode: v.mode === 'pipeline' ? 'pipeline' : 'agent',
      summary: typeof v.summary === 'string' ? v.summary : undefined,
    };
  }

  async function listThreads(): Promise<AgentThreadSummary[]> {
    const threads = await deps.saver.listThreads();
    const out: AgentThreadSummary[] = [];
    for (const t of threads) {
      const s = await stored(t.threadId);
      if (s) out.push({ thread_id: t.threadId, title: threadTitle(s.messages), mode: s.mode, updated_at: t.updatedAt });
    }
    return out;
  }

  function launch(settings: EndpointSettings, threadId: string, mode: 'agent' | 'pipeline', question: string | undefined, attachments?: ImageAttachment[]) {
    checkSettings(settings);
    if (current) throw new Error('A run is already in progress; stop it first.');
    const runId = newId();
    const ctrl = new AbortController();
    const model = createChatModel(settings, {
      maxRetries: deps.maxRetries ?? 2,
      fetch: deps.fetch,
      onRetry: (r) =>
        deps.emit({
          type: 'status',
          kind: 'retrying',
          detail: `The endpoint answered ${r.status ?? 'with an error'}; retry ${r.attempt}${r.retryAfterMs !== undefined ? ` after ${Math.ceil(r.retryAfterMs / 1000)} s` : ''}.`,
        }),
    });
    const build = mode === 'pipeline' ? createPipelineGraph : createAgentGraph;
    const graph = build({
      model,
      contextBudget: contextBudget(settings.model, settings.contextTokens),
      checkpointer: deps.saver,
      tools: {
        host,
        searchExamples: async (q, k, signal) => {
          await examplesReady;
          return (await deps.library.search(q, k, signal)).hits.map((h) => h.example);
        },
      },
      context: async (q, signal) => {
        await examplesReady;
        return gatherRunContext({ data: deps.data, library: deps.library, pythonPackages: python ? () => python.packages() : undefined }, q, signal);
      },
    });
    const done = runTurn(graph, { thread_id: threadId, run_id: runId, mode, question, ...(attachments?.length ? { attachments } : {}) }, { signal: ctrl.signal, onEvent: deps.emit })
      .then(() => undefined)
      .finally(() => {
        if (current?.runId === runId) current = undefined;
      });
    current = { runId, threadId, ctrl, done };
    return { result: { run_id: runId } };
  }

  return {
    start: ({ settings, thread_id, question, mode, attachments }) => {
      let images: ImageAttachment[] | undefined;
      if (attachments !== undefined) {
        const parsed = ImageAttachmentsSchema.safeParse(attachments);
        if (!parsed.success) throw new Error(`The attached images were refused: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`);
        images = parsed.data;
      }
      return launch(settings, thread_id, mode, question, images);
    },
    resume: async ({ settings, thread_id }) => {
      const s = await stored(thread_id);
      if (!s) throw new Error(`There is no conversation ${thread_id} to continue.`);
      return launch(settings, thread_id, s.mode, undefined);
    },
    abort: ({ run_id }) => {
      if (!current || current.runId !== run_id) return { result: { aborted: false } };
      current.ctrl.abort();
      return { result: { aborted: true } };
    },
    listThreads: async () => ({ result: await listThreads() }),
    loadThread: async ({ thread_id }) => {
      const s = await stored(thread_id);
      if (!s) return { result: null };
      const questions = s.messages.filter((m) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true).length;
      const view: ThreadView = {
        thread_id,
        mode: s.mode,
        messages: toThreadMessages(s.messages),
        finals: s.finals,
        // A question without a final output: the run stopped early (reload, crash, failure).
        interrupted: s.finals.length < questions && current === undefined,
        ...(s.summary ? { summary: s.summary } : {}),
      };
      return { result: view };
    },
    deleteThread: async ({ thread_id }) => {
      if (current?.threadId === thread_id) throw new Error('Stop the running conversation before deleting it.');
      await deps.saver.deleteThread(thread_id);
      return { result: await listThreads() };
    },
    rateAnswer: async ({ thread_id, question, final, rating }) => {
      await examplesReady;
      if (rating === 'up') {
        const example = exampleFromAnswer(thread_id, question, final);
        await userExamples.put(example);
        deps.library.add(example);
        return { result: { saved: true, examples: deps.library.size } };
      }
      const id = userExampleId(thread_id, question);
      await userExamples.delete(id);
      deps.library.remove(id);
      return { result: { saved: false, examples: deps.library.size } };
    },
    listModels: async ({ settings }) => {
      const doFetch = deps.fetch ?? fetch;
      let outcome: ModelListOutcome;
      try {
        const headers: Record<string, string> = {};
        if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
        const res = await doFetch(`${normaliseBaseUrl(settings.baseUrl)}/models`, { headers });
        if (!res.ok) {
          outcome = { ok: false, status: res.status, message: res.status === 401 || res.status === 403 ? 'The key was refused by the endpoint.' : `The endpoint answered HTTP ${res.status}.` };
        } else {
          const body = (await res.json()) as { data?: { id?: unknown }[] };
          const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
          outcome = { ok: true, models: models.sort() };
        }
      } catch (e) {
        outcome = { ok: false, message: `The endpoint could not be reached (${e instanceof Error ? e.message : String(e)}). Check the URL, and CORS for local servers.` };
      }
      return { result: outcome };
    },
    idle: async () => {
      await current?.done;
    },
  };
}
