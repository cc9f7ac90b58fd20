/**
 * Builds the graph one run goes through (agent or pipeline mode) for the endpoint settings it
 * was started with: the model (llm/endpointModel.ts) logging every request for the thread and
 * metering its usage, the structured-output ladder and context budget learned for the endpoint,
 * the tools, and the run's global context.
 */
import type { BaseMessage } from '@langchain/core/messages';
import type { AgentMode } from '../../../protocol/agent/final';
import type { EndpointSettings } from '../../../protocol/agent/wire';
import { gatherRunContext } from '../graph/context';
import { createAgentGraph } from '../graph/graph';
import { describeColumns } from '../knowledge/describe';
import { DATASETS_SHARE } from '../knowledge/runContext';
import { fitStep, knowledgeSection, promptFit } from '../knowledge/windowFit';
import type { WorkspaceContext, WorkspaceContextInput } from '../knowledge/prompt';
import type { KnowledgeSection } from '../llm/contextWindow';
import { bindDictionaries } from '../../../shared/knowledge/identity';
import { profileAdaptMemory } from '../llm/adaptFetch';
import { endpointModel } from '../llm/endpointModel';
import { createPipelineGraph } from '../graph/pipeline';
import { createRecordingFetch } from '../privacy/recordingFetch';
import { withholdHistory } from '../privacy/withholdHistory';
import type { AgentParts } from './serviceParts';
import { contextBudget } from '../graph/summarize';
import type { ToolHost } from '../tools/execute';
import type { RowPolicy } from '../tools/withholdRows';
import type { UsageMeter } from '../usage/usageMeter';

export interface RunGraphOptions {
  settings: EndpointSettings;
  threadId: string;
  mode: AgentMode;
  host: ToolHost;
  rowPolicy: RowPolicy | undefined;
  meter: UsageMeter;
  status(kind: 'provider_adjusted' | 'retrying' | 'context_fitted', detail: string): void;
}

export async function buildRunGraph(parts: AgentParts, o: RunGraphOptions) {
  const { deps, profiles, knowledge, privacyLog, examplesReady } = parts;
  const { settings, threadId, rowPolicy } = o;
  const adapt = (detail: string) => o.status('provider_adjusted', detail);
  // The run's knowledge, refitted whole when a request must fit the window; each change of what
  // the prompt carries is said as a step and kept for the page.
  let knowledgeSectionOfRun: KnowledgeSection | undefined;
  const onKnowledge = (input: WorkspaceContextInput, ctx: WorkspaceContext) => {
    parts.lastPrompt.fit = promptFit(ctx, ctx);
    knowledgeSectionOfRun = knowledgeSection(input, ctx, (fit, changed) => {
      parts.lastPrompt.fit = fit;
      if (changed) o.status('context_fitted', fitStep(fit) ?? "The prompt carries the workspace's knowledge in full again.");
    });
  };
  const { model, profile, remember } = await endpointModel(settings, profiles, (p) => ({
    maxRetries: deps.maxRetries ?? 2,
    // Every request of the run is logged for the thread, exactly as sent (never its headers).
    fetch: createRecordingFetch(parts.fetch, o.meter.wrap(privacyLog.sink(threadId))),
    // Outputs stored before "No raw rows" was turned on are shaped too.
    ...(rowPolicy ? { prepareMessages: (messages: BaseMessage[]) => withholdHistory(messages, rowPolicy) } : {}),
    onAdapt: adapt,
    adapt: profileAdaptMemory(profiles, settings, p),
    knowledge: () => knowledgeSectionOfRun,
    onRetry: (r) => o.status('retrying', `The endpoint answered ${r.status ?? 'with an error'}; retry ${r.attempt}${r.retryAfterMs !== undefined ? ` after ${Math.ceil(r.retryAfterMs / 1000)} s` : ''}.`),
  }));
  let rung = profile?.structuredRung ?? (profile?.capabilities?.structured !== 'none' ? profile?.capabilities?.structured : undefined);
  const graphOf = o.mode === 'pipeline' ? createPipelineGraph : createAgentGraph;
  // A learned window also sets when older turns are summarised (the rest is fitted on the wire).
  const budget = contextBudget(settings.model, settings.contextTokens ?? (profile?.contextWindow ? Math.floor(profile.contextWindow * 0.75) : undefined));
  const python = deps.python;
  return graphOf({
    model,
    contextBudget: budget,
    checkpointer: deps.saver,
    ladder: {
      rung: () => rung,
      remember: (r) => {
        rung = r;
        void remember({ structuredRung: r });
      },
    },
    onAdapt: adapt,
    tools: {
      host: o.host,
      rowPolicy,
      searchExamples: async (q, k) => {
        await examplesReady;
        return deps.library.search(q, k).map((h) => h.example);
      },
      describeColumns: (args) =>
        describeColumns(
          {
            data: deps.data,
            dictionary: async (ds, all) => {
              const d = bindDictionaries(await knowledge.dictionaries(), all).get(ds.name)?.own;
              return d?.status === 'accepted' ? d : undefined;
            },
            rawValues: !settings.noRawRows,
          },
          args,
        ),
    },
    context: async (q) => {
      await examplesReady;
      return gatherRunContext(
        {
          data: deps.data,
          library: deps.library,
          pythonPackages: python ? () => python.packages.current() : undefined,
          samples: !settings.noRawRows,
          ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
          knowledge,
          datasetsBudget: Math.floor(budget * DATASETS_SHARE),
          onKnowledge,
        },
        q,
      );
    },
  });
}
