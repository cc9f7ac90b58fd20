/**
 * What the agent worker's request handlers share: the dependencies a host passes in
 * (`AgentServiceDeps`), with IndexedDB stores standing in for those it leaves out, the one
 * run slot, and events out with the keys scrubbed. Each job's handlers (runs.ts,
 * threads/handlers.ts, examples/rating.ts, knowledge/handlers.ts, llm/) take these parts.
 */
import type { AgentEvent } from '../../../protocol/agent/wire';
import { SecretScrubber } from '../../../shared/secrets';
import type { IdbSaver } from '../checkpoint/IdbSaver';
import type { ExampleLibrary } from '../examples/retrieval';
import { UserExampleStore, loadUserExamples } from '../examples/userExamples';
import { KnowledgeStore } from '../../../shared/knowledge/store';
import type { PromptFit } from '../knowledge/windowFit';
import { IdbEndpointProfileStore, type EndpointProfileStore } from '../llm/endpointProfile';
import { PrivacyLogStore } from '../privacy/PrivacyLogStore';
import { createThreadCatalog, type ThreadCatalog } from '../threads/catalog';
import { storedThread, type StoredThread } from '../threads/stored';
import { ThreadMetaStore } from '../threads/ThreadMetaStore';
import { ToolOutputStore } from '../threads/ToolOutputStore';
import type { DataClient, PythonClient, PythonOutput } from '../tools/workerHost';
import type { PythonPackages } from '../tools/pythonPackages';

export interface AgentServiceDeps {
  data: DataClient;
  /** `packages`: what run_python can import now, as the Python side last pushed it. */
  python?: { client: PythonClient; output: PythonOutput; packages: PythonPackages };
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

/** The run in progress (at most one), or a fork holding the slot while it cuts the thread. */
export interface CurrentRun {
  runId: string;
  threadId: string;
  ctrl: AbortController;
  done: Promise<void>;
}

export interface AgentParts {
  deps: AgentServiceDeps;
  newId: () => string;
  secrets: SecretScrubber;
  /** Events to the page, with the keys scrubbed from texts an endpoint's reply can fill. */
  emit(event: AgentEvent): void;
  privacyLog: PrivacyLogStore;
  toolOutputs: ToolOutputStore;
  profiles: EndpointProfileStore;
  knowledge: KnowledgeStore;
  threadMeta: ThreadMetaStore;
  catalog: ThreadCatalog;
  userExamples: UserExampleStore;
  /** Runs wait for this so the saved examples are searchable from the first question. */
  examplesReady: Promise<unknown>;
  stored(threadId: string): Promise<StoredThread | undefined>;
  slot: { current: CurrentRun | undefined };
  /** The model's fetch: the host's, or the browser's (called late, so tests can stub it). */
  fetch: typeof fetch;
  /** (issue 32) What the last prompt carried of the workspace's knowledge ("What the model sees"). */
  lastPrompt: { fit: PromptFit | undefined };
}

export function assembleParts(deps: AgentServiceDeps): AgentParts {
  const secrets = deps.secrets ?? new SecretScrubber();
  const userExamples = deps.userExamples ?? new UserExampleStore();
  const threadMeta = deps.threadMeta ?? new ThreadMetaStore();
  const stored = (threadId: string) => storedThread(deps.saver, threadId);
  // Errors and status details can quote an endpoint's reply, which may echo the key.
  const emit = (e: AgentEvent): void => {
    if (e.type === 'error') deps.emit({ ...e, message: secrets.scrub(e.message) });
    else if (e.type === 'status') deps.emit({ ...e, detail: secrets.scrub(e.detail) });
    else if (e.type === 'tool_error') deps.emit({ ...e, error: secrets.scrub(e.error) });
    else deps.emit(e);
  };
  return {
    deps,
    newId: deps.newId ?? (() => crypto.randomUUID()),
    secrets,
    emit,
    privacyLog: deps.privacyLog ?? new PrivacyLogStore(),
    toolOutputs: deps.toolOutputs ?? new ToolOutputStore(undefined, (v) => secrets.scrubValue(v)),
    profiles: deps.profiles ?? new IdbEndpointProfileStore(),
    knowledge: deps.knowledge ?? new KnowledgeStore(),
    threadMeta,
    catalog: createThreadCatalog({ threads: () => deps.saver.listThreads(), load: stored, meta: threadMeta }),
    userExamples,
    examplesReady: loadUserExamples(userExamples, deps.library),
    stored,
    slot: { current: undefined },
    fetch: deps.fetch ?? ((input, init) => fetch(input, init)),
    lastPrompt: { fit: undefined },
  };
}
