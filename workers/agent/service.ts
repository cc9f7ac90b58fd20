/**
 * The agent worker's request handlers (`AgentRequests`), independent of the worker global so
 * they run in Node tests: one run at a time, each with the endpoint settings it was started with
 * (the key lives only in that run's model client), events out through `emit`, threads in
 * IndexedDB through IdbSaver.
 */
import type { BaseMessage } from '@langchain/core/messages';
import { DEFAULT_ROWS_PER_TOOL_OUTPUT, EndpointSettingsSchema, ImageAttachmentsSchema, type ImageAttachment, type AgentEvent, type AgentRequests, type EndpointSettings, type ModelListOutcome } from '../../protocol/agent/wire';
import type { AgentThreadSummary, ThreadView } from '../../protocol/agent/threadView';
import type { FinalOutput } from '../../protocol/agent/final';
import type { Handlers } from '../../protocol/rpcServer';
import type { IdbSaver } from './checkpoint/IdbSaver';
import { gatherRunContext } from './context';
import type { ExampleLibrary } from './examples/retrieval';
import { UserExampleStore, exampleFromAnswer, loadUserExamples, userExampleId } from './examples/userExamples';
import { findForkPoint, replaceQuestionText, validQuestionId } from './fork';
import { createAgentGraph } from './graph';
import { buildHumanMessage } from './humanMessage';
import { createPipelineGraph } from './pipeline';
import { baseUrlProblem, createChatModel, normaliseBaseUrl } from './llm/chatModel';
import { readErrorBody } from './llm/wire/errorBody';
import { PrivacyLogStore } from './privacy/PrivacyLogStore';
import { createRecordingFetch } from './privacy/recordingFetch';
import { UsageMeter } from './usage/usageMeter';
import { addUsage, type RunUsage } from '../../protocol/agent/usage';
import { networkAdvice } from '../../shared/endpointPresets';
import { providerRequest } from './llm/providerRequest';
import { checkCapabilities } from './llm/capabilities';
import { profileAdaptMemory } from './llm/adaptFetch';
import { textToolsSummary } from './llm/textTools';
import { windowFromModelEntry } from './llm/contextWindow';
import type { WireObservations } from './llm/wire/normalise';
import { SecretScrubber } from '../../shared/secrets';
import { IdbEndpointProfileStore, type EndpointProfileStore } from './llm/endpointProfile';
import { withholdHistory } from './privacy/withholdHistory';
import { runTurn } from './run';
import { contextBudget } from './summarize';
import { INTERNAL_FLAG, toThreadMessages } from './threadView';
import { createThreadCatalog } from './threads/catalog';
import { ThreadMetaStore } from './threads/ThreadMetaStore';
import { ToolOutputStore } from './threads/ToolOutputStore';
import { createWorkerHost, type DataClient, type PythonClient, type PythonOutput } from './tools/workerHost';
import { rowPolicyOf } from './tools/withholdRows';
import { messageOf } from '../../shared/errors';
import { KnowledgeStore } from '../../shared/knowledge/store';
import { describeColumns } from './knowledge/describe';
import { draftDictionary } from './knowledge/draft';
import { DATASETS_SHARE } from './knowledge/runContext';
import { estimateTokens } from './prompts';
import { dictionaryDraftThread } from '../../protocol/agent/wire';
import { transientLadder } from './llm/structured';

export interface AgentServiceDeps {
  data: DataClient;
  python?: { client: PythonClient; output: PythonOutput; packages(): Promise<string[]> };
  saver: IdbSaver;
  library: ExampleLibrary;
  /** Answers the user rated helpful (default: the browser's IndexedDB store). */
  userExamples?: UserExampleStore;
  /** Names, ratings and the search index of conversations (default: IndexedDB). */
  threadMeta?: ThreadMetaStore;
  emit(event: AgentEvent): void;
  fetch?: typeof fetch;
  /** Where every request a thread sends to the endpoint is logged (default: IndexedDB). */
  privacyLog?: PrivacyLogStore;
  /** Each tool call's full outcome, for reopening a conversation as it was (default: IndexedDB). */
  toolOutputs?: ToolOutputStore;
  /** Retries of a failed model request (each is reported as a `retrying` status). */
  maxRetries?: number;
  /** The keys in use, scrubbed from error texts and status details (default: a fresh one). */
  secrets?: SecretScrubber;
  /** What was learned per endpoint + model (refused parameters, structured-output rung; default: IndexedDB). */
  profiles?: EndpointProfileStore;
  newId?: () => string;
  /** The workspace's data dictionaries and rules (default: IndexedDB). */
  knowledge?: KnowledgeStore;
}

