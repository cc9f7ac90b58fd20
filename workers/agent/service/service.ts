/**
 * The agent worker's request handlers (`AgentRequests`), independent of the worker global so
 * they run in Node tests. Each job lives in its own module — runs (runs.ts), conversations
 * (threadHandlers.ts), ratings (ratingHandler.ts), knowledge (knowledgeHandlers.ts), the
 * endpoint's model list and capability probe (llm/) — sharing the parts of serviceParts.ts.
 */
import type { AgentRequests } from '../../../protocol/agent/wire';
import type { Handlers } from '../../../protocol/rpcServer';
import { createRatingHandler } from './ratingHandler';
import { createKnowledgeHandlers } from './knowledgeHandlers';
import { probeCapabilities } from '../llm/capabilityProbe';
import { checkSettings } from '../llm/endpointModel';
import { listModels } from '../llm/modelList';
import { createRunHandlers } from './runs';
import { assembleParts, type AgentServiceDeps } from './serviceParts';
import { createThreadHandlers } from './threadHandlers';
import { createWorkerHost } from '../tools/workerHost';

export type { AgentServiceDeps } from './serviceParts';

export type AgentService = Omit<Handlers<AgentRequests>, 'connectData' | 'connectPython'> & {
  /** Resolves when the current run (if any) has ended; for tests and shutdown. */
  idle(): Promise<void>;
};

export function createAgentService(deps: AgentServiceDeps): AgentService {
  const parts = assembleParts(deps);
  const host = createWorkerHost({ data: deps.data, python: deps.python });
  const { secrets, profiles } = parts;
  return {
    ...createRunHandlers(parts, host),
    ...createThreadHandlers(parts),
    ...createRatingHandler(parts),
    ...createKnowledgeHandlers(parts),
    listModels: async ({ settings }) => {
      secrets.addEndpoint(settings);
      return { result: await listModels(settings, profiles, parts.fetch) };
    },
    checkCapabilities: async ({ settings, images }) => {
      checkSettings(settings);
      secrets.addEndpoint(settings);
      return { result: await probeCapabilities(settings, profiles, { images: images === true, ...(deps.fetch ? { fetch: deps.fetch } : {}) }) };
    },
  };
}
