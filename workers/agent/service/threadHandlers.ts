/**
 * The `Conversations` requests: list, search, open, rename and delete a thread, and read its
 * privacy log. Opening one puts together what its checkpoint, the catalogue (ratings, usage)
 * and the stored tool outputs hold, so it reopens as the live run showed it.
 */
import type { AgentRequests } from '../../../protocol/agent/wire';
import type { ThreadView } from '../../../protocol/agent/threadView';
import type { Handlers } from '../../../protocol/rpcServer';
import type { AgentParts } from './serviceParts';
import { toThreadMessages } from '../core/threadView';
import { userQuestions } from '../threads/stored';
import { deleteConversation } from '../store/conversationDb';

export type ThreadHandlers = Pick<Handlers<AgentRequests>, 'listThreads' | 'loadThread' | 'deleteThread' | 'renameThread' | 'searchThreads' | 'privacyLog'>;

export function createThreadHandlers(parts: AgentParts): ThreadHandlers {
  const { catalog, privacyLog, toolOutputs, threadMeta, slot, stored } = parts;
  const saver = parts.deps.saver;
  return {
    listThreads: async () => ({ result: await catalog.list() }),
    loadThread: async ({ thread_id }) => {
      const s = await stored(thread_id);
      if (!s) return { result: null };
      const questions = userQuestions(s.messages).length;
      const ratings = await catalog.ratings(thread_id);
      const view: ThreadView = {
        thread_id,
        mode: s.mode,
        messages: toThreadMessages(s.messages),
        finals: s.finals,
        // A question without a final output: the run stopped early (reload, crash, failure).
        interrupted: s.finals.length < questions && slot.current === undefined,
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
      if (slot.current?.threadId === thread_id) throw new Error('Stop the running conversation before deleting it.');
      await deleteConversation(thread_id, [saver, threadMeta, privacyLog, toolOutputs]);
      catalog.forget(thread_id);
      return { result: await catalog.list() };
    },
    renameThread: async ({ thread_id, title }) => {
      await catalog.rename(thread_id, title);
      return { result: await catalog.list() };
    },
    searchThreads: async ({ query }) => ({ result: await catalog.search(query) }),
    privacyLog: async ({ thread_id }) => ({ result: await privacyLog.list(thread_id) }),
  };
}