export type AgentService = Omit<Handlers<AgentRequests>, 'connectData' | 'connectPython'> & {
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
  const privacyLog = deps.privacyLog ?? new PrivacyLogStore();
  const secrets = deps.secrets ?? new SecretScrubber();
  const toolOutputs = deps.toolOutputs ?? new ToolOutputStore(undefined, (v) => secrets.scrubValue(v));
  const profiles = deps.profiles ?? new IdbEndpointProfileStore();
  const knowledge = deps.knowledge ?? new KnowledgeStore();
  // Errors and status details can quote an endpoint's reply, which may echo the key.
  const emit = (e: AgentEvent): void => {
    if (e.type === 'error') deps.emit({ ...e, message: secrets.scrub(e.message) });
    else if (e.type === 'status') deps.emit({ ...e, detail: secrets.scrub(e.detail) });
    else if (e.type === 'tool_error') deps.emit({ ...e, error: secrets.scrub(e.error) });
    else deps.emit(e);
  };

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

  const threadMeta = deps.threadMeta ?? new ThreadMetaStore();
  const catalog = createThreadCatalog({ threads: () => deps.saver.listThreads(), load: stored, meta: threadMeta });

  /** Adds a run's usage to the question it answered (a resumed run continues the last question). */
  async function recordUsage(threadId: string, questionId: string | undefined, usage: RunUsage): Promise<void> {
    const id = questionId ?? (await stored(threadId))?.messages.filter((m) => m.getType() === 'human' && m.additional_kwargs?.[INTERNAL_FLAG] !== true).at(-1)?.id;
    if (!id) return;
    await threadMeta.update(threadId, (row) => ({ ...row, usage: { ...row.usage, [id]: addUsage(row.usage?.[id], usage) } }));
  }
  const listThreads = (): Promise<AgentThreadSummary[]> => catalog.list();

  /** `question`: the new question's message; undefined resumes the thread from its last checkpoint. */
  function launch(settings: EndpointSettings, threadId: string, mode: 'agent' | 'pipeline', question: BaseMessage | undefined, wantedRunId: string | undefined) {
    checkSettings(settings);
    secrets.addEndpoint(settings);
    if (current) throw new Error('A run is already in progress; stop it first.');
    if (wantedRunId !== undefined && !validQuestionId(wantedRunId)) throw new Error('The run id must be 1–100 letters, digits, "-" or "_".');
    const runId = wantedRunId ?? newId();
    const ctrl = new AbortController();
    const rowPolicy = rowPolicyOf(settings, DEFAULT_ROWS_PER_TOOL_OUTPUT);
    const status = (kind: 'provider_adjusted' | 'retrying', detail: string) => emit({ type: 'status', kind, detail, run_id: runId });
    const adapt = (detail: string) => status('provider_adjusted', detail);
    const meter = new UsageMeter();
    const usage = async (): Promise<RunUsage | undefined> => {
      // The last stream's usage chunk is read from a tee just after the SDK finished with it.
      await meter.settled(2000);
      const total = meter.total(settings.model, normaliseBaseUrl(settings.baseUrl));
      if (total) await recordUsage(threadId, question?.id, total).catch(() => undefined);
      return total;
    };
    const build = async () => {
      // What this endpoint + model refused before is left out from the first request on.
      const profile = await profiles.get(settings.baseUrl, settings.model).catch(() => undefined);
      const refused = new Set(profile?.refusedParams ?? []);
      let rung = profile?.structuredRung ?? (profile?.capabilities?.structured !== 'none' ? profile?.capabilities?.structured : undefined);
      const remember = (patch: Parameters<EndpointProfileStore['update']>[2]) => void profiles.update(settings.baseUrl, settings.model, patch).catch(() => undefined);
      const model = createChatModel(settings, {
        maxRetries: deps.maxRetries ?? 2,
        // Every request of the run is logged for the thread, exactly as sent (never its headers).
        fetch: createRecordingFetch(deps.fetch ?? ((input, init) => fetch(input, init)), meter.wrap(privacyLog.sink(threadId))),
        // Outputs stored before "No raw rows" was turned on are shaped too.
        ...(rowPolicy ? { prepareMessages: (messages: BaseMessage[]) => withholdHistory(messages, rowPolicy) } : {}),
        memory: {
          refused,
          remember: (param) => {
            refused.add(param);
            remember({ refusedParams: [param] });
          },
        },
        onAdapt: adapt,
        adapt: profileAdaptMemory(profiles, settings, profile),
        onRetry: (r) =>
          status('retrying', `The endpoint answered ${r.status ?? 'with an error'}; retry ${r.attempt}${r.retryAfterMs !== undefined ? ` after ${Math.ceil(r.retryAfterMs / 1000)} s` : ''}.`),
      });
      const graphOf = mode === 'pipeline' ? createPipelineGraph : createAgentGraph;
      const budget = contextBudget(settings.model, settings.contextTokens ?? (profile?.contextWindow ? Math.floor(profile.contextWindow * 0.75) : undefined));
      return graphOf({
        model,
        // A learned window also sets when older turns are summarised (the rest is fitted on the wire).
        contextBudget: budget,
        checkpointer: deps.saver,
        ladder: {
          rung: () => rung,
          remember: (r) => {
            rung = r;
            remember({ structuredRung: r });
          },
        },
        onAdapt: adapt,
        tools: {
          host,
          rowPolicy,
          searchExamples: async (q, k, signal) => {
            await examplesReady;
            return (await deps.library.search(q, k, signal)).hits.map((h) => h.example);
          },
          describeColumns: (args) => describeColumns({ data: deps.data, dictionary: async (name) => {
            const d = await knowledge.dictionary(name);
            return d?.status === 'accepted' ? d : undefined;
          }, rawValues: !settings.noRawRows }, args),
        },
        context: async (q, signal) => {
          await examplesReady;
          return gatherRunContext(
            {
              data: deps.data,
              library: deps.library,
              pythonPackages: python ? () => python.packages() : undefined,
              samples: !settings.noRawRows,
              ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
              knowledge,
              datasetsBudget: Math.floor(budget * DATASETS_SHARE),
            },
            q,
            signal,
          );
        },
      });
    };
    const done = build()
      .then((graph) =>
        runTurn(graph, { thread_id: threadId, run_id: runId, mode, ...(question ? { message: question } : {}) }, {
          signal: ctrl.signal,
          onEvent: (e) => {
            toolOutputs.record(threadId, e);
            emit(e);
          },
          networkAdvice: networkAdvice(settings.baseUrl),
          usage,
        }),
      )
      .then(() => undefined)
      .finally(() => {
        if (current?.runId === runId) current = undefined;
      });
    current = { runId, threadId, ctrl, done };
    return { result: { run_id: runId } };
  }

  /**
   * Edit question / Regenerate: cuts the thread back to the checkpoint before the question
   * `replaces` (dropping it and every later turn, from storage and so from what the model is
   * sent), then runs the replacement there — the conversation continues in place.
   */
  async function launchFork(settings: EndpointSettings, threadId: string, mode: 'agent' | 'pipeline', replaces: string, replacement: (old: BaseMessage) => BaseMessage, runId: string | undefined) {
    checkSettings(settings);
    if (current) throw new Error('A run is already in progress; stop it first.');
    // Holds the run slot while the thread is cut, so no run or delete can interleave.
    let release: () => void = () => {};
    const hold = { runId: '', threadId, ctrl: new AbortController(), done: new Promise<void>((r) => (release = r)) };
    current = hold;
    let question: BaseMessage;
    try {
      const point = await findForkPoint(deps.saver, threadId, replaces);
      if (!point) throw new Error('This question is not in the saved conversation any more (it may not have been sent, or another tab changed it). Reopen the conversation and try again.');
      if (point.checkpointId === null) await deps.saver.deleteThread(threadId);
      else await deps.saver.truncateAfter(threadId, point.checkpointId);
      await catalog.keepRatings(threadId, point.keptQuestionIds);
      question = replacement(point.question);
    } finally {
      if (current === hold) current = undefined;
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
        return launchFork(settings, thread_id, mode, replaces, (old) =>
          images !== undefined ? buildHumanMessage(question, images, question_id) : replaceQuestionText(old, question, question_id ?? newId()),
          run_id,
        );
      }
      return launch(settings, thread_id, mode, buildHumanMessage(question, images, question_id), run_id);
    },
    resume: async ({ settings, thread_id, run_id }) => {
      const s = await stored(thread_id);
      if (!s) throw new Error(`There is no conversation ${thread_id} to continue.`);
      return launch(settings, thread_id, s.mode, undefined, run_id);
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
      const ratings = await catalog.ratings(thread_id);
      const view: ThreadView = {
        thread_id,
        mode: s.mode,
        messages: toThreadMessages(s.messages),
        finals: s.finals,
        // A question without a final output: the run stopped early (reload, crash, failure).
        interrupted: s.finals.length < questions && current === undefined,
        ...(s.summary ? { summary: s.summary } : {}),
        ...(Object.keys(ratings).length > 0 ? { ratings } : {}),
      };
      const usage = (await threadMeta.get(thread_id).catch(() => undefined))?.usage;
      if (usage && Object.keys(usage).length > 0) view.usage = usage;
      const outputs = await toolOutputs.forThread(thread_id).catch(() => ({}));
      if (Object.keys(outputs).length > 0) view.tool_outputs = outputs;
      return { result: view };
    },
    deleteThread: async ({ thread_id }) => {
      if (current?.threadId === thread_id) throw new Error('Stop the running conversation before deleting it.');
      await deps.saver.deleteThread(thread_id);
      await catalog.forget(thread_id);
      await privacyLog.deleteThread(thread_id);
      await toolOutputs.deleteThread(thread_id).catch(() => undefined);
      return { result: await listThreads() };
    },
    rateAnswer: async ({ thread_id, question, final, rating, question_id }) => {
      await examplesReady;
      if (question_id !== undefined) await catalog.rate(thread_id, question_id, rating);
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
    renameThread: async ({ thread_id, title }) => {
      await catalog.rename(thread_id, title);
      return { result: await listThreads() };
    },
    searchThreads: async ({ query }) => ({ result: await catalog.search(query) }),
    listModels: async ({ settings }) => {
      secrets.addEndpoint(settings);
      const doFetch = deps.fetch ?? fetch;
      let outcome: ModelListOutcome;
      try {
        const headers = new Headers();
        if (settings.apiKey) headers.set('authorization', `Bearer ${settings.apiKey}`);
        const url = providerRequest(`${normaliseBaseUrl(settings.baseUrl)}/models`, headers, settings.baseUrl);
        const res = await doFetch(url, { headers });
        if (!res.ok) {
          // The provider's own words, whatever shape its error body has (llm/wire/errorBody.ts).
          const words = readErrorBody(await res.text().catch(() => ''), res.headers.get('content-type') ?? '');
          const said = words.message && !words.empty ? (words.html ? ` with a web page (“${words.message}”)` : `: “${words.message}”`) : '';
          outcome = { ok: false, status: res.status, message: res.status === 401 || res.status === 403 ? 'The key was refused by the endpoint.' : `The endpoint answered HTTP ${res.status}${said}.` };
        } else {
          const body = (await res.json()) as { data?: { id?: unknown }[] };
          const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
          // Where the list states a model's window (local servers, OpenRouter), requests to it are
          // fitted from the first one on; a long hosted list is left to learn from refusals.
          const entries = body.data ?? [];
          if (entries.length <= 100) {
            for (const m of entries) {
              const window = windowFromModelEntry(m);
              if (window && typeof m.id === 'string') await profiles.update(settings.baseUrl, m.id, { contextWindow: window }).catch(() => undefined);
            }
          }
          outcome = { ok: true, models: models.sort() };
        }
      } catch (e) {
        outcome = { ok: false, message: `The endpoint could not be reached (${messageOf(e)}). ${networkAdvice(settings.baseUrl)}` };
      }
      return { result: outcome };
    },
    privacyLog: async ({ thread_id }) => ({ result: await privacyLog.list(thread_id) }),
    checkCapabilities: async ({ settings, images }) => {
      checkSettings(settings);
      secrets.addEndpoint(settings);
      const profile = await profiles.get(settings.baseUrl, settings.model).catch(() => undefined);
      const refused = new Set(profile?.refusedParams ?? []);
      const observed: WireObservations = { reasoning: 'none', recoveredCalls: 0 };
      const adapt = profileAdaptMemory(profiles, settings, profile ? { contextWindow: profile.contextWindow } : undefined);
      const model = createChatModel(settings, {
        maxRetries: 0,
        timeoutMs: 60_000,
        ...(deps.fetch ? { fetch: deps.fetch } : {}),
        memory: {
          refused,
          remember: (param) => {
            refused.add(param);
            void profiles.update(settings.baseUrl, settings.model, { refusedParams: [param] }).catch(() => undefined);
          },
        },
        observed,
        adapt,
      });
      const checked = await checkCapabilities(model, observed, { images: images === true });
      // A refused key or an unknown model taught nothing about the model: nothing to remember.
      if (checked.failure) return { result: checked };
      // The check asks native tool calls again (the server may have been restarted with them on).
      const textTools = adapt.toolMode() === 'text';
      if (!textTools && checked.tools) adapt.setToolMode('native');
      const report = textTools ? { ...checked, summary: textToolsSummary(checked.summary) } : checked;
      await profiles
        .update(settings.baseUrl, settings.model, { capabilities: report, ...(report.structured !== 'none' ? { structuredRung: report.structured } : {}) })
        .catch(() => undefined);
      return { result: report };
    },
    modelContext: async ({ settings }) => {
      await examplesReady;
      const budget = contextBudget(settings.model, settings.contextTokens);
      const share = Math.floor(budget * DATASETS_SHARE);
      const ctx = await gatherRunContext({ data: deps.data, library: deps.library, samples: !settings.noRawRows, knowledge, datasetsBudget: share, topExamples: 0 }, '');
      const text = ctx.datasetsText ?? '';
      return { result: { text, tokens: estimateTokens(text), budget, share } };
    },
    draftDictionary: async ({ settings, dataset }) => {
      checkSettings(settings);
      secrets.addEndpoint(settings);
      const profile = await profiles.get(settings.baseUrl, settings.model).catch(() => undefined);
      const refused = new Set(profile?.refusedParams ?? []);
      const ladder = transientLadder();
      const rung = profile?.structuredRung;
      if (rung) ladder.remember(rung);
      const model = createChatModel(settings, {
        maxRetries: deps.maxRetries ?? 2,
        // Sent like everything else: logged exactly as sent, under the dataset's draft thread.
        fetch: createRecordingFetch(deps.fetch ?? ((input, init) => fetch(input, init)), privacyLog.sink(dictionaryDraftThread(dataset))),
        memory: {
          refused,
          remember: (param) => {
            refused.add(param);
            void profiles.update(settings.baseUrl, settings.model, { refusedParams: [param] }).catch(() => undefined);
          },
        },
      });
      return { result: await draftDictionary({ data: deps.data, model, ladder, rawValues: !settings.noRawRows }, dataset) };
    },
    idle: async () => {
      await current?.done;
    },
  };
}
