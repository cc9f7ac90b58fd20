/**
 * The knowledge requests (issue 24): the datasets block as the next run's prompt would carry it
 * (`modelContext`), and one model call drafting a dataset's dictionary (`draftDictionary`),
 * logged in the privacy log under the dataset's draft thread.
 */
import { dictionaryDraftThread, type AgentRequests } from '../../../protocol/agent/wire';
import type { Handlers } from '../../../protocol/rpcServer';
import { gatherRunContext } from '../graph/context';
import { checkSettings, endpointModel } from '../llm/endpointModel';
import { transientLadder } from '../llm/structured';
import { createRecordingFetch } from '../privacy/recordingFetch';
import { estimateTokens } from '../core/prompts';
import type { AgentParts } from './serviceParts';
import { contextBudget } from '../graph/summarize';
import { draftDictionary } from '../knowledge/draft';
import { DATASETS_SHARE } from '../knowledge/runContext';
import { watchRefusals } from '../llm/refusalWatch';

/** What a cancelled draft's request fails with (the page says it as a cancel, not an error). */
export const DRAFT_CANCELLED = 'Draft cancelled.';

export function createKnowledgeHandlers(parts: AgentParts): Pick<Handlers<AgentRequests>, 'modelContext' | 'draftDictionary' | 'cancelDraft'> {
  const { deps, knowledge, privacyLog, profiles, secrets, examplesReady } = parts;
  /** Drafts in flight, by dataset (issue 37: a draft can be cancelled). */
  const drafting = new Map<string, AbortController>();
  return {
    modelContext: async ({ settings }) => {
      await examplesReady;
      const budget = contextBudget(settings.model, settings.contextTokens);
      const share = Math.floor(budget * DATASETS_SHARE);
      const ctx = await gatherRunContext({ data: deps.data, library: deps.library, samples: !settings.noRawRows, knowledge, datasetsBudget: share, topExamples: 0 }, '');
      const text = ctx.datasetsText ?? '';
      const last = parts.lastPrompt.fit;
      const lastPrompt = last ? { last_prompt: { at: last.at, left_out: last.leftOut, levels: last.levels, described: last.described, essential_left_out: last.essentialLeftOut } } : {};
      return { result: { text, tokens: estimateTokens(text), budget, share, levels: ctx.knowledgeLevels ?? {}, left_out: ctx.knowledgeLeftOut ?? [], ...lastPrompt } };
    },
    draftDictionary: async ({ settings, dataset }) => {
      checkSettings(settings);
      secrets.addEndpoint(settings);
      // Sent like everything else: logged exactly as sent, under the dataset's draft thread; a
      // refusal (OpenAI's `refusal` field) is read off the same responses.
      const watch = watchRefusals(createRecordingFetch(parts.fetch, privacyLog.sink(dictionaryDraftThread(dataset))));
      const { model, profile } = await endpointModel(settings, profiles, () => ({ maxRetries: deps.maxRetries ?? 2, fetch: watch.fetch }));
      const ladder = transientLadder();
      if (profile?.structuredRung) ladder.remember(profile.structuredRung);
      const abort = new AbortController();
      drafting.get(dataset)?.abort();
      drafting.set(dataset, abort);
      try {
        return { result: await draftDictionary({ data: deps.data, model, ladder, rawValues: !settings.noRawRows, refusal: watch.last }, dataset, abort.signal) };
      } catch (e) {
        if (abort.signal.aborted) throw new Error(DRAFT_CANCELLED, { cause: e });
        throw e;
      } finally {
        if (drafting.get(dataset) === abort) drafting.delete(dataset);
      }
    },
    cancelDraft: ({ dataset }) => {
      const abort = drafting.get(dataset);
      abort?.abort();
      return { result: { cancelled: abort !== undefined } };
    },
  };
}
